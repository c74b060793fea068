package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// JobOwner is a process that runs jobs, as recorded in job_owners.
type JobOwner struct {
	Owner     string // the name its leases carry
	Machine   string // kernel boot and pid namespace it runs in; "" when unknown
	PID       int
	PIDStart  int64 // the process's start time, to tell a reused pid from it
	StartedAt time.Time
	BeatAt    time.Time
}

// BeatJobOwner records that o is alive at now, adding its row if it has none (it is new, or
// another process took it for dead).
func (db *DB) BeatJobOwner(ctx context.Context, now time.Time, o JobOwner) error {
	return db.Write(ctx, now, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO job_owners (owner, machine, pid, pid_start, started_at, beat_at)
			VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (owner) DO UPDATE SET beat_at = excluded.beat_at`,
			o.Owner, o.Machine, o.PID, o.PIDStart, Micros(o.StartedAt), Micros(now))
		if err != nil {
			return fmt.Errorf("beat job owner: %w", err)
		}
		return nil
	})
}

// JobOwners lists the processes recorded as running jobs.
func (db *DB) JobOwners(ctx context.Context) ([]JobOwner, error) {
	rows, err := db.Read().Query(ctx, `SELECT owner, machine, pid, pid_start, started_at, beat_at FROM job_owners ORDER BY owner`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []JobOwner
	for rows.Next() {
		var o JobOwner
		var started, beat int64
		if err := rows.Scan(&o.Owner, &o.Machine, &o.PID, &o.PIDStart, &started, &beat); err != nil {
			return nil, err
		}
		o.StartedAt, o.BeatAt = FromMicros(started), FromMicros(beat)
		out = append(out, o)
	}
	return out, rows.Err()
}

// TakeOverJobs removes the owners that are gone: those named in dead, and those whose last
// beat is before staleBefore. The running jobs they held become claimable at once (their
// leases end at now), and the names of the owners removed are returned. An owner is removed
// only if its row has not beaten since staleBefore or since the beat the caller saw
// (dead[owner]), so a process that was merely slow and beat meanwhile keeps its jobs.
func (db *DB) TakeOverJobs(ctx context.Context, now, staleBefore time.Time, dead map[string]time.Time) (gone []string, released int64, err error) {
	err = db.Write(ctx, now, func(q *Q) error {
		gone, released = gone[:0], 0
		var b strings.Builder
		args := []any{Micros(staleBefore)}
		b.WriteString(`DELETE FROM job_owners WHERE beat_at < ?`)
		for owner, beat := range dead {
			b.WriteString(` OR (owner = ? AND beat_at <= ?)`)
			args = append(args, owner, Micros(beat))
		}
		b.WriteString(` RETURNING owner`)
		rows, err := q.Query(ctx, b.String(), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var o string
			if err := rows.Scan(&o); err != nil {
				return err
			}
			gone = append(gone, o)
		}
		if err := rows.Err(); err != nil {
			return err
		}
		rows.Close()
		if len(gone) == 0 {
			return nil
		}
		args = []any{Micros(now)}
		for _, o := range gone {
			args = append(args, o)
		}
		res, err := q.Exec(ctx, `UPDATE jobs SET lease_expires_at = ?
			WHERE state = 'running' AND lease_owner IN (?`+strings.Repeat(", ?", len(gone)-1)+`)`, args...)
		if err != nil {
			return err
		}
		released, err = res.RowsAffected()
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("take over jobs: %w", err)
	}
	return gone, released, nil
}

// ReleaseJobOwner removes owner's row as it stops, and ends the leases of any jobs it still
// holds (ones a drain left behind), so that another process takes them at once.
func (db *DB) ReleaseJobOwner(ctx context.Context, now time.Time, owner string) error {
	return db.Write(ctx, now, func(q *Q) error {
		if _, err := q.Exec(ctx, `DELETE FROM job_owners WHERE owner = ?`, owner); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `UPDATE jobs SET lease_expires_at = ? WHERE state = 'running' AND lease_owner = ?`, Micros(now), owner)
		return err
	})
}
