package outbox

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"docsd/internal/clock"
	"docsd/internal/ids"
)

// Handler processes a batch of events, oldest first. It must be idempotent: after a crash
// between processing and the cursor's move, the same events come again. An error leaves the
// cursor where it was; the batch is retried after a pause.
type Handler func(ctx context.Context, events []Event) error

// Options tune a Runner; zero values take defaults.
type Options struct {
	Owner string        // names this process in SQLite leases; default host-pid-random
	Lease time.Duration // how long a SQLite claim holds (default 5 minutes)
	Batch int           // most events per claim (default 200)
	Poll  time.Duration // how often to look without a wake-up (default 5 seconds)
}

// Runner runs the consumers registered with it, on every instance: whichever instance claims
// a consumer's cursor first processes the events after it.
type Runner struct {
	store Store
	clock clock.Clock
	log   *slog.Logger
	opts  Options

	mu        sync.Mutex
	consumers map[string]*consumer
	wake      chan struct{}
	stop      chan struct{}
	done      chan struct{}
}

type consumer struct {
	name      string
	handle    Handler
	mu        sync.Mutex // one claim at a time in this process
	processed atomic.Int64
	failed    atomic.Int64
	retryAt   time.Time // real time; guarded by mu
	failures  int       // consecutive, in this process; guarded by mu
}

// New returns a Runner over store.
func New(store Store, clk clock.Clock, log *slog.Logger, opts Options) *Runner {
	if opts.Owner == "" {
		host, _ := os.Hostname()
		opts.Owner = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), ids.Random(6))
	}
	if opts.Lease <= 0 {
		opts.Lease = 5 * time.Minute
	}
	if opts.Batch <= 0 {
		opts.Batch = 200
	}
	if opts.Poll <= 0 {
		opts.Poll = 5 * time.Second
	}
	return &Runner{store: store, clock: clk, log: log, opts: opts, consumers: map[string]*consumer{},
		wake: make(chan struct{}, 1)}
}

// Register adds a consumer; its cursor starts before the oldest event kept.
func (r *Runner) Register(ctx context.Context, name string, h Handler) error {
	if err := r.store.EnsureCursor(ctx, name); err != nil {
		return fmt.Errorf("outbox consumer %s: %w", name, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.consumers[name] = &consumer{name: name, handle: h}
	return nil
}

// Wake makes the background loop look for events now rather than at its next poll.
func (r *Runner) Wake() {
	select {
	case r.wake <- struct{}{}:
	default:
	}
}

func (r *Runner) list() []*consumer {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*consumer, 0, len(r.consumers))
	for _, c := range r.consumers {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// Names returns the registered consumers, sorted.
func (r *Runner) Names() []string {
	var out []string
	for _, c := range r.list() {
		out = append(out, c.name)
	}
	return out
}

// RunPending processes every event pending for every consumer whose cursor this process can
// claim, and returns how many events it processed. A consumer claimed by another instance is
// skipped; one this process's background loop is running is waited for.
func (r *Runner) RunPending(ctx context.Context) (int, error) { return r.runPending(ctx, false) }

// runPending is RunPending; with backoff, consumers waiting to retry after a failure are
// skipped.
func (r *Runner) runPending(ctx context.Context, backoff bool) (int, error) {
	// One look for every consumer: most passes find each with a few events or none, and a
	// claim costs a write transaction.
	pending, err := r.store.PendingConsumers(ctx)
	if err != nil {
		return 0, fmt.Errorf("outbox: pending events: %w", err)
	}
	total := 0
	var errs []error
	for _, c := range r.list() {
		if !pending[c.name] {
			continue
		}
		n, err := r.drain(ctx, c, backoff)
		total += n
		if err != nil {
			errs = append(errs, fmt.Errorf("outbox consumer %s: %w", c.name, err))
		}
	}
	return total, errors.Join(errs...)
}

// drain runs claims of one consumer until a claim finds less than a batch, a bounded number
// of times.
func (r *Runner) drain(ctx context.Context, c *consumer, backoff bool) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if backoff && time.Now().Before(c.retryAt) {
		return 0, nil
	}
	total := 0
	for range 1000 {
		claim, ok, err := r.store.ClaimEvents(ctx, c.name, r.opts.Owner, r.clock.Now(), r.opts.Lease, r.opts.Batch)
		if err != nil || !ok {
			return total, err
		}
		events := claim.Events()
		if len(events) == 0 {
			claim.Release()
			return total, nil
		}
		if herr := c.handle(ctx, events); herr != nil {
			if ctx.Err() != nil {
				claim.Release() // stopping: not the events' fault
				return total, ctx.Err()
			}
			c.failed.Add(1)
			c.failures++
			c.retryAt = time.Now().Add(min(time.Second<<min(c.failures-1, 6), time.Minute))
			ferr := claim.Fail(context.WithoutCancel(ctx), r.clock.Now(), herr)
			claim.Release()
			return total, errors.Join(herr, ferr)
		}
		c.failures, c.retryAt = 0, time.Time{}
		// Processed: record it even if the process is stopping.
		err = claim.Advance(context.WithoutCancel(ctx), r.clock.Now(), events[len(events)-1].Seq)
		claim.Release()
		if err != nil {
			// The claim was lost (its lease expired and another instance took it): those
			// events will be processed again there, which consumers allow for.
			return total, err
		}
		c.processed.Add(int64(len(events)))
		total += len(events)
		if len(events) < r.opts.Batch {
			// The claim read every event committed before it; those committed since woke
			// the loop (Wake keeps one wake-up), which comes back for them.
			return total, nil
		}
	}
	return total, nil
}

// Start runs consumers in the background until Stop: at once, whenever Wake is called, and
// every Poll.
func (r *Runner) Start(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.stop != nil {
		return
	}
	r.stop, r.done = make(chan struct{}), make(chan struct{})
	go r.loop(ctx, r.stop, r.done)
}

func (r *Runner) loop(ctx context.Context, stop, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	tick := time.NewTicker(r.opts.Poll)
	defer tick.Stop()
	for {
		started := time.Now()
		if _, err := r.runPending(ctx, true); err != nil && ctx.Err() == nil {
			r.log.Warn("outbox: consumer failed; will retry", "error", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-r.wake:
			// Every commit that writes events wakes the loop. Under a stream of writes, a pass
			// per commit costs each consumer a look, a claim and a cursor move per write; the
			// rest of wakeSettle gathers the writes that follow into the next pass. After a
			// quiet spell the pass starts at once.
			if wait := time.Until(started.Add(wakeSettle)); wait > 0 {
				t := time.NewTimer(wait)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
			}
		case <-tick.C:
		}
	}
}

// wakeSettle is the least time between the starts of two passes a wake-up begins.
const wakeSettle = 20 * time.Millisecond

// Stop ends the background loop and waits for the batch in progress; a batch cut short is
// processed again later (its cursor did not move).
func (r *Runner) Stop() {
	r.mu.Lock()
	stop, done := r.stop, r.done
	r.mu.Unlock()
	if stop == nil {
		return
	}
	select {
	case <-stop:
	default:
		close(stop)
	}
	<-done
}

// Prune deletes events older than retention.
func (r *Runner) Prune(ctx context.Context, retention time.Duration) (int64, error) {
	now := r.clock.Now()
	return r.store.PruneEvents(ctx, now, now.Add(-retention))
}
