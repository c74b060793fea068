package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3/lock"
)

// migrationLockID is the advisory lock key processes hold while migrating (goose's own).
const migrationLockID int64 = lock.DefaultLockID

// blockingLocker serializes migrations across processes with a session advisory lock that
// waits for its holder, rather than goose's default of retrying every five seconds: several
// processes (or parallel tests) starting at once then migrate one after another without
// sleeping.
type blockingLocker struct{}

func newPostgresLocker() (lock.SessionLocker, error) { return blockingLocker{}, nil }

func (blockingLocker) SessionLock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, migrationLockID); err != nil {
		return fmt.Errorf("take the migration lock: %w", err)
	}
	return nil
}

func (blockingLocker) SessionUnlock(ctx context.Context, conn *sql.Conn) error {
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_unlock($1)`, migrationLockID); err != nil {
		return fmt.Errorf("release the migration lock: %w", err)
	}
	return nil
}
