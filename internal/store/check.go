package store

import (
	"context"
	"errors"
	"time"
)

// Queries for docsd admin check (internal/check): listing what it verifies and the few
// repairs of the job table it makes.

// strings runs a query that returns one text column.
func (db *DB) strings(ctx context.Context, query string, args ...any) ([]string, error) {
	return column[string](ctx, db.Read(), query, args...)
}

// RevisionIDs lists every revision, oldest first.
func (db *DB) RevisionIDs(ctx context.Context) ([]string, error) {
	return db.strings(ctx, `SELECT id FROM revisions ORDER BY created_at, id`)
}

// LiveSpaceIDs lists the spaces that are not in the trash.
func (db *DB) LiveSpaceIDs(ctx context.Context) ([]string, error) {
	return db.strings(ctx, `SELECT id FROM spaces WHERE deleted_at IS NULL ORDER BY id`)
}

// SpacesWithoutHead lists "space revision" for each space whose head revision is missing.
func (db *DB) SpacesWithoutHead(ctx context.Context) ([]string, error) {
	return db.strings(ctx, `SELECT s.id || ' ' || COALESCE(s.revision_id, '') FROM spaces s
		LEFT JOIN revisions r ON r.id = s.revision_id WHERE r.id IS NULL ORDER BY s.id`)
}

// ExpiredJobs lists the jobs still marked running whose lease ran out before now: their
// worker is gone, and nothing claims them until a worker takes the lease over.
func (db *DB) ExpiredJobs(ctx context.Context, now time.Time) ([]Job, error) {
	rows, err := db.Read().Query(ctx, `SELECT `+jobColumns+` FROM jobs
		WHERE state = 'running' AND lease_expires_at < ? ORDER BY created_at, id`, Micros(now))
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
	return out, mapErr(rows.Err())
}

// PendingJobKinds counts the queued and running jobs of each kind.
func (db *DB) PendingJobKinds(ctx context.Context) (map[string]int, error) {
	rows, err := db.Read().Query(ctx, `SELECT kind, COUNT(*) FROM jobs WHERE state IN ('queued', 'running') GROUP BY kind`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var k string
		var n int
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, mapErr(rows.Err())
}

// RequeueExpiredJob makes a running job whose lease ran out before now claimable at once,
// keeping its attempts; ok is false when it is no longer such a job (a worker took it over
// or finished it meanwhile).
func (db *DB) RequeueExpiredJob(ctx context.Context, now time.Time, id string) (ok bool, err error) {
	err = db.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL, run_at = ?
			WHERE id = ? AND state = 'running' AND lease_expires_at < ?`, Micros(now), id, Micros(now))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

// ErrNotSQLite is returned by what only SQLite does.
var ErrNotSQLite = errors.New("store: only a SQLite database can be copied this way; back PostgreSQL up with pg_dump")

// CopySQLite writes a consistent copy of a SQLite database to path (which must not exist),
// while other connections and processes go on reading and writing: VACUUM INTO reads one
// snapshot of the database in a read transaction, which in WAL mode blocks no writer, and
// writes a compact, self-contained file (no WAL beside it).
func (db *DB) CopySQLite(ctx context.Context, path string) error {
	if db.Engine != SQLite {
		return ErrNotSQLite
	}
	_, err := db.writer.ExecContext(ctx, `VACUUM INTO ?`, path)
	return mapErr(err)
}
