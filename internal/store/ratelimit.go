package store

import (
	"context"
	"fmt"
)

// RateWindows adds rate-limit counts up across the processes sharing a PostgreSQL database
// (see package ratelimit). The table is unlogged: counts that live a minute are not worth a
// write-ahead log, and losing them in a crash only forgives one window.
type RateWindows struct{ DB *DB }

// rateBatch bounds the keys of one statement.
const rateBatch = 1000

// Add adds deltas to the counts of their keys in window and returns the totals.
func (r RateWindows) Add(ctx context.Context, window int64, deltas map[string]int64) (map[string]int64, error) {
	if r.DB.Engine != Postgres {
		return nil, fmt.Errorf("rate windows: only PostgreSQL shares counts; SQLite has one process")
	}
	totals := make(map[string]int64, len(deltas))
	keys := make([]string, 0, min(len(deltas), rateBatch))
	counts := make([]int64, 0, cap(keys))
	flush := func() error {
		rows, err := r.DB.writer.QueryContext(ctx, `INSERT INTO rate_windows (key, window_start, count)
			SELECT k, $1, n FROM unnest($2::text[], $3::bigint[]) AS t(k, n)
			ON CONFLICT (key, window_start) DO UPDATE SET count = rate_windows.count + excluded.count
			RETURNING key, count`, window, keys, counts)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k string
			var n int64
			if err := rows.Scan(&k, &n); err != nil {
				return err
			}
			totals[k] = n
		}
		keys, counts = keys[:0], counts[:0]
		return rows.Err()
	}
	for k, n := range deltas {
		keys, counts = append(keys, k), append(counts, n)
		if len(keys) == rateBatch {
			if err := flush(); err != nil {
				return nil, err
			}
		}
	}
	if len(keys) > 0 {
		if err := flush(); err != nil {
			return nil, err
		}
	}
	return totals, nil
}

// Purge forgets the windows before before.
func (r RateWindows) Purge(ctx context.Context, before int64) error {
	_, err := r.DB.writer.ExecContext(ctx, `DELETE FROM rate_windows WHERE window_start < $1`, before)
	return err
}
