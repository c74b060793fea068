package store

import (
	"context"
	"database/sql"
	"time"
)

// JobStats is what the jobs table holds of one kind, for monitoring.
type JobStats struct {
	Kind     string
	Queued   int64 // waiting, first attempts and retries
	Retrying int64 // queued after at least one failed attempt
	Running  int64
	Failed   int64 // out of attempts, kept until pruned
	// OldestDue is how long the longest-waiting job that is due has waited: a queue that
	// does not drain shows here first.
	OldestDue time.Duration
}

// JobStats counts the jobs of every kind that has any queued, running or failed.
func (db *DB) JobStats(ctx context.Context, now time.Time) ([]JobStats, error) {
	rows, err := db.Read().Query(ctx, `SELECT kind, state, COUNT(*),
		SUM(CASE WHEN attempts > 0 THEN 1 ELSE 0 END),
		MIN(CASE WHEN run_at <= ? THEN run_at END)
		FROM jobs WHERE state IN ('queued', 'running', 'failed') GROUP BY kind, state`, Micros(now))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	byKind := map[string]*JobStats{}
	var out []*JobStats
	for rows.Next() {
		var kind string
		var state JobState
		var n, retried int64
		var oldest sql.NullInt64
		if err := rows.Scan(&kind, &state, &n, &retried, &oldest); err != nil {
			return nil, err
		}
		st := byKind[kind]
		if st == nil {
			st = &JobStats{Kind: kind}
			byKind[kind] = st
			out = append(out, st)
		}
		switch state {
		case JobQueued:
			st.Queued, st.Retrying = n, retried
			if oldest.Valid {
				st.OldestDue = max(now.Sub(FromMicros(oldest.Int64)), 0)
			}
		case JobRunning:
			st.Running = n
		case JobFailed:
			st.Failed = n
		}
	}
	res := make([]JobStats, len(out))
	for i, st := range out {
		res[i] = *st
	}
	return res, rows.Err()
}

// Pools are the database's connection pools by name (SQLite has a writer and a reader pool,
// PostgreSQL one pool), for their statistics.
func (db *DB) Pools() map[string]*sql.DB {
	if db.reader == db.writer {
		return map[string]*sql.DB{string(db.Engine): db.writer}
	}
	return map[string]*sql.DB{string(db.Engine) + "_writer": db.writer, string(db.Engine) + "_reader": db.reader}
}
