package store

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"

	"github.com/pressly/goose/v3/lock"
)

// schemaLocker serializes migrations with a session advisory lock that waits for its holder,
// rather than goose's default of retrying every five seconds, so processes starting at once
// migrate one after another without sleeping. The lock id is derived from the schema the
// connection works in: processes of one deployment share a schema and wait for each other,
// while deployments (or parallel tests) in other schemas of the same cluster never block.
type schemaLocker struct{ id int64 }

func (db *DB) newPostgresLocker(ctx context.Context) (lock.SessionLocker, error) {
	var schema string
	if err := db.writer.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, fmt.Errorf("read the current schema: %w", err)
	}
	h := fnv.New64a()
	h.Write([]byte("docsd-migrations:" + schema))
	return schemaLocker{id: int64(h.Sum64() >> 1)}, nil
}

func (l schemaLocker) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, l.id); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	return nil
}

func (l schemaLocker) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, l.id); err != nil {
		return fmt.Errorf("release the migration lock: %w", err)
	}
	return nil
}
