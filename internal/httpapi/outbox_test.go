package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/outbox"
	"docsd/internal/search"
	"docsd/internal/store"
)

// outboxKinds lists the kinds of the events about a space written after seq, in order.
func outboxKinds(t *testing.T, e *apitest.Env, spaceID string, after int64) []string {
	t.Helper()
	rows, err := e.App.DB.Read().Query(t.Context(), `SELECT kind FROM outbox_events WHERE space_id = ? AND seq > ? ORDER BY seq`, spaceID, after)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	return out
}

// lastSeq is the number of the newest event.
func lastSeq(t *testing.T, e *apitest.Env) int64 {
	t.Helper()
	var n int64
	if err := e.App.DB.Read().QueryRow(t.Context(), `SELECT seq FROM outbox_state WHERE id = 1`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// outboxMetric reads one of a consumer's outbox metrics from an instance's /metrics.
func outboxMetric(t *testing.T, e *apitest.Env, name, consumer string) float64 {
	t.Helper()
	re := regexp.MustCompile(`(?m)^` + name + `\{consumer="` + regexp.QuoteMeta(consumer) + `"\} (\S+)`)
	m := re.FindSubmatch(e.Get(apitest.Anonymous, "/metrics").Expect(200).Body)
	if m == nil {
		t.Fatalf("metrics lack %s for %s", name, consumer)
	}
	v, err := strconv.ParseFloat(string(m[1]), 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// mergeEdit merges a change request that sets a page's markdown.
func mergeEdit(t *testing.T, e *apitest.Env, spaceID, page, markdown string) {
	t.Helper()
	cr := newChangeRequest(t, e, e.Admin, spaceID, "edit "+page)
	editPage(t, e, spaceID, cr, page, map[string]any{"markdown": markdown})
	e.Post(e.Admin, crPath(spaceID, cr)+"/merge", nil).Expect(200)
}

// indexConsistent checks that the space's index is at its head and that its section count
// matches its rows: an update applied twice would leave duplicate rows or a wrong count.
func indexConsistent(t *testing.T, e *apitest.Env, spaceID string) {
	t.Helper()
	var rev string
	var sections, rows int
	q := e.App.DB.Read()
	if err := q.QueryRow(t.Context(), `SELECT revision_id, sections FROM search_indexed WHERE space_id = ?`, spaceID).Scan(&rev, &sections); err != nil {
		t.Fatal(err)
	}
	if err := q.QueryRow(t.Context(), `SELECT COUNT(*) FROM search_sections WHERE space_id = ?`, spaceID).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rev != headOf(e, spaceID) || sections != rows {
		t.Errorf("index at %s (head %s) with %d sections, %d rows", rev, headOf(e, spaceID), sections, rows)
	}
}

func TestOutboxEventsAreWrittenWithTheirChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	start := lastSeq(t, e)
	sp, _ := crSpace(t, e)
	cr := newChangeRequest(t, e, e.Admin, sp, "events")
	editPage(t, e, sp, cr, "p1", map[string]any{"markdown": "Edited.\n"})
	e.Post(e.Admin, "/v1/spaces/"+sp+"/comments", map[string]any{"body": md("A remark.")}).Expect(200)
	e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"title": "Renamed"}).Expect(200)
	e.Delete(e.Admin, "/v1/spaces/"+sp).Expect(204)
	e.Post(e.Admin, "/v1/spaces/"+sp+"/restore", nil).Expect(200)
	got := outboxKinds(t, e, sp, start)
	// The new space's first (empty) revision and the import's, then the change request's
	// life, in commit order.
	want := []string{outbox.SpaceCreated, outbox.HeadMoved, outbox.HeadMoved, outbox.ChangeRequestOpened, outbox.ChangeRequestUpdated,
		outbox.CommentPosted, outbox.HeadMoved, outbox.ChangeRequestMerged, outbox.SpaceUpdated, outbox.SpaceDeleted,
		outbox.SpaceRestored}
	if !slices.Equal(got, want) {
		t.Errorf("events\n got %v\nwant %v", got, want)
	}

	t.Run("a failed request writes no event", func(t *testing.T) {
		before := lastSeq(t, e)
		for _, r := range []*apitest.Resp{
			e.Post(e.Admin, crPath(sp, cr)+"/merge", nil), // already merged
			e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"visibility": "nonsense"}),
		} {
			if r.Status < 400 {
				t.Fatalf("%s %s answered %d", r.Method, r.Path, r.Status)
			}
		}
		if after := lastSeq(t, e); after != before {
			t.Errorf("%d events written by failed requests", after-before)
		}
	})
	t.Run("numbers have no gaps", func(t *testing.T) {
		var n, lo, hi int64
		if err := e.App.DB.Read().QueryRow(t.Context(), `SELECT COUNT(*), MIN(seq), MAX(seq) FROM outbox_events`).Scan(&n, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		if n != hi-lo+1 {
			t.Errorf("%d events numbered %d to %d", n, lo, hi)
		}
	})
	t.Run("events older than the retention period are pruned", func(t *testing.T) {
		e.Clock.Advance(e.App.Config.OutboxRetention + 2*time.Hour)
		mergeEdit(t, e, sp, "p2", "Fresh.\n")
		e.RunDue() // the periodic prune job
		if got := outboxKinds(t, e, sp, 0); !slices.Equal(got, []string{outbox.ChangeRequestOpened, outbox.ChangeRequestUpdated,
			outbox.HeadMoved, outbox.ChangeRequestMerged}) {
			t.Errorf("after pruning, events %v", got)
		}
	})
}

// Two instances on one database both run every consumer; each event is processed by exactly
// one of them, for each consumer.
func TestOutboxConsumersProcessEachEventOnceAcrossInstances(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	peer := e.Peer()
	sp, _ := crSpace(t, e)
	// The race below is between explicit runs on both instances; the background runners
	// are stopped (each waits for its batch in progress) so that none is still counting
	// earlier events when the count starts.
	e.App.Outbox.Stop()
	peer.App.Outbox.Stop()
	e.RunDue()
	// Every consumer, not only the search indexer, is counted: each must take each event once.
	consumers := e.App.Outbox.Names()
	processed := func(name string) float64 {
		return outboxMetric(t, e, "docsd_outbox_processed_events_total", name) +
			outboxMetric(t, peer, "docsd_outbox_processed_events_total", name)
	}
	before := map[string]float64{}
	for _, name := range consumers {
		before[name] = processed(name)
	}
	from := lastSeq(t, e)

	var wg sync.WaitGroup
	stop := make(chan struct{})
	// Both instances are asked to run, twice each at once, again and again, while changes
	// land.
	for _, env := range []*apitest.Env{e, peer, e, peer} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := env.App.Outbox.RunPending(context.Background()); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	for i := range 8 {
		writer := e
		if i%2 == 1 {
			writer = peer
		}
		mergeEdit(t, writer, sp, "p1", fmt.Sprintf("Round %d: quagga%d.\n", i, i))
	}
	close(stop)
	wg.Wait()
	e.RunDue()
	peer.RunDue()
	to := lastSeq(t, e)
	for _, name := range consumers {
		if got := processed(name) - before[name]; got != float64(to-from) {
			t.Errorf("consumer %s: %v events processed by the two instances, %d written", name, got, to-from)
		}
		if outboxMetric(t, e, "docsd_outbox_pending_events", name) != 0 {
			t.Errorf("consumer %s: events still pending", name)
		}
	}
	if len(consumers) < 4 {
		t.Errorf("consumers %v: want the search, integrations, translations and OpenAPI ones at least", consumers)
	}
	indexConsistent(t, e, sp)
	if got := pageIDs(spaceSearch(e, e.Admin, sp, "quagga7").Expect(200)); !slices.Equal(got, []string{"p1"}) {
		t.Errorf("found %v", got)
	}
}

// A consumer that processed events and died before moving its cursor sees them again; the
// search consumer's second pass changes nothing.
func TestOutboxSearchConsumerAfterACrashBeforeTheCursorMoved(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	e.RunDue()
	e.App.Outbox.Stop()
	b := newTreeBuilder()
	for i := range 80 { // too large for a search to catch up: only the consumer indexes it
		b.doc(fmt.Sprintf("g%02d", i), "", fmt.Sprintf("Gnu %d", i), fmt.Sprintf("g%02d", i), "wildebeest text\n")
	}
	replaceContent(t, e, e.Admin, sp, b.tree)
	mergeEdit(t, e, sp, "g01", "A wildebeest and a zebra.\n")

	ctx := t.Context()
	claim, ok, err := store.Outbox{DB: e.App.DB}.ClaimEvents(ctx, search.Consumer, "crashed", e.Clock.Now(), time.Minute, 100)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	events := claim.Events()
	if len(events) == 0 {
		t.Fatal("no events claimed")
	}
	if err := e.App.Search.HandleEvents(ctx, events); err != nil {
		t.Fatal(err)
	}
	indexConsistent(t, e, sp)
	// The crash: on PostgreSQL the claim's connection goes, and its lock with it; on SQLite
	// the lease is left to expire.
	if apitest.Engine() == "postgres" {
		claim.Release()
	} else {
		// Other consumers (openapi.sources) take the events; the search consumer's wait.
		if _, err := e.App.Outbox.RunPending(ctx); err != nil {
			t.Fatal(err)
		}
		if n := outboxMetric(t, e, "docsd_outbox_pending_events", search.Consumer); n != float64(len(events)) {
			t.Fatalf("%v search events pending under another instance's lease, want %d", n, len(events))
		}
		e.Clock.Advance(2 * time.Minute)
	}
	n, err := e.App.Outbox.RunPending(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n < len(events) {
		t.Errorf("processed %d events again, want at least the %d of the crashed claim", n, len(events))
	}
	indexConsistent(t, e, sp)
	r := e.Get(e.Admin, "/v1/spaces/"+sp+"/search?query=wildebeest&limit=1000").Expect(200)
	if r.Num("count") != 80 {
		t.Errorf("found %v pages, want 80", r.Num("count"))
	}
	if got := pageIDs(spaceSearch(e, e.Admin, sp, "zebra").Expect(200)); !slices.Equal(got, []string{"g01"}) {
		t.Errorf("zebra found %v", got)
	}
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", search.Consumer); got != 0 {
		t.Errorf("%v events pending after the second pass", got)
	}
}

// /metrics shows how far each consumer is behind and how often it failed.
func TestOutboxLagMetrics(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	e.RunDue()
	e.App.Outbox.Stop()
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", search.Consumer); got != 0 {
		t.Fatalf("%v pending at rest", got)
	}
	mergeEdit(t, e, sp, "p1", "Behind.\n")
	e.Clock.Advance(30 * time.Second)
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", search.Consumer); got < 2 {
		t.Errorf("%v pending after a merge, want its events", got)
	}
	if got := outboxMetric(t, e, "docsd_outbox_oldest_pending_seconds", search.Consumer); got < 30 {
		t.Errorf("oldest pending %vs, want at least 30", got)
	}

	fails := 1
	if err := e.App.Outbox.Register(t.Context(), "test-flaky", func(ctx context.Context, events []outbox.Event) error {
		if fails > 0 {
			fails--
			return errors.New("not yet")
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.App.Outbox.RunPending(t.Context()); err == nil {
		t.Error("a failing consumer reported no error")
	}
	if got := outboxMetric(t, e, "docsd_outbox_failed_attempts", "test-flaky"); got != 1 {
		t.Errorf("failed attempts %v, want 1", got)
	}
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", search.Consumer); got != 0 {
		t.Errorf("search consumer: %v pending after running", got)
	}
	if _, err := e.App.Outbox.RunPending(t.Context()); err != nil {
		t.Fatal(err)
	}
	if got := outboxMetric(t, e, "docsd_outbox_failed_attempts", "test-flaky"); got != 0 {
		t.Errorf("failed attempts %v after a success, want 0", got)
	}
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", "test-flaky"); got != 0 {
		t.Errorf("%v pending after a success", got)
	}
}

// On PostgreSQL, a write through one instance wakes the consumers of another at once
// (LISTEN/NOTIFY), well before their poll.
func TestOutboxNotifiesOtherInstances(t *testing.T) {
	t.Parallel()
	if apitest.Engine() != "postgres" {
		t.Skip("instances on one SQLite file learn of each other's events by polling")
	}
	e := apitest.New(t)
	peer := e.Peer()
	sp, _ := crSpace(t, e)
	e.RunDue()
	peer.App.Outbox.Stop()             // only e's background runner is left to process events
	time.Sleep(200 * time.Millisecond) // e's listener is connected by now
	before := outboxMetric(t, e, "docsd_outbox_processed_events_total", search.Consumer)
	mergeEdit(t, peer, sp, "p1", "Written through the peer.\n")
	deadline := time.Now().Add(time.Second) // the poll is every 5 s
	for outboxMetric(t, e, "docsd_outbox_pending_events", search.Consumer) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the other instance's consumer was not woken by the write")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if got := outboxMetric(t, e, "docsd_outbox_processed_events_total", search.Consumer) - before; got == 0 {
		t.Error("the events were processed, but not by the instance that was woken")
	}
}
