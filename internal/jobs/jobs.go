// Package jobs runs docsd's slow and external work from a durable queue kept in the database
// (see store/jobs.go): jobs survive restarts, retry with backoff, and several docsd processes
// sharing one database each run a given job once.
//
// A job is enqueued inside the write transaction of the change that causes it, through the
// domain's Tx (store.Q.EnqueueJob), so the change and its job commit or vanish together.
// Handlers should still be idempotent: a worker that stalls past its lease without being able
// to extend it can lose the job to another worker while it is still running.
package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"
	"sync"
	"time"

	"docsd/internal/clock"
	"docsd/internal/ids"
	"docsd/internal/store"
)

// Handler does the work of one job. Returning an error schedules a retry with backoff, unless
// the error is Permanent or the attempts are used up; the job is then marked failed.
type Handler func(ctx context.Context, payload json.RawMessage) error

// PermanentError marks a failure that retrying cannot fix (a malformed payload, a resource
// that no longer exists).
type PermanentError struct{ Err error }

func (e *PermanentError) Error() string { return e.Err.Error() }
func (e *PermanentError) Unwrap() error { return e.Err }

// RetryAfterError asks for the next attempt no sooner than After (a server's Retry-After),
// within the kind's backoff cap; the attempt still counts.
type RetryAfterError struct {
	Err   error
	After time.Duration
}

func (e *RetryAfterError) Error() string { return e.Err.Error() }
func (e *RetryAfterError) Unwrap() error { return e.Err }

// RetryAfter wraps err so that its retry waits at least d.
func RetryAfter(err error, d time.Duration) error { return &RetryAfterError{Err: err, After: d} }

// Permanent wraps err so the job fails at once instead of being retried.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &PermanentError{Err: err}
}

// Options tune a Queue. Zero values take the defaults shown.
type Options struct {
	Owner        string        // names this process in leases; default host-pid-random
	PollInterval time.Duration // how often to look for due jobs; default 1s
	Concurrency  int           // jobs run at once by this process; default 4
	// Lease is how long a claim holds unless renewed; default 30s. A running job's lease is
	// renewed every third of it, so a job outlives its lease only when its process is gone.
	Lease time.Duration
	// OwnerBeat is how often this process records that it is alive (default 2s), and
	// OwnerTimeout how long another process waits without a beat before taking over its
	// running jobs (default 10s). On the same machine, a process whose pid is gone is taken
	// over at once.
	OwnerBeat    time.Duration
	OwnerTimeout time.Duration
	// Retention is how long finished jobs stay in the table (and keep their dedupe keys);
	// default 7 days for done jobs, and four times that for failed ones.
	Retention time.Duration
}

// HandlerOption tunes how one kind of job is run.
type HandlerOption func(*kindConfig)

// MaxAttempts sets how many times a job is tried before it is marked failed (default 10).
func MaxAttempts(n int) HandlerOption { return func(k *kindConfig) { k.maxAttempts = max(n, 1) } }

// Backoff sets the delay before the first retry and the cap on later ones (default 1s and
// 1h); each retry waits about twice as long as the previous one, with jitter.
func Backoff(first, limit time.Duration) HandlerOption {
	return func(k *kindConfig) { k.backoffFirst, k.backoffMax = first, max(limit, first) }
}

// Timeout bounds one attempt of a job (default 15m).
func Timeout(d time.Duration) HandlerOption { return func(k *kindConfig) { k.timeout = d } }

// OnFail sets a function called when a job of the kind fails for good (a permanent error, or
// its last attempt), after the failure is recorded: for the job's owner to say so where users
// look (an import run's status, say). It must be idempotent and quick.
func OnFail(f func(ctx context.Context, payload []byte, err error)) HandlerOption {
	return func(k *kindConfig) { k.onFail = f }
}

type kindConfig struct {
	onFail       func(ctx context.Context, payload []byte, err error)
	handler      Handler
	maxAttempts  int
	backoffFirst time.Duration
	backoffMax   time.Duration
	timeout      time.Duration
	every        time.Duration // > 0 for periodic kinds
}

// Queue claims due jobs from the database and runs their handlers.
type Queue struct {
	db    *store.DB
	clock clock.Clock
	log   *slog.Logger
	opts  Options

	mu        sync.Mutex
	kinds     map[string]*kindConfig
	lastTick  map[string]time.Time // periodic kind → latest period this process scheduled
	lastPrune time.Time
	lastBeat  time.Time      // when this process last beat its job_owners row, by its clock
	self      store.JobOwner // this process's job_owners row

	wake     chan struct{} // a job was enqueued by this process, or a slot freed up
	slots    chan struct{} // one token per job running in the background loop
	running  sync.WaitGroup
	claimMu  sync.Mutex // held while claiming, so RunDue and the loop never race for the same pass
	stop     chan struct{}
	loopDone chan struct{}
	hardStop context.CancelFunc // cancels running handlers when a drain runs out of time
	baseCtx  context.Context
}

// New builds a queue on db. Register handlers, then Start it.
func New(db *store.DB, clk clock.Clock, log *slog.Logger, opts Options) *Queue {
	if opts.Owner == "" {
		host, _ := os.Hostname()
		opts.Owner = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), ids.Random(6))
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 4
	}
	if opts.Lease <= 0 {
		opts.Lease = 30 * time.Second
	}
	if opts.OwnerBeat <= 0 {
		opts.OwnerBeat = 2 * time.Second
	}
	if opts.OwnerTimeout <= 0 {
		opts.OwnerTimeout = 5 * opts.OwnerBeat
	}
	if opts.Retention <= 0 {
		opts.Retention = 7 * 24 * time.Hour
	}
	q := &Queue{db: db, clock: clk, log: log, opts: opts,
		kinds: map[string]*kindConfig{}, lastTick: map[string]time.Time{},
		wake: make(chan struct{}, 1), slots: make(chan struct{}, opts.Concurrency)}
	q.self = self(opts.Owner, clk.Now())
	q.baseCtx, q.hardStop = context.WithCancel(context.Background())
	db.OnJobEnqueued(q.Wake)
	return q
}

// Register sets the handler for a kind of job.
func (q *Queue) Register(kind string, h Handler, opts ...HandlerOption) {
	k := &kindConfig{handler: h, maxAttempts: 10, backoffFirst: time.Second, backoffMax: time.Hour, timeout: 15 * time.Minute}
	for _, o := range opts {
		o(k)
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, dup := q.kinds[kind]; dup {
		panic("jobs: kind registered twice: " + kind)
	}
	q.kinds[kind] = k
}

// Every registers h to run once per interval across the whole fleet. Periods are aligned on
// the Unix epoch; each process enqueues the current period's job with a dedupe key naming
// the period, so whichever process gets there first creates it and one worker runs it.
// Periods that passed while no process was running are skipped, not caught up.
func (q *Queue) Every(kind string, interval time.Duration, h Handler, opts ...HandlerOption) {
	if interval <= 0 {
		panic("jobs: Every needs a positive interval")
	}
	// A periodic job that keeps failing gives way to the next period's run.
	opts = append([]HandlerOption{MaxAttempts(3)}, opts...)
	q.Register(kind, h, opts...)
	q.mu.Lock()
	q.kinds[kind].every = interval
	q.mu.Unlock()
}

// Enqueue adds a job in a transaction of its own. Code that changes state and causes a job
// should enqueue it in that change's transaction instead (Q.EnqueueJob through its Tx).
func (q *Queue) Enqueue(ctx context.Context, kind string, payload any, runAt time.Time, dedupeKey string) error {
	return q.db.Write(ctx, q.clock.Now(), func(tx *store.Q) error {
		return tx.EnqueueJob(ctx, kind, payload, runAt, dedupeKey)
	})
}

// Wake makes the background loop look for due jobs now rather than at its next poll.
func (q *Queue) Wake() {
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

// registered returns the kinds this process can run, sorted so claims read the same SQL.
func (q *Queue) registered() []string {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]string, 0, len(q.kinds))
	for k := range q.kinds {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (q *Queue) config(kind string) *kindConfig {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.kinds[kind]
}

// schedulePeriodic enqueues the current period's job of each periodic kind that this process
// has not scheduled yet.
func (q *Queue) schedulePeriodic(ctx context.Context) error {
	now := q.clock.Now()
	type tick struct {
		kind  string
		start time.Time
	}
	var due []tick
	q.mu.Lock()
	for kind, k := range q.kinds {
		if k.every <= 0 {
			continue
		}
		start := time.UnixMicro(now.UnixMicro() - now.UnixMicro()%k.every.Microseconds()).UTC()
		if !q.lastTick[kind].Equal(start) {
			due = append(due, tick{kind, start})
		}
	}
	q.mu.Unlock()
	if len(due) == 0 {
		return nil
	}
	err := q.db.Write(ctx, now, func(tx *store.Q) error {
		for _, t := range due {
			key := "every:" + t.kind + ":" + t.start.Format(time.RFC3339Nano)
			if err := tx.EnqueueJob(ctx, t.kind, struct{}{}, t.start, key); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("schedule periodic jobs: %w", err)
	}
	q.mu.Lock()
	for _, t := range due {
		q.lastTick[t.kind] = t.start
	}
	q.mu.Unlock()
	return nil
}

// Kinds returns the kinds of job this process can run, sorted: a queued job of any other
// kind waits for a process that knows it.
func (q *Queue) Kinds() []string { return q.registered() }
