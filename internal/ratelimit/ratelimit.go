// Package ratelimit counts requests per key (a token, an address) in fixed one-minute windows
// and says whether one more is allowed. Counts live in the process and, where several
// processes share a database, are added up there in batches: a statement for a key's first
// request in a window, then one for every twentieth of its limit, one a second for every
// busy key, and one per request only near the limit; so the fleet as a whole holds the limit
// (within 5% per process) without a database write on every request.
package ratelimit

import (
	"context"
	"sync"
	"time"
)

// Window is the length of a counting window.
const Window = time.Minute

// Store adds counts up across processes. Add adds each key's delta to its count in the
// window (numbered in minutes since the epoch) and returns the totals, every process's
// included; Purge forgets windows before the given one.
type Store interface {
	Add(ctx context.Context, window int64, deltas map[string]int64) (map[string]int64, error)
	Purge(ctx context.Context, before int64) error
}

// Decision is the answer for one request.
type Decision struct {
	Allowed   bool
	Limit     int64
	Remaining int64
	Reset     time.Time // when the window ends and counts start again
}

// counter is one key's count in the current window: known is the total the store last
// returned (or, without a store, 0), pending what this process counted since.
type counter struct {
	known, pending int64
	limit          int64 // the limit it was last checked against
}

// Limiter decides for one process. The zero value is not usable: use New.
type Limiter struct {
	now   func() time.Time
	store Store // nil: this process is alone

	mu     sync.Mutex
	window int64
	keys   map[string]*counter
	// syncing serialises batch syncs, so that two never return totals out of order.
	syncing sync.Mutex
}

// maxKeys bounds the keys of one window, so that a flood of distinct addresses cannot grow
// the map without end: beyond it new keys are counted in the store only when they sync.
const maxKeys = 200_000

// New returns a limiter reading the time from now; store may be nil.
func New(now func() time.Time, store Store) *Limiter {
	return &Limiter{now: now, store: store, keys: map[string]*counter{}}
}

// Now is the limiter's time, for telling clients how long to wait.
func (l *Limiter) Now() time.Time { return l.now() }

func windowOf(t time.Time) int64 { return t.Unix() / int64(Window/time.Second) }

func resetOf(w int64) time.Time { return time.Unix((w+1)*int64(Window/time.Second), 0) }

// edge is how close to its limit a key's count must be for every request to be checked
// against the store, and how many requests a process counts for a key before it adds them
// to the store (besides the once-a-second sync). What the fleet admits over a limit is what
// the other processes had counted but not yet added: less than an edge each, 5%.
func edge(limit int64) int64 { return max(limit/20, 5) }

// Allow counts one request against key, whose limit per window is limit, unless the key
// is over it. A failing store leaves the decision to this process's own counts.
func (l *Limiter) Allow(ctx context.Context, key string, limit int64) Decision {
	now := l.now()
	w := windowOf(now)
	l.mu.Lock()
	l.roll(w)
	c := l.keys[key]
	first := c == nil
	if first {
		c = &counter{}
		if len(l.keys) < maxKeys {
			l.keys[key] = c
		}
	}
	c.limit = limit
	used := c.known + c.pending
	d := Decision{Limit: limit, Reset: resetOf(w)}
	if used >= limit {
		l.mu.Unlock()
		return d
	}
	// A key new to this process in the window learns the fleet's count first: another
	// process may have spent most of it.
	// So does a key whose unsynced count here reaches an edge: what one process may admit
	// unknown to the others stays bounded.
	if l.store == nil || (!first && limit-used > edge(limit) && c.pending < edge(limit)) {
		c.pending++
		l.mu.Unlock()
		d.Allowed, d.Remaining = true, limit-used-1
		return d
	}
	// Near the limit: count this request in the store now, with whatever is pending.
	delta := c.pending + 1
	c.pending = 0
	l.mu.Unlock()
	totals, err := l.store.Add(ctx, w, map[string]int64{key: delta})
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		c.pending += delta
		d.Allowed, d.Remaining = true, max(limit-used-1, 0)
		return d
	}
	total := totals[key]
	if l.window == w {
		c.known = max(c.known, total)
	}
	if total > limit {
		return d
	}
	d.Allowed, d.Remaining = true, max(limit-total-c.pending, 0)
	return d
}

// roll starts window w, forgetting the counts of the one before. The caller holds l.mu.
func (l *Limiter) roll(w int64) {
	if w != l.window {
		l.window = w
		l.keys = map[string]*counter{}
	}
}

// Sync adds this process's pending counts to the store and learns the fleet's totals of
// every key it has seen in the window. It runs once a second (see Run).
func (l *Limiter) Sync(ctx context.Context) error {
	if l.store == nil {
		return nil
	}
	l.syncing.Lock()
	defer l.syncing.Unlock()
	l.mu.Lock()
	l.roll(windowOf(l.now()))
	w := l.window
	deltas := make(map[string]int64, len(l.keys))
	for k, c := range l.keys {
		// Keys with nothing pending here are left out unless half spent: those may be
		// spent elsewhere, and a fresh total brings them to their edge in time.
		if c.pending > 0 || 2*c.known >= c.limit {
			deltas[k] = c.pending
			c.pending = 0
		}
	}
	l.mu.Unlock()
	if len(deltas) == 0 {
		return nil
	}
	totals, err := l.store.Add(ctx, w, deltas)
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		if l.window == w {
			for k, n := range deltas {
				if c := l.keys[k]; c != nil {
					c.pending += n
				}
			}
		}
		return err
	}
	if l.window == w {
		for k, total := range totals {
			if c := l.keys[k]; c != nil {
				c.known = max(c.known, total)
			}
		}
	}
	return nil
}

// Run syncs every interval until ctx ends, and purges old windows from the store once a
// window; errors go to report.
func (l *Limiter) Run(ctx context.Context, interval time.Duration, report func(error)) {
	if l.store == nil {
		return
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	var purged int64
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if err := l.Sync(ctx); err != nil && ctx.Err() == nil {
			report(err)
		}
		if w := windowOf(l.now()); w != purged {
			if err := l.store.Purge(ctx, w-1); err != nil && ctx.Err() == nil {
				report(err)
			}
			purged = w
		}
	}
}
