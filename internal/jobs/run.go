package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"sync/atomic"
	"time"

	"docsd/internal/store"
)

// outcome is what became of one attempt.
type outcome int

const (
	outcomeDone     outcome = iota
	outcomeRetry            // back in the queue, for later
	outcomeFailed           // failed for good
	outcomeReleased         // interrupted by shutdown, back in the queue at once
	outcomeLost             // the lease went to another worker; nothing recorded
)

// maxErrorLen bounds the error text kept on a job row.
const maxErrorLen = 2000

// runJob runs one claimed job and records what happened. base is cancelled only when a
// shutdown runs out of patience.
func (q *Queue) runJob(base context.Context, j store.Job) outcome {
	log := q.log.With("job", j.ID, "kind", j.Kind, "attempt", j.Attempts)
	// Recording the result must not fail because the handler's context was cancelled.
	record := context.WithoutCancel(base)
	k := q.config(j.Kind)
	if k == nil {
		// Claims only ask for registered kinds; a kind can't be unregistered, so this is a bug.
		return q.record(log, outcomeReleased, q.db.ReleaseJob(record, q.clock.Now(), j))
	}
	maxAttempts := k.maxAttempts
	if j.MaxAttempts > 0 {
		maxAttempts = j.MaxAttempts
	}
	if j.Attempts > maxAttempts {
		// The previous worker stopped during the last attempt and its lease ran out.
		err := q.db.FailJob(record, q.clock.Now(), j, "the worker stopped during the last attempt")
		return q.failed(record, k, j, errors.New("the worker stopped during the last attempt"), q.record(log, outcomeFailed, err))
	}

	ctx, cancel := context.WithTimeout(base, k.timeout)
	var lost atomic.Bool
	heartbeatDone := q.heartbeat(ctx, cancel, j, &lost)
	err := call(ctx, k.handler, j)
	cancel()
	<-heartbeatDone
	if lost.Load() {
		// The job is another worker's now, or will be: writing this attempt's outcome
		// could put it back in the queue under that worker.
		return outcomeLost
	}

	now := q.clock.Now()
	var permanent *PermanentError
	switch {
	case err == nil:
		return q.record(log, outcomeDone, q.db.CompleteJob(record, now, j))
	case base.Err() != nil && !errors.As(err, &permanent):
		log.Info("job interrupted by shutdown", "err", err)
		return q.record(log, outcomeReleased, q.db.ReleaseJob(record, now, j))
	case errors.As(err, &permanent) || j.Attempts >= maxAttempts:
		log.Warn("job failed", "err", err, "permanent", permanent != nil)
		return q.failed(record, k, j, err, q.record(log, outcomeFailed, q.db.FailJob(record, now, j, truncate(err.Error()))))
	default:
		delay := backoff(k.backoffFirst, k.backoffMax, j.Attempts)
		var later *RetryAfterError
		if errors.As(err, &later) {
			delay = min(max(delay, later.After), k.backoffMax)
		}
		log.Info("job will be retried", "err", err, "in", delay)
		return q.record(log, outcomeRetry, q.db.RetryJob(record, now, j, now.Add(delay), truncate(err.Error())))
	}
}

// failed tells the kind's OnFail about a job that failed for good, once that is recorded.
func (q *Queue) failed(ctx context.Context, k *kindConfig, j store.Job, err error, got outcome) outcome {
	if got == outcomeFailed && k.onFail != nil {
		k.onFail(ctx, j.Payload, err)
	}
	return got
}

// record logs a failure to write a job's outcome and says what really happened.
func (q *Queue) record(log *slog.Logger, want outcome, err error) outcome {
	switch {
	case err == nil:
		return want
	case errors.Is(err, store.ErrLeaseLost):
		log.Warn("job lease lost before its result was recorded; another worker owns it now")
		return outcomeLost
	default:
		// The lease will expire and the job will be tried again.
		log.Error("record job result", "err", err)
		return outcomeLost
	}
}

// call runs a handler, turning a panic into an error so one bad job can't stop the worker.
func call(ctx context.Context, h Handler, j store.Job) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
		}
	}()
	return h(ctx, j.Payload)
}

// heartbeat extends the job's lease while it runs, at a third of the lease so that one missed
// beat does not lose it. If the lease is lost anyway, the handler's context is cancelled and
// lost is set.
func (q *Queue) heartbeat(ctx context.Context, cancel context.CancelFunc, j store.Job, lost *atomic.Bool) <-chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(max(q.opts.Lease/3, time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				now := q.clock.Now()
				err := q.db.ExtendJobLease(ctx, now, j, now.Add(q.opts.Lease))
				if errors.Is(err, store.ErrLeaseLost) {
					q.log.Warn("job lease lost while running; stopping it", "job", j.ID, "kind", j.Kind)
					lost.Store(true)
					cancel()
					return
				}
				if err != nil && ctx.Err() == nil {
					q.log.Warn("extend job lease", "job", j.ID, "kind", j.Kind, "err", err)
				}
			}
		}
	}()
	return done
}

// backoff is the delay before retry n+1 after attempt n failed: first·2^(n-1), capped at
// limit, then drawn from its upper half so that jobs failing together spread out.
func backoff(first, limit time.Duration, attempt int) time.Duration {
	d := first
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	half := d / 2
	if half <= 0 {
		return d
	}
	return half + rand.N(half+1)
}

func truncate(s string) string {
	if len(s) <= maxErrorLen {
		return s
	}
	return s[:maxErrorLen] + "…"
}
