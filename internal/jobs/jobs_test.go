package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/clock"
	"docsd/internal/jobs"
	"docsd/internal/store"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// start is the fake clock's starting point: a fixed time, so backoff windows are exact.
var start = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

// openDB opens a fresh, migrated database on the engine the suite runs on.
func openDB(t *testing.T) *store.DB {
	t.Helper()
	return openURL(t, apitest.DatabaseURL(t))
}

func openURL(t *testing.T, url string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return db
}

func fakeClock() *clock.Fake {
	c := clock.NewFake()
	c.Set(start)
	return c
}

func onlyJob(t *testing.T, db *store.DB, kind string) store.Job {
	t.Helper()
	all, err := db.JobsOfKind(context.Background(), kind)
	if err != nil {
		t.Fatalf("list jobs: %v", err)
	}
	if len(all) != 1 {
		t.Fatalf("%d %s jobs, want 1: %+v", len(all), kind, all)
	}
	return all[0]
}

func runDue(t *testing.T, q *jobs.Queue, want int) {
	t.Helper()
	ran, err := q.RunDue(context.Background())
	if err != nil {
		t.Fatalf("RunDue: %v", err)
	}
	if ran != want {
		t.Fatalf("RunDue ran %d jobs, want %d", ran, want)
	}
}

func TestEnqueue(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("rolled-back transaction leaves no job", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("mail", func(context.Context, json.RawMessage) error { calls.Add(1); return nil })
		domainErr := errors.New("domain write refused")
		err := db.Write(ctx, clk.Now(), func(tx *store.Q) error {
			if err := tx.EnqueueJob(ctx, "mail", map[string]string{"to": "a"}, time.Time{}, ""); err != nil {
				return err
			}
			return domainErr
		})
		if !errors.Is(err, domainErr) {
			t.Fatalf("write: %v", err)
		}
		if all, _ := db.JobsOfKind(ctx, "mail"); len(all) != 0 {
			t.Fatalf("rolled-back job was kept: %+v", all)
		}
		runDue(t, q, 0)
		if calls.Load() != 0 {
			t.Fatal("handler ran for a rolled-back job")
		}
	})

	t.Run("committed job runs with its payload", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var got string
		q.Register("mail", func(_ context.Context, p json.RawMessage) error { got = string(p); return nil })
		err := db.Write(ctx, clk.Now(), func(tx *store.Q) error {
			return tx.EnqueueJob(ctx, "mail", map[string]string{"to": "a"}, time.Time{}, "")
		})
		if err != nil {
			t.Fatal(err)
		}
		j := onlyJob(t, db, "mail")
		if j.State != store.JobQueued || !j.RunAt.Equal(start) || !j.CreatedAt.Equal(start) {
			t.Fatalf("new job %+v, want queued to run at %v", j, start)
		}
		runDue(t, q, 1)
		if got != `{"to":"a"}` {
			t.Fatalf("payload %q", got)
		}
		j = onlyJob(t, db, "mail")
		if j.State != store.JobDone || j.Attempts != 1 || j.FinishedAt == nil || j.LeaseOwner != "" {
			t.Fatalf("finished job %+v, want done after one attempt with no lease", j)
		}
	})

	t.Run("outside a transaction is refused", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		if err := db.Read().EnqueueJob(ctx, "mail", nil, time.Time{}, ""); err == nil {
			t.Fatal("EnqueueJob outside a write transaction succeeded")
		}
	})

	t.Run("dedupe key adds the job once", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("purge", func(context.Context, json.RawMessage) error { calls.Add(1); return nil })
		err := db.Write(ctx, clk.Now(), func(tx *store.Q) error {
			for range 2 {
				if err := tx.EnqueueJob(ctx, "purge", "space-1", time.Time{}, "purge:space-1"); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := q.Enqueue(ctx, "purge", "space-1", time.Time{}, "purge:space-1"); err != nil {
			t.Fatalf("enqueue again in another transaction: %v", err)
		}
		if err := q.Enqueue(ctx, "purge", "space-2", time.Time{}, "purge:space-2"); err != nil {
			t.Fatal(err)
		}
		if all, _ := db.JobsOfKind(ctx, "purge"); len(all) != 2 {
			t.Fatalf("%d jobs, want one per dedupe key", len(all))
		}
		runDue(t, q, 2)
		// The finished row still holds the key.
		if err := q.Enqueue(ctx, "purge", "space-1", time.Time{}, "purge:space-1"); err != nil {
			t.Fatal(err)
		}
		runDue(t, q, 0)
		if calls.Load() != 2 {
			t.Fatalf("handler ran %d times, want 2", calls.Load())
		}
	})
}

func TestRunDueFollowsTheClock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, clk := openDB(t), fakeClock()
	q := jobs.New(db, clk, quiet, jobs.Options{})
	var order []string
	q.Register("purge", func(ctx context.Context, p json.RawMessage) error {
		order = append(order, "purge")
		// A job may cause another: it runs in the same RunDue when it is due.
		return q.Enqueue(ctx, "reindex", nil, time.Time{}, "")
	})
	q.Register("reindex", func(context.Context, json.RawMessage) error { order = append(order, "reindex"); return nil })
	if err := q.Enqueue(ctx, "purge", nil, clk.Now().Add(7*24*time.Hour), ""); err != nil {
		t.Fatal(err)
	}
	runDue(t, q, 0)
	clk.Advance(7*24*time.Hour - time.Second)
	runDue(t, q, 0)
	clk.Advance(time.Second)
	runDue(t, q, 2)
	if len(order) != 2 || order[0] != "purge" || order[1] != "reindex" {
		t.Fatalf("ran %v, want purge then reindex", order)
	}
	runDue(t, q, 0)
}

func TestFailures(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("failed job is retried with growing backoff", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("fetch", func(context.Context, json.RawMessage) error {
			if calls.Add(1) <= 2 {
				return errors.New("upstream answered 503")
			}
			return nil
		}, jobs.Backoff(time.Minute, time.Hour), jobs.MaxAttempts(5))
		if err := q.Enqueue(ctx, "fetch", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		runDue(t, q, 1)
		j := onlyJob(t, db, "fetch")
		// Attempt 1 waits between half and all of the first delay.
		if j.State != store.JobQueued || j.Attempts != 1 || j.LastError != "upstream answered 503" ||
			j.RunAt.Before(start.Add(30*time.Second)) || j.RunAt.After(start.Add(time.Minute)) {
			t.Fatalf("after one failure: %+v", j)
		}
		runDue(t, q, 0) // not due yet
		clk.Set(j.RunAt)
		runDue(t, q, 1)
		j2 := onlyJob(t, db, "fetch")
		// Attempt 2 waits between one and two minutes.
		if j2.State != store.JobQueued || j2.Attempts != 2 ||
			j2.RunAt.Before(j.RunAt.Add(time.Minute)) || j2.RunAt.After(j.RunAt.Add(2*time.Minute)) {
			t.Fatalf("after two failures: %+v (first retry at %v)", j2, j.RunAt)
		}
		clk.Set(j2.RunAt)
		runDue(t, q, 1)
		if j := onlyJob(t, db, "fetch"); j.State != store.JobDone || j.Attempts != 3 {
			t.Fatalf("after success: %+v", j)
		}
	})

	t.Run("permanent error fails at once", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("import", func(context.Context, json.RawMessage) error {
			calls.Add(1)
			return jobs.Permanent(errors.New("repository does not exist"))
		})
		if err := q.Enqueue(ctx, "import", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		runDue(t, q, 1)
		clk.Advance(24 * time.Hour)
		runDue(t, q, 0)
		j := onlyJob(t, db, "import")
		if calls.Load() != 1 || j.State != store.JobFailed || j.Attempts != 1 || j.LastError != "repository does not exist" || j.FinishedAt == nil {
			t.Fatalf("after a permanent error (%d calls): %+v", calls.Load(), j)
		}
	})

	t.Run("attempts run out", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("deliver", func(context.Context, json.RawMessage) error {
			calls.Add(1)
			panic("handler bug")
		}, jobs.MaxAttempts(3), jobs.Backoff(time.Second, time.Second))
		if err := q.Enqueue(ctx, "deliver", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		for range 5 {
			if _, err := q.RunDue(ctx); err != nil {
				t.Fatal(err)
			}
			clk.Advance(time.Minute)
		}
		j := onlyJob(t, db, "deliver")
		if calls.Load() != 3 || j.State != store.JobFailed || j.Attempts != 3 {
			t.Fatalf("after %d calls: %+v, want failed after 3", calls.Load(), j)
		}
		if len(j.LastError) < 10 || j.LastError[:len("panic: handler bug")] != "panic: handler bug" {
			t.Fatalf("last error %q does not record the panic", j.LastError)
		}
	})

	t.Run("expired lease is claimed again", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("render", func(context.Context, json.RawMessage) error { calls.Add(1); return nil })
		if err := q.Enqueue(ctx, "render", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		// Another process claims the job, then dies without a word.
		crashed, err := db.ClaimJobs(ctx, clk.Now(), store.JobClaim{Owner: "crashed", Lease: time.Minute, Kinds: []string{"render"}, Limit: 10})
		if err != nil || len(crashed) != 1 {
			t.Fatalf("claim: %v, %d jobs", err, len(crashed))
		}
		runDue(t, q, 0) // the lease still holds
		clk.Advance(time.Minute)
		runDue(t, q, 1)
		j := onlyJob(t, db, "render")
		if calls.Load() != 1 || j.State != store.JobDone || j.Attempts != 2 {
			t.Fatalf("after the lease expired (%d calls): %+v", calls.Load(), j)
		}
		// The dead worker's late report changes nothing.
		if err := db.CompleteJob(ctx, clk.Now(), crashed[0]); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("stale completion: %v, want ErrLeaseLost", err)
		}
	})

	t.Run("worker dying on the last attempt fails the job", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{})
		var calls atomic.Int32
		q.Register("render", func(context.Context, json.RawMessage) error { calls.Add(1); return nil }, jobs.MaxAttempts(1))
		if err := q.Enqueue(ctx, "render", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := db.ClaimJobs(ctx, clk.Now(), store.JobClaim{Owner: "crashed", Lease: time.Minute, Kinds: []string{"render"}, Limit: 1}); err != nil {
			t.Fatal(err)
		}
		clk.Advance(2 * time.Minute)
		runDue(t, q, 1)
		if j := onlyJob(t, db, "render"); calls.Load() != 0 || j.State != store.JobFailed {
			t.Fatalf("(%d calls) %+v, want failed without running again", calls.Load(), j)
		}
	})
}

func TestPeriodicJobRunsOncePerPeriodAcrossProcesses(t *testing.T) {
	t.Parallel()
	url := apitest.DatabaseURL(t)
	db1, db2, clk := openURL(t, url), openURL(t, url), fakeClock()
	var calls atomic.Int32
	tick := func(context.Context, json.RawMessage) error { calls.Add(1); return nil }
	q1 := jobs.New(db1, clk, quiet, jobs.Options{Owner: "one"})
	q2 := jobs.New(db2, clk, quiet, jobs.Options{Owner: "two"})
	q1.Every("digest", time.Hour, tick)
	q2.Every("digest", time.Hour, tick)

	runDue(t, q1, 1)
	runDue(t, q2, 0)
	clk.Advance(59 * time.Minute)
	runDue(t, q2, 0)
	clk.Advance(time.Minute)
	runDue(t, q2, 1)
	runDue(t, q1, 0)
	// Periods missed while nothing ran are skipped, not caught up.
	clk.Advance(5 * time.Hour)
	runDue(t, q1, 1)
	runDue(t, q2, 0)
	if calls.Load() != 3 {
		t.Fatalf("periodic handler ran %d times, want 3", calls.Load())
	}
}

func TestTwoProcessesRunEachJobOnce(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	const n = 200
	url := apitest.DatabaseURL(t)
	db1, db2 := openURL(t, url), openURL(t, url)
	clk := clock.Real{}

	var mu sync.Mutex
	runs := map[int]int{}
	byProcess := map[string]int{}
	all := make(chan struct{})
	handler := func(owner string) jobs.Handler {
		return func(_ context.Context, p json.RawMessage) error {
			var i int
			if err := json.Unmarshal(p, &i); err != nil {
				return jobs.Permanent(err)
			}
			mu.Lock()
			defer mu.Unlock()
			runs[i]++
			byProcess[owner]++
			if len(runs) == n {
				select {
				case <-all:
				default:
					close(all)
				}
			}
			return nil
		}
	}
	var queues []*jobs.Queue
	for i, db := range []*store.DB{db1, db2} {
		owner := []string{"one", "two"}[i]
		q := jobs.New(db, clk, quiet, jobs.Options{Owner: owner, PollInterval: 10 * time.Millisecond, Concurrency: 4})
		q.Register("count", handler(owner))
		queues = append(queues, q)
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	for _, q := range queues {
		q.Start(runCtx)
	}
	err := db1.Write(ctx, clk.Now(), func(tx *store.Q) error {
		for i := range n {
			if err := tx.EnqueueJob(ctx, "count", i, time.Time{}, ""); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-all:
	case <-time.After(30 * time.Second): // a bound for slow machines; normally well under a second
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("only %d of %d jobs ran", len(runs), n)
	}
	cancel()
	for _, q := range queues {
		if err := q.Stop(ctx); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		if runs[i] != 1 {
			t.Errorf("job %d ran %d times", i, runs[i])
		}
	}
	list, err := db1.JobsOfKind(ctx, "count")
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range list {
		if j.State != store.JobDone || j.Attempts != 1 {
			t.Errorf("job %s: state %s after %d attempts, want done after 1", j.ID, j.State, j.Attempts)
		}
	}
	t.Logf("%s: jobs run per process: %v", apitest.Engine(), byProcess)
}

func TestBackgroundLoop(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("a job enqueued by this process runs without waiting for the poll", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		q := jobs.New(db, clock.Real{}, quiet, jobs.Options{PollInterval: time.Hour})
		ran := make(chan struct{})
		q.Register("ping", func(context.Context, json.RawMessage) error { close(ran); return nil })
		q.Start(ctx)
		defer q.Stop(ctx)
		time.Sleep(20 * time.Millisecond) // let the first pass find nothing
		if err := q.Enqueue(ctx, "ping", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		select {
		case <-ran:
		case <-time.After(3 * time.Second):
			t.Fatal("job did not run on wake-up")
		}
	})

	t.Run("stop drains a running job", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		q := jobs.New(db, clock.Real{}, quiet, jobs.Options{PollInterval: 10 * time.Millisecond})
		started, finished := make(chan struct{}), atomic.Bool{}
		q.Register("slow", func(context.Context, json.RawMessage) error {
			close(started)
			time.Sleep(200 * time.Millisecond)
			finished.Store(true)
			return nil
		})
		runCtx, cancel := context.WithCancel(ctx)
		q.Start(runCtx)
		if err := q.Enqueue(ctx, "slow", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		<-started
		cancel() // what the server does on SIGTERM
		if err := q.Stop(ctx); err != nil {
			t.Fatalf("stop: %v", err)
		}
		if j := onlyJob(t, db, "slow"); !finished.Load() || j.State != store.JobDone {
			t.Fatalf("after stop: finished=%v, job %+v", finished.Load(), j)
		}
	})

	t.Run("stop out of time interrupts a job and gives it back", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		q := jobs.New(db, clock.Real{}, quiet, jobs.Options{PollInterval: 10 * time.Millisecond})
		started := make(chan struct{})
		q.Register("stuck", func(ctx context.Context, _ json.RawMessage) error {
			close(started)
			<-ctx.Done()
			return ctx.Err()
		})
		q.Start(ctx)
		if err := q.Enqueue(ctx, "stuck", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		<-started
		stopCtx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		defer cancel()
		if err := q.Stop(stopCtx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("stop: %v, want the deadline", err)
		}
		if j := onlyJob(t, db, "stuck"); j.State != store.JobQueued || j.Attempts != 0 || j.LeaseOwner != "" {
			t.Fatalf("interrupted job %+v, want queued again with no attempt counted", j)
		}
	})
}

func TestServerRunsJobs(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	ran := make(chan string, 1)
	e.App.Jobs.Register("hello", func(_ context.Context, p json.RawMessage) error { ran <- string(p); return nil })
	if err := e.App.Jobs.Enqueue(context.Background(), "hello", "world", time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	select {
	case p := <-ran:
		if p != `"world"` {
			t.Fatalf("payload %s", p)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("the server's worker did not run the job")
	}
}
