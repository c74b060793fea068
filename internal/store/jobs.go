package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"docsd/internal/ids"
)

// JobState is where a job is in its life.
type JobState string

const (
	JobQueued  JobState = "queued"  // waiting for run_at, or for a retry
	JobRunning JobState = "running" // claimed by a worker holding a lease
	JobDone    JobState = "done"    // its handler succeeded
	JobFailed  JobState = "failed"  // out of attempts, or failed permanently
)

// Job is one row of the jobs table.
type Job struct {
	ID             string
	Kind           string
	Payload        json.RawMessage
	State          JobState
	RunAt          time.Time
	Attempts       int // how many times it has been claimed, this claim included
	MaxAttempts    int // 0: the limit registered for the kind applies
	LeaseOwner     string
	LeaseExpiresAt *time.Time
	LastError      string
	DedupeKey      string
	CreatedAt      time.Time
	FinishedAt     *time.Time
}

// ErrLeaseLost is returned when a worker reports on a job it no longer holds: its lease
// expired and another worker claimed the job, or the job was finished elsewhere.
var ErrLeaseLost = errors.New("store: job lease lost")

const jobColumns = `id, kind, payload, state, run_at, attempts, max_attempts, lease_owner, lease_expires_at,
	last_error, dedupe_key, created_at, finished_at`

func scanJob(scan func(...any) error) (Job, error) {
	var j Job
	var payload string
	var owner, lastErr, dedupe sql.NullString
	var runAt, created int64
	var lease, finished sql.NullInt64
	err := scan(&j.ID, &j.Kind, &payload, &j.State, &runAt, &j.Attempts, &j.MaxAttempts, &owner, &lease,
		&lastErr, &dedupe, &created, &finished)
	if err != nil {
		return j, err
	}
	j.Payload = json.RawMessage(payload)
	j.RunAt, j.CreatedAt = FromMicros(runAt), FromMicros(created)
	j.LeaseOwner, j.LastError, j.DedupeKey = owner.String, lastErr.String, dedupe.String
	j.LeaseExpiresAt, j.FinishedAt = TimePtr(lease), TimePtr(finished)
	return j, nil
}

// EnqueueJob adds a job to the queue inside the current write transaction, so that the job
// exists exactly when the change that causes it does. payload is encoded as JSON. A zero runAt
// means now (the transaction's time). A non-empty dedupeKey makes the call idempotent: when a
// job with that key already exists, nothing is added and no error is returned.
func (q *Q) EnqueueJob(ctx context.Context, kind string, payload any, runAt time.Time, dedupeKey string) error {
	if !q.inTx() {
		return errors.New("store: EnqueueJob needs a write transaction")
	}
	if kind == "" {
		return errors.New("store: EnqueueJob: empty kind")
	}
	body, err := json.Marshal(payload)
	if err != nil {
		return fmt.Errorf("encode payload of %s job: %w", kind, err)
	}
	now := q.now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	if runAt.IsZero() {
		runAt = now
	}
	var dedupe any
	if dedupeKey != "" {
		dedupe = dedupeKey
	}
	res, err := q.Exec(ctx, `INSERT INTO jobs (id, kind, payload, state, run_at, attempts, max_attempts, dedupe_key, created_at)
		VALUES (?, ?, ?, 'queued', ?, 0, 0, ?, ?) ON CONFLICT (dedupe_key) DO NOTHING`,
		ids.New(), kind, string(body), Micros(runAt), dedupe, Micros(now))
	if err != nil {
		return fmt.Errorf("enqueue %s job: %w", kind, err)
	}
	if n, err := res.RowsAffected(); err == nil && n > 0 {
		if wake := q.db.jobsEnqueued.Load(); wake != nil {
			q.AfterCommit(*wake)
		}
	}
	return nil
}

// OnJobEnqueued sets a function called after each commit that enqueued at least one job, so
// this process's workers can start at once instead of at their next poll.
func (db *DB) OnJobEnqueued(f func()) { db.jobsEnqueued.Store(&f) }

// JobClaim says which jobs a worker may claim and for how long.
type JobClaim struct {
	Owner   string        // names the worker process in the lease
	Lease   time.Duration // how long the claim holds unless extended
	Kinds   []string      // only jobs of these kinds (the ones this process can run)
	Limit   int           // at most this many jobs
	Exclude []string      // never these ids (jobs the caller already ran in this pass)
}

// ClaimJobs takes up to c.Limit jobs that are due at now: queued ones whose run_at has come,
// and running ones whose lease has expired (their worker died). Each claimed job is marked
// running under c.Owner's lease, with its attempt counted. On PostgreSQL, rows another worker
// is claiming at the same moment are skipped rather than waited for, so several processes
// share the queue without ever taking the same job; SQLite serializes write transactions, so
// the same statement without row locks is enough there.
func (db *DB) ClaimJobs(ctx context.Context, now time.Time, c JobClaim) ([]Job, error) {
	if len(c.Kinds) == 0 || c.Limit <= 0 {
		return nil, nil
	}
	var args []any
	var b strings.Builder
	b.WriteString(`WITH due AS MATERIALIZED (SELECT id FROM jobs WHERE kind IN (`)
	for i, k := range c.Kinds {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("?")
		args = append(args, k)
	}
	b.WriteString(`) AND ((state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_expires_at <= ?))`)
	args = append(args, Micros(now), Micros(now))
	if len(c.Exclude) > 0 {
		b.WriteString(` AND id NOT IN (`)
		for i, id := range c.Exclude {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("?")
			args = append(args, id)
		}
		b.WriteString(`)`)
	}
	b.WriteString(` ORDER BY run_at, created_at LIMIT ?`)
	args = append(args, c.Limit)
	if db.Engine == Postgres {
		b.WriteString(` FOR UPDATE SKIP LOCKED`)
	}
	b.WriteString(`)
		UPDATE jobs SET state = 'running', lease_owner = ?, lease_expires_at = ?, attempts = attempts + 1
		FROM due WHERE jobs.id = due.id
		RETURNING jobs.id, jobs.kind, jobs.payload, jobs.state, jobs.run_at, jobs.attempts, jobs.max_attempts,
			jobs.lease_owner, jobs.lease_expires_at, jobs.last_error, jobs.dedupe_key, jobs.created_at, jobs.finished_at`)
	args = append(args, c.Owner, Micros(now.Add(c.Lease)))

	var jobs []Job
	err := db.Write(ctx, now, func(q *Q) error {
		jobs = jobs[:0]
		rows, err := q.Query(ctx, b.String(), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			j, err := scanJob(rows.Scan)
			if err != nil {
				return err
			}
			jobs = append(jobs, j)
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("claim jobs: %w", err)
	}
	return jobs, nil
}

// HasDueJobs reports whether ClaimJobs would find a job of one of kinds due at now. It only
// reads, so an idle worker can poll without taking SQLite's write lock.
func (db *DB) HasDueJobs(ctx context.Context, now time.Time, kinds []string) (bool, error) {
	if len(kinds) == 0 {
		return false, nil
	}
	args := make([]any, 0, len(kinds)+2)
	for _, k := range kinds {
		args = append(args, k)
	}
	args = append(args, Micros(now), Micros(now))
	var one int
	err := db.Read().QueryRow(ctx, `SELECT 1 FROM jobs WHERE kind IN (?`+strings.Repeat(", ?", len(kinds)-1)+`)
		AND ((state = 'queued' AND run_at <= ?) OR (state = 'running' AND lease_expires_at <= ?)) LIMIT 1`, args...).Scan(&one)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	return err == nil, err
}

// finishJob updates a job the caller holds: the row must still be running under the same
// owner and attempt it was claimed with, or ErrLeaseLost is returned and nothing changes.
func (db *DB) finishJob(ctx context.Context, now time.Time, j Job, set string, args ...any) error {
	return db.updateOwnedJob(ctx, now, j, set, args, "")
}

// updateOwnedJob sets set (with setArgs) on a job while it is still the claim j describes and
// where (with whereArgs) holds, or returns ErrLeaseLost.
func (db *DB) updateOwnedJob(ctx context.Context, now time.Time, j Job, set string, setArgs []any, where string, whereArgs ...any) error {
	args := append(append(setArgs, j.ID, j.LeaseOwner, j.Attempts), whereArgs...)
	if where != "" {
		where = " AND " + where
	}
	return db.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE jobs SET `+set+`
			WHERE id = ? AND state = 'running' AND lease_owner = ? AND attempts = ?`+where, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return err
		}
		if n == 0 {
			return ErrLeaseLost
		}
		return nil
	})
}

// CompleteJob marks a claimed job done.
func (db *DB) CompleteJob(ctx context.Context, now time.Time, j Job) error {
	return db.finishJob(ctx, now, j, `state = 'done', finished_at = ?, lease_owner = NULL, lease_expires_at = NULL`,
		Micros(now))
}

// RetryJob puts a claimed job that failed back in the queue, to run again at runAt.
func (db *DB) RetryJob(ctx context.Context, now time.Time, j Job, runAt time.Time, lastError string) error {
	return db.finishJob(ctx, now, j, `state = 'queued', run_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL`,
		Micros(runAt), lastError)
}

// FailJob marks a claimed job failed for good.
func (db *DB) FailJob(ctx context.Context, now time.Time, j Job, lastError string) error {
	return db.finishJob(ctx, now, j, `state = 'failed', finished_at = ?, last_error = ?, lease_owner = NULL, lease_expires_at = NULL`,
		Micros(now), lastError)
}

// ReleaseJob gives back a claimed job that was interrupted (the process is shutting down)
// without counting the attempt, to run again at once.
func (db *DB) ReleaseJob(ctx context.Context, now time.Time, j Job) error {
	return db.finishJob(ctx, now, j, `state = 'queued', run_at = ?, attempts = attempts - 1, lease_owner = NULL, lease_expires_at = NULL`,
		Micros(now))
}

// ExtendJobLease moves the lease of a running job forward to until.
func (db *DB) ExtendJobLease(ctx context.Context, now time.Time, j Job, until time.Time) error {
	// Only a lease that has not run out is extended: one that ran out, or that another
	// process ended when it declared this one gone (TakeOverJobs), is lost even before
	// anyone claims the job, or a worker declared dead could keep it from its new owner.
	return db.updateOwnedJob(ctx, now, j, `lease_expires_at = ?`, []any{Micros(until)}, `lease_expires_at > ?`, Micros(now))
}

// PruneJobs deletes jobs that finished before doneBefore (done) or failedBefore (failed), and
// returns how many went. Their dedupe keys become free again.
func (db *DB) PruneJobs(ctx context.Context, now, doneBefore, failedBefore time.Time) (int64, error) {
	var n int64
	err := db.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `DELETE FROM jobs WHERE (state = 'done' AND finished_at < ?) OR (state = 'failed' AND finished_at < ?)`,
			Micros(doneBefore), Micros(failedBefore))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// Job returns one job by id, or ErrNotFound.
func (db *DB) Job(ctx context.Context, id string) (Job, error) {
	return scanJob(db.Read().QueryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id).Scan)
}

// JobsOfKind returns every job of a kind, oldest first: for operators and tests.
func (db *DB) JobsOfKind(ctx context.Context, kind string) ([]Job, error) {
	rows, err := db.Read().Query(ctx, `SELECT `+jobColumns+` FROM jobs WHERE kind = ? ORDER BY created_at, id`, kind)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Job
	for rows.Next() {
		j, err := scanJob(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
