package httpapi_test

import (
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/integration"
	"docsd/internal/store"
)

// eventsOf lists an integration's events as "type spaceId installationId" lines, sorted.
func eventsOf(e *apitest.Env, name string) []string {
	e.T.Helper()
	// The list shows events with an outcome: deliver the due ones (jobs only, the outbox's
	// consumers are the tests' to run).
	if _, err := e.App.Jobs.RunDue(e.T.Context()); err != nil {
		e.T.Fatal(err)
	}
	var out []string
	for _, it := range e.WalkList(e.Admin, "/v1/integrations/"+name+"/events", 100) {
		p := it["payload"].(map[string]any)
		sp, _ := p["spaceId"].(string)
		out = append(out, p["type"].(string)+" "+sp+" "+it["installationId"].(string))
	}
	sort.Strings(out)
	return out
}

func TestIntegrationEventsFromChanges(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "watcher", nil)
	publish(e, "everywhere", nil)
	sp, other := titledSpace(t, e, "Watched"), titledSpace(t, e, "Unwatched")
	e.RunDue() // their creation happened before any installation
	w := e.Post(e.Admin, "/v1/integrations/watcher/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Post(e.Admin, "/v1/integrations/watcher/installations/"+w+"/spaces", map[string]any{"space": sp}).Expect(201)
	all := e.Post(e.Admin, "/v1/integrations/everywhere/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Patch(e.Admin, "/v1/integrations/everywhere/installations/"+all, map[string]any{"space_selection": "all"}).Expect(200)
	e.RunDue()

	// A new head of the watched space: one event per concerned installation; the unwatched
	// space concerns only the installation that selects every space.
	rev, _ := replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p1", "", "One", "one", "Hello.\n").tree)
	replaceContent(t, e, e.Admin, other, newTreeBuilder().doc("p1", "", "One", "one", "Hello.\n").tree)
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"visibility": "public"}).Expect(200)
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"title": "Renamed"}).Expect(200) // not a visibility change
	e.RunDue()
	e.RunDue() // a second pass writes nothing twice

	sorted := func(lines ...string) string {
		sort.Strings(lines)
		return strings.Join(lines, "\n")
	}
	if got, want := strings.Join(eventsOf(e, "watcher"), "\n"), sorted(
		"installation_setup  "+w, "space_content_updated "+sp+" "+w, "space_installation_setup "+sp+" "+w,
		"space_visibility_updated "+sp+" "+w); got != want {
		t.Fatalf("watcher's events:\n%s\nwant\n%s", got, want)
	}
	if got, want := strings.Join(eventsOf(e, "everywhere"), "\n"), sorted(
		"installation_setup  "+all, "installation_setup  "+all, "space_content_updated "+other+" "+all,
		"space_content_updated "+sp+" "+all, "space_visibility_updated "+sp+" "+all); got != want {
		t.Fatalf("everywhere's events:\n%s\nwant\n%s", got, want)
	}
	// The content event names the new revision; the visibility event both visibilities.
	for _, it := range e.WalkList(e.Admin, "/v1/integrations/watcher/events", 100) {
		raw, _ := json.Marshal(it["payload"])
		p := string(raw)
		switch it["payload"].(map[string]any)["type"] {
		case "space_content_updated":
			if !strings.Contains(p, `"revisionId":"`+rev.ID+`"`) {
				t.Errorf("content event: %s", p)
			}
		case "space_visibility_updated":
			if !strings.Contains(p, `"visibility":"public"`) || !strings.Contains(p, `"previousVisibility":"private"`) {
				t.Errorf("visibility event: %s", p)
			}
		}
	}
}

// Events older than the retention period go; newer ones stay.
func TestIntegrationEventsPruned(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "old", nil)
	in := e.Post(e.Admin, "/v1/integrations/old/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Clock.Advance(31 * 24 * time.Hour)
	e.Patch(e.Admin, "/v1/integrations/old/installations/"+in, map[string]any{"externalIds": []string{"n"}}).Expect(200)
	if err := e.App.Integrations.PruneEvents(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if got := eventsOf(e, "old"); len(got) != 1 {
		t.Fatalf("after pruning: %v", got)
	}
}

// The integrations consumer, having turned changes into events and died before its cursor
// moved, sees them again: the second pass records no event twice.
func TestOutboxIntegrationsConsumerAfterACrashBeforeTheCursorMoved(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "crashwatch", nil)
	sp := titledSpace(t, e, "Watched")
	in := e.Post(e.Admin, "/v1/integrations/crashwatch/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Patch(e.Admin, "/v1/integrations/crashwatch/installations/"+in, map[string]any{"space_selection": "all"}).Expect(200)
	e.RunDue()
	e.App.Outbox.Stop()
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p1", "", "One", "one", "Hello.\n").tree)
	e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"visibility": "public"}).Expect(200)

	ctx := t.Context()
	claim, ok, err := store.Outbox{DB: e.App.DB}.ClaimEvents(ctx, integration.Consumer, "crashed", e.Clock.Now(), time.Minute, 100)
	if err != nil || !ok {
		t.Fatalf("claim: %v %v", ok, err)
	}
	events := claim.Events()
	if len(events) == 0 {
		t.Fatal("no events claimed")
	}
	if err := e.App.Integrations.HandleEvents(ctx, events); err != nil {
		t.Fatal(err)
	}
	first := eventsOf(e, "crashwatch")
	if !slices.Contains(first, "space_content_updated "+sp+" "+in) || !slices.Contains(first, "space_visibility_updated "+sp+" "+in) {
		t.Fatalf("events after the first pass: %v", first)
	}
	// The crash: on PostgreSQL the claim's connection goes, and its lock with it; on SQLite
	// the lease is left to expire.
	if apitest.Engine() == "postgres" {
		claim.Release()
	} else {
		e.Clock.Advance(2 * time.Minute)
	}
	if _, err := e.App.Outbox.RunPending(ctx); err != nil {
		t.Fatal(err)
	}
	if got := outboxMetric(t, e, "docsd_outbox_pending_events", integration.Consumer); got != 0 {
		t.Errorf("%v events pending after the second pass", got)
	}
	if again := eventsOf(e, "crashwatch"); !slices.Equal(again, first) {
		t.Errorf("events after the second pass:\n%v\nwant them unchanged:\n%v", again, first)
	}
}
