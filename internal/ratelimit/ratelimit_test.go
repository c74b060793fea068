package ratelimit_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"docsd/internal/ratelimit"
)

// memStore adds counts up in memory, as the PostgreSQL table does across processes.
type memStore struct {
	mu     sync.Mutex
	counts map[int64]map[string]int64
	fail   bool
	calls  int
}

func (m *memStore) Add(_ context.Context, w int64, deltas map[string]int64) (map[string]int64, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.calls++
	if m.fail {
		return nil, errors.New("store down")
	}
	if m.counts == nil {
		m.counts = map[int64]map[string]int64{}
	}
	if m.counts[w] == nil {
		m.counts[w] = map[string]int64{}
	}
	out := map[string]int64{}
	for k, n := range deltas {
		m.counts[w][k] += n
		out[k] = m.counts[w][k]
	}
	return out, nil
}

func (m *memStore) Purge(context.Context, int64) error { return nil }

type fakeTime struct{ t time.Time }

func (f *fakeTime) now() time.Time { return f.t }

func allowed(l *ratelimit.Limiter, key string, limit int64, n int) int {
	got := 0
	for i := 0; i < n; i++ {
		if l.Allow(context.Background(), key, limit).Allowed {
			got++
		}
	}
	return got
}

func TestAloneCountsInMemory(t *testing.T) {
	clk := &fakeTime{time.Unix(1_800_000_030, 0)}
	l := ratelimit.New(clk.now, nil)
	if got := allowed(l, "k", 100, 150); got != 100 {
		t.Fatalf("allowed %d of 150 with a limit of 100", got)
	}
	d := l.Allow(context.Background(), "k", 100)
	if d.Allowed || d.Remaining != 0 || d.Reset != time.Unix(1_800_000_060, 0) {
		t.Fatalf("over the limit: %+v", d)
	}
	clk.t = clk.t.Add(time.Minute)
	if got := allowed(l, "k", 100, 100); got != 100 {
		t.Fatalf("next window allowed %d, want a fresh 100", got)
	}
}

func TestFleetSharesOneLimit(t *testing.T) {
	clk := &fakeTime{time.Unix(1_800_000_030, 0)}
	store := &memStore{}
	a, b := ratelimit.New(clk.now, store), ratelimit.New(clk.now, store)
	// Far from the limit, requests are counted in memory and added to the store in batches
	// of a twentieth of the limit.
	allowed(a, "k", 1000, 600)
	if store.calls > 600/50+1 {
		t.Fatalf("600 requests far from the limit made %d store calls", store.calls)
	}
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := allowed(b, "k", 1000, 1000); got != 400 {
		t.Fatalf("b allowed %d after a's 600, want 400", got)
	}
	// a learns b's count at its next sync (once a second), and is over the limit too.
	if err := a.Sync(context.Background()); err != nil {
		t.Fatal(err)
	}
	if allowed(a, "k", 1000, 10) != 0 {
		t.Fatal("a allowed requests over the fleet's limit after a sync")
	}
	// Interleaved, the fleet admits at most the limit plus what each other process held
	// unsynced when the key reached its edge (limit/20).
	key, total := "interleaved", 0
	for i := 0; i < 1000; i++ {
		total += allowed(a, key, 500, 1) + allowed(b, key, 500, 1)
	}
	if total < 500 || total > 500+500/20 {
		t.Fatalf("interleaved: the fleet admitted %d with a limit of 500", total)
	}
}

func TestStoreDownFallsBackToLocalCounts(t *testing.T) {
	clk := &fakeTime{time.Unix(1_800_000_030, 0)}
	store := &memStore{fail: true}
	l := ratelimit.New(clk.now, store)
	if got := allowed(l, "k", 10, 20); got != 10 {
		t.Fatalf("allowed %d of 20 with the store down, want this process's own 10", got)
	}
	if err := l.Sync(context.Background()); err == nil {
		t.Fatal("Sync hid the store's error")
	}
}

// BenchmarkAllow is the cost a request pays for one limit, far from it.
func BenchmarkAllow(b *testing.B) {
	clk := &fakeTime{time.Unix(1_800_000_030, 0)}
	for _, tc := range []struct {
		name  string
		store ratelimit.Store
	}{{"alone", nil}, {"fleet", &memStore{}}} {
		b.Run(tc.name, func(b *testing.B) {
			l := ratelimit.New(clk.now, tc.store)
			ctx := context.Background()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					l.Allow(ctx, "t:0123456789abcdef01234567", 1<<62)
				}
			})
		})
	}
}
