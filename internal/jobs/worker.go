package jobs

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"docsd/internal/store"
)

// pruneEvery is how often each process deletes finished jobs past their retention. The
// DELETE is idempotent, so processes of a fleet need not agree on who does it.
const pruneEvery = time.Hour

// Start runs the background loop until ctx is cancelled or Stop is called: it claims due
// jobs, at most Concurrency at a time, each poll interval and whenever this process enqueues
// a job. Running jobs are not cancelled with ctx; Stop drains them.
func (q *Queue) Start(ctx context.Context) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.stop != nil {
		return
	}
	q.stop, q.loopDone = make(chan struct{}), make(chan struct{})
	go q.loop(ctx)
}

// Stop stops claiming jobs and waits for the running ones to finish. If ctx ends first, their
// contexts are cancelled; interrupted jobs go back to the queue without losing an attempt.
func (q *Queue) Stop(ctx context.Context) error {
	q.mu.Lock()
	stop, loopDone := q.stop, q.loopDone
	if stop != nil {
		select {
		case <-stop:
		default:
			close(stop)
		}
	}
	q.mu.Unlock()
	if loopDone != nil {
		<-loopDone
	}
	drained := make(chan struct{})
	go func() {
		q.running.Wait()
		close(drained)
	}()
	select {
	case <-drained:
		q.leave()
		return nil
	case <-ctx.Done():
	}
	q.hardStop()
	// Handlers should return promptly once cancelled; one that does not is left behind, and
	// leave gives its job to the next process.
	select {
	case <-drained:
	case <-time.After(5 * time.Second):
		q.log.Error("jobs still running after shutdown; another process will run them again")
	}
	q.leave()
	return ctx.Err()
}

// leave removes this process from job_owners as it stops, so that nobody waits for its beat.
func (q *Queue) leave() {
	q.mu.Lock()
	started := !q.lastBeat.IsZero()
	q.mu.Unlock()
	if !started {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := q.db.ReleaseJobOwner(ctx, q.clock.Now(), q.self.Owner); err != nil {
		q.log.Warn("remove this process from the job owners", "err", err)
	}
}

func (q *Queue) loop(ctx context.Context) {
	defer close(q.loopDone)
	var more atomic.Bool // the last claim filled every free slot, so more may be due
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-q.stop:
			return
		case <-q.wake:
		case <-timer.C:
		}
		if err := q.pass(ctx, &more); err != nil && ctx.Err() == nil {
			q.log.Warn("job queue pass", "err", err)
		}
		if !timer.Stop() {
			select {
			case <-timer.C:
			default:
			}
		}
		timer.Reset(q.opts.PollInterval)
	}
}

// pass does one round of the loop: periodic scheduling, pruning, and claiming jobs for the
// free slots.
func (q *Queue) pass(ctx context.Context, more *atomic.Bool) error {
	q.claimMu.Lock()
	defer q.claimMu.Unlock()
	errs := []error{q.tendOwners(ctx), q.schedulePeriodic(ctx), q.prune(ctx)}
	free := cap(q.slots) - len(q.slots)
	if free == 0 {
		more.Store(true)
		return errors.Join(errs...)
	}
	now, kinds := q.clock.Now(), q.registered()
	if due, err := q.db.HasDueJobs(ctx, now, kinds); err != nil || !due {
		more.Store(false)
		return errors.Join(append(errs, err)...)
	}
	claimed, err := q.db.ClaimJobs(ctx, now, store.JobClaim{Owner: q.opts.Owner, Lease: q.opts.Lease, Kinds: kinds, Limit: free})
	if err != nil {
		return errors.Join(append(errs, err)...)
	}
	more.Store(len(claimed) == free)
	for _, j := range claimed {
		q.slots <- struct{}{}
		q.running.Add(1)
		go func() {
			defer q.running.Done()
			q.runJob(q.baseCtx, j)
			<-q.slots
			if more.Load() {
				q.Wake()
			}
		}()
	}
	return errors.Join(errs...)
}

// prune deletes old finished jobs, at most once per pruneEvery.
func (q *Queue) prune(ctx context.Context) error {
	now := q.clock.Now()
	q.mu.Lock()
	due := now.Sub(q.lastPrune) >= pruneEvery
	if due {
		q.lastPrune = now
	}
	q.mu.Unlock()
	if !due {
		return nil
	}
	n, err := q.db.PruneJobs(ctx, now, now.Add(-q.opts.Retention), now.Add(-4*q.opts.Retention))
	if n > 0 {
		q.log.Info("pruned finished jobs", "count", n)
	}
	return err
}

// RunDue runs every job that is due by the queue's clock, one after another, and returns how
// many it ran. Jobs those jobs enqueue are run too if they are due; a job that fails is
// retried at a later call, not in this one. Jobs the background loop had already started are
// waited for first (and not counted), so that when RunDue returns every job that was due has
// been run. Tests call it after moving a fake clock.
func (q *Queue) RunDue(ctx context.Context) (ran int, err error) {
	q.claimMu.Lock()
	defer q.claimMu.Unlock()
	q.running.Wait()
	if err := q.tendOwners(ctx); err != nil {
		return 0, err
	}
	if err := q.schedulePeriodic(ctx); err != nil {
		return 0, err
	}
	var again []string // ids back in the queue: not to be run twice in one call
	for {
		claimed, err := q.db.ClaimJobs(ctx, q.clock.Now(), store.JobClaim{
			Owner: q.opts.Owner, Lease: q.opts.Lease, Kinds: q.registered(), Limit: 16, Exclude: again})
		if err != nil {
			return ran, err
		}
		if len(claimed) == 0 {
			return ran, nil
		}
		for _, j := range claimed {
			switch q.runJob(ctx, j) {
			case outcomeRetry, outcomeReleased:
				again = append(again, j.ID)
			}
			ran++
		}
		if err := ctx.Err(); err != nil {
			return ran, err
		}
	}
}
