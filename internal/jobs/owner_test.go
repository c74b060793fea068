package jobs_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"sync/atomic"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/clock"
	"docsd/internal/jobs"
	"docsd/internal/store"
)

// claimAs records owner o in job_owners at the clock's time and claims every due job of kind
// for it, as a process that then dies would.
func claimAs(t *testing.T, db *store.DB, clk clock.Clock, o store.JobOwner, kind string, lease time.Duration) {
	t.Helper()
	ctx := context.Background()
	if err := db.BeatJobOwner(ctx, clk.Now(), o); err != nil {
		t.Fatal(err)
	}
	got, err := db.ClaimJobs(ctx, clk.Now(), store.JobClaim{Owner: o.Owner, Lease: lease, Kinds: []string{kind}, Limit: 10})
	if err != nil || len(got) != 1 {
		t.Fatalf("claim as %s: %v, %d jobs", o.Owner, err, len(got))
	}
}

func ownerNames(t *testing.T, db *store.DB) []string {
	t.Helper()
	all, err := db.JobOwners(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range all {
		out = append(out, o.Owner)
	}
	return out
}

func TestJobsOfGoneOwnersAreTakenOver(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	count := func(n *atomic.Int32) jobs.Handler {
		return func(context.Context, json.RawMessage) error { n.Add(1); return nil }
	}

	t.Run("an owner that stopped beating loses its jobs after the owner timeout, before their lease ends", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{Owner: "survivor", Lease: 30 * time.Second, OwnerBeat: 2 * time.Second, OwnerTimeout: 10 * time.Second})
		var calls atomic.Int32
		q.Register("render", count(&calls))
		if err := q.Enqueue(ctx, "render", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		// A process on another machine claims the job and goes silent.
		claimAs(t, db, clk, store.JobOwner{Owner: "elsewhere", Machine: "another-machine", PID: 1, StartedAt: clk.Now()}, "render", 30*time.Second)
		runDue(t, q, 0)
		clk.Advance(9 * time.Second)
		runDue(t, q, 0) // its last beat is recent enough
		clk.Advance(2 * time.Second)
		runDue(t, q, 1) // 11s without a beat: gone, though its lease had 19s left
		if j := onlyJob(t, db, "render"); calls.Load() != 1 || j.State != store.JobDone || j.Attempts != 2 {
			t.Fatalf("(%d calls) %+v, want done on the second attempt", calls.Load(), j)
		}
		if got := ownerNames(t, db); len(got) != 1 || got[0] != "survivor" {
			t.Fatalf("owners %v, want only the survivor", got)
		}
	})

	t.Run("an owner that beats keeps its jobs until their lease ends", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{Owner: "other", Lease: 30 * time.Second})
		var calls atomic.Int32
		q.Register("render", count(&calls))
		if err := q.Enqueue(ctx, "render", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		busy := store.JobOwner{Owner: "busy", Machine: "another-machine", PID: 1, StartedAt: clk.Now()}
		claimAs(t, db, clk, busy, "render", 30*time.Second)
		for range 5 {
			clk.Advance(5 * time.Second)
			if err := db.BeatJobOwner(ctx, clk.Now(), busy); err != nil {
				t.Fatal(err)
			}
			runDue(t, q, 0)
		}
		clk.Advance(6 * time.Second) // 31s: the lease, never renewed, has run out
		runDue(t, q, 1)
	})

	t.Run("a process on this machine that is gone loses its jobs at once", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{Owner: "restarted"})
		var calls atomic.Int32
		q.Register("render", count(&calls))
		if err := q.Enqueue(ctx, "render", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		// A real process that claims the job, then is killed.
		child := exec.Command("sleep", "30")
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		dead := jobs.Self("killed", clk.Now())
		dead.PID, dead.PIDStart = child.Process.Pid, jobs.ProcessStart(child.Process.Pid)
		if dead.Machine == "" || dead.PIDStart == 0 {
			child.Process.Kill()
			t.Fatalf("no process identity on this system: %+v", dead)
		}
		claimAs(t, db, clk, dead, "render", 30*time.Second)
		runDue(t, q, 0) // alive: its job is left alone
		child.Process.Kill()
		child.Wait()
		// A process starting at the same instant on the clock takes the job without waiting
		// for a lease or a beat to run out.
		restarted := jobs.New(db, clk, quiet, jobs.Options{Owner: "restarted-again"})
		restarted.Register("render", count(&calls))
		runDue(t, restarted, 1)
		if calls.Load() != 1 {
			t.Fatalf("%d calls", calls.Load())
		}
	})

	t.Run("a live process on this machine keeps its jobs", func(t *testing.T) {
		t.Parallel()
		db, clk := openDB(t), fakeClock()
		q := jobs.New(db, clk, quiet, jobs.Options{Owner: "peer-b"})
		var calls atomic.Int32
		q.Register("render", count(&calls))
		if err := q.Enqueue(ctx, "render", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		// Another queue in this very process, as two servers of a test share one.
		claimAs(t, db, clk, jobs.Self("peer-a", clk.Now()), "render", 30*time.Second)
		runDue(t, q, 0)
		if j := onlyJob(t, db, "render"); j.State != store.JobRunning || j.LeaseOwner != "peer-a" {
			t.Fatalf("%+v, want still running under peer-a", j)
		}
	})

	t.Run("a stopping process hands its leftover jobs over at once", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		q := jobs.New(db, clock.Real{}, quiet, jobs.Options{Owner: "stopping", PollInterval: 10 * time.Millisecond})
		started := make(chan struct{})
		q.Register("stuck", func(ctx context.Context, _ json.RawMessage) error {
			close(started)
			time.Sleep(6 * time.Second) // ignores its context: left behind by the drain
			return nil
		})
		q.Start(ctx)
		if err := q.Enqueue(ctx, "stuck", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		<-started
		stopCtx, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
		defer cancel()
		if err := q.Stop(stopCtx); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("stop: %v", err)
		}
		j := onlyJob(t, db, "stuck")
		if j.State != store.JobRunning || j.LeaseExpiresAt == nil || j.LeaseExpiresAt.After(time.Now()) {
			t.Fatalf("%+v, want a running job whose lease has ended", j)
		}
		if got := ownerNames(t, db); len(got) != 0 {
			t.Fatalf("owners %v after stop, want none", got)
		}
	})
}

// A job that runs longer than its lease keeps it, by the heartbeat; one whose lease is taken
// is told, through its context.
func TestLeaseRenewal(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("a job longer than its lease runs once across two processes", func(t *testing.T) {
		t.Parallel()
		url := apitest.DatabaseURL(t)
		db1, db2 := openURL(t, url), openURL(t, url)
		var calls atomic.Int32
		done := make(chan struct{})
		slow := func(context.Context, json.RawMessage) error {
			if calls.Add(1) == 1 {
				time.Sleep(2 * time.Second)
				close(done)
			}
			return nil
		}
		// The lease is short against the job (a third of it) but long against the renewal's
		// scheduling on a loaded machine: renewed every 200ms, it lapses only if a renewal is
		// 400ms late.
		opts := jobs.Options{PollInterval: 10 * time.Millisecond, Lease: 600 * time.Millisecond}
		for i, db := range []*store.DB{db1, db2} {
			o := opts
			o.Owner = []string{"one", "two"}[i]
			q := jobs.New(db, clock.Real{}, quiet, o)
			q.Register("slow", slow)
			q.Start(ctx)
			defer q.Stop(ctx)
		}
		err := db1.Write(ctx, time.Now(), func(tx *store.Q) error { return tx.EnqueueJob(ctx, "slow", nil, time.Time{}, "") })
		if err != nil {
			t.Fatal(err)
		}
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the job did not finish")
		}
		time.Sleep(1200 * time.Millisecond) // two more leases: time for a wrong second run
		if calls.Load() != 1 {
			t.Fatalf("a job of 2s with a lease of 600ms ran %d times", calls.Load())
		}
	})

	// A process declared gone may still be running: its next renewal must not win the job
	// back from the process taking it over, before or after that one claims it.
	t.Run("a lease ended by a takeover is not extended", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		clk := clock.NewFake()
		if err := jobs.New(db, clk, quiet, jobs.Options{}).Enqueue(ctx, "held", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		claimAs(t, db, clk, store.JobOwner{Owner: "declared-gone", Machine: "another-machine", PID: 1, StartedAt: clk.Now()}, "held", time.Minute)
		held := onlyJob(t, db, "held")
		if err := db.ExtendJobLease(ctx, clk.Now(), held, clk.Now().Add(time.Minute)); err != nil {
			t.Fatalf("renewing a lease still held: %v", err)
		}
		if _, released, err := db.TakeOverJobs(ctx, clk.Now(), clk.Now().Add(time.Hour), nil); err != nil || released != 1 {
			t.Fatalf("take over: %d released, %v", released, err)
		}
		clk.Advance(time.Millisecond)
		if err := db.ExtendJobLease(ctx, clk.Now(), held, clk.Now().Add(time.Minute)); !errors.Is(err, store.ErrLeaseLost) {
			t.Fatalf("renewing a lease a takeover ended: %v, want ErrLeaseLost", err)
		}
		if got, err := db.ClaimJobs(ctx, clk.Now(), store.JobClaim{Owner: "heir", Lease: time.Minute, Kinds: []string{"held"}, Limit: 1}); err != nil || len(got) != 1 {
			t.Fatalf("the heir's claim: %v, %d", err, len(got))
		}
		if j := onlyJob(t, db, "held"); j.LeaseOwner != "heir" || j.State != store.JobRunning {
			t.Fatalf("%+v, want the heir's", j)
		}
	})

	t.Run("a job whose lease is lost is cancelled", func(t *testing.T) {
		t.Parallel()
		db := openDB(t)
		q := jobs.New(db, clock.Real{}, quiet, jobs.Options{Owner: "loser", PollInterval: 10 * time.Millisecond, Lease: 150 * time.Millisecond})
		started, cancelled := make(chan struct{}), make(chan struct{})
		q.Register("long", func(ctx context.Context, _ json.RawMessage) error {
			close(started)
			select {
			case <-ctx.Done():
				close(cancelled)
			case <-time.After(10 * time.Second):
			}
			return ctx.Err()
		})
		q.Start(ctx)
		defer q.Stop(ctx)
		if err := q.Enqueue(ctx, "long", nil, time.Time{}, ""); err != nil {
			t.Fatal(err)
		}
		<-started
		// Another process declares this one gone and takes the job.
		if _, _, err := db.TakeOverJobs(ctx, time.Now(), time.Now().Add(time.Hour), nil); err != nil {
			t.Fatal(err)
		}
		if got, err := db.ClaimJobs(ctx, time.Now(), store.JobClaim{Owner: "thief", Lease: time.Hour, Kinds: []string{"long"}, Limit: 1}); err != nil || len(got) != 1 {
			t.Fatalf("take the job: %v, %d", err, len(got))
		}
		select {
		case <-cancelled:
		case <-time.After(5 * time.Second):
			t.Fatal("the job ran on after its lease was taken")
		}
		if j := onlyJob(t, db, "long"); j.LeaseOwner != "thief" || j.State != store.JobRunning {
			t.Fatalf("%+v, want still the thief's", j)
		}
	})
}
