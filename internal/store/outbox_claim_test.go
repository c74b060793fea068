package store_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"docsd/internal/clock"
	"docsd/internal/outbox"
	"docsd/internal/store"
)

// emitEvents commits n events, one transaction each.
func emitEvents(t *testing.T, db *store.DB, n int) {
	t.Helper()
	for i := range n {
		err := db.Write(context.Background(), time.Now(), func(q *store.Q) error {
			return q.Emit("test.event", "", "", fmt.Sprint(i), nil)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

func pendingNames(t *testing.T, o store.Outbox) []string {
	t.Helper()
	p, err := o.PendingConsumers(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(maps.Keys(p))
}

func seqs(events []outbox.Event) []int64 {
	var out []int64
	for _, e := range events {
		out = append(out, e.Seq)
	}
	return out
}

// A claim holds its consumer's cursor against other owners, and only its own; it moves the
// cursor when advanced, records a failure without moving it, and gives the cursor back when
// released. PendingConsumers names the consumers with events after their cursor.
func TestOutboxClaimsHoldAndMoveTheirCursor(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	o := store.Outbox{DB: db}
	for _, name := range []string{"a", "b"} {
		if err := o.EnsureCursor(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
	if got := pendingNames(t, o); len(got) != 0 {
		t.Fatalf("pending before any event: %v", got)
	}
	emitEvents(t, db, 3)
	if got := pendingNames(t, o); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("pending after 3 events: %v", got)
	}
	now := time.Now()
	claim := func(consumer, owner string, limit int) (outbox.Claim, bool) {
		t.Helper()
		c, ok, err := o.ClaimEvents(ctx, consumer, owner, now, time.Minute, limit)
		if err != nil {
			t.Fatalf("claim %s for %s: %v", consumer, owner, err)
		}
		return c, ok
	}

	a, ok := claim("a", "one", 2)
	if !ok || !slices.Equal(seqs(a.Events()), []int64{1, 2}) {
		t.Fatalf("first claim of a: ok %v, events %v", ok, a)
	}
	if _, ok := claim("a", "two", 2); ok {
		t.Fatal("a was claimed twice at once")
	}
	b, ok := claim("b", "two", 10)
	if !ok || !slices.Equal(seqs(b.Events()), []int64{1, 2, 3}) {
		t.Fatalf("claim of b while a is held: ok %v", ok)
	}
	b.Release()
	if err := a.Advance(ctx, now, 2); err != nil {
		t.Fatal(err)
	}
	a.Release() // after Advance: nothing more to do

	// b was released without moving: another owner takes it at once, from where it was.
	b, ok = claim("b", "three", 10)
	if !ok || !slices.Equal(seqs(b.Events()), []int64{1, 2, 3}) {
		t.Fatalf("b after its release: ok %v", ok)
	}
	if err := b.Advance(ctx, now, 3); err != nil {
		t.Fatal(err)
	}
	if got := pendingNames(t, o); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("pending after b moved to the end and a to 2: %v", got)
	}

	a, ok = claim("a", "one", 2)
	if !ok || !slices.Equal(seqs(a.Events()), []int64{3}) {
		t.Fatalf("a after moving to 2: ok %v", ok)
	}
	if err := a.Fail(ctx, now, fmt.Errorf("handler refused")); err != nil {
		t.Fatal(err)
	}
	lag, err := o.ConsumerLag(ctx, "a", now)
	if err != nil || lag.Pending != 1 || lag.Failures != 1 {
		t.Fatalf("a after a failure: %+v %v", lag, err)
	}
	a, ok = claim("a", "one", 2)
	if !ok || !slices.Equal(seqs(a.Events()), []int64{3}) {
		t.Fatalf("a after its failure: ok %v", ok)
	}
	if err := a.Advance(ctx, now, 3); err != nil {
		t.Fatal(err)
	}
	if got := pendingNames(t, o); len(got) != 0 {
		t.Fatalf("pending after both reached the end: %v", got)
	}
	if lag, err := o.ConsumerLag(ctx, "a", now); err != nil || lag != (outbox.Lag{}) {
		t.Fatalf("a at the end: %+v %v", lag, err)
	}
	// The claims' connections went back to the pool in a usable state.
	emitEvents(t, db, 1)
	if got := pendingNames(t, o); !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("pending after one more event: %v", got)
	}
}

// countingOutbox counts the claims a runner makes, per consumer.
type countingOutbox struct {
	store.Outbox
	mu     sync.Mutex
	claims map[string]int
}

func (c *countingOutbox) ClaimEvents(ctx context.Context, consumer, owner string, now time.Time, lease time.Duration, limit int) (outbox.Claim, bool, error) {
	c.mu.Lock()
	c.claims[consumer]++
	c.mu.Unlock()
	return c.Outbox.ClaimEvents(ctx, consumer, owner, now, lease, limit)
}

func (c *countingOutbox) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.claims
	c.claims = map[string]int{}
	return out
}

// A pass claims only for consumers with events, and stops claiming for one as soon as a claim
// finds less than a batch: it costs no claim that finds nothing.
func TestOutboxRunnerClaimsOnlyWhatIsPending(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	st := &countingOutbox{Outbox: store.Outbox{DB: db}, claims: map[string]int{}}
	r := outbox.New(st, clock.Real{}, slog.New(slog.NewTextHandler(io.Discard, nil)), outbox.Options{Batch: 2})
	var mu sync.Mutex
	got := map[string][][]int64{}
	for _, name := range []string{"a", "b"} {
		if err := r.Register(ctx, name, func(_ context.Context, events []outbox.Event) error {
			mu.Lock()
			defer mu.Unlock()
			got[name] = append(got[name], seqs(events))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	run := func(wantEvents int, wantClaims map[string]int) {
		t.Helper()
		n, err := r.RunPending(ctx)
		if err != nil || n != wantEvents {
			t.Fatalf("RunPending: %d events, %v; want %d", n, err, wantEvents)
		}
		if claims := st.take(); !maps.Equal(claims, wantClaims) {
			t.Fatalf("claims %v, want %v", claims, wantClaims)
		}
	}
	run(0, map[string]int{})
	emitEvents(t, db, 5)
	run(10, map[string]int{"a": 3, "b": 3}) // 2 + 2 + 1 each
	want := [][]int64{{1, 2}, {3, 4}, {5}}
	if fmt.Sprint(got["a"]) != fmt.Sprint(want) || fmt.Sprint(got["b"]) != fmt.Sprint(want) {
		t.Fatalf("batches handled: %v", got)
	}
	run(0, map[string]int{})
	emitEvents(t, db, 4) // a full batch, then another: the third claim finds nothing
	run(8, map[string]int{"a": 3, "b": 3})
	run(0, map[string]int{})
}

// A claim whose context ends while it runs leaves the cursor free: another owner takes it at
// once. (On PostgreSQL, a claim's round trip cut short closed its connection in the middle of
// the transaction, and the cursor's row stayed locked until the server noticed: on a loaded
// machine, long enough for this test to find it taken.)
func TestOutboxClaimCutShortLeavesTheCursorFree(t *testing.T) {
	t.Parallel()
	db := migratedDB(t)
	o := store.Outbox{DB: db}
	if err := o.EnsureCursor(context.Background(), "a"); err != nil {
		t.Fatal(err)
	}
	emitEvents(t, db, 1)
	for i := range 40 {
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			time.Sleep(time.Duration(rand.IntN(500)) * time.Microsecond)
			cancel()
		}()
		if c, ok, err := o.ClaimEvents(ctx, "a", "one", time.Now(), time.Minute, 10); err == nil && ok {
			c.Release()
		}
		cancel()
		c, ok, err := o.ClaimEvents(context.Background(), "a", "two", time.Now(), time.Minute, 10)
		if err != nil || !ok {
			t.Fatalf("claim %d after one cut short: ok %v, %v", i, ok, err)
		}
		c.Release()
	}
}
