package store

import (
	"context"
	"hash/fnv"

	"github.com/pressly/goose/v3/lock"
)

// newPostgresLocker returns the advisory lock that serializes migrations. Its id is derived
// from the schema the connection works in: processes of one deployment share a schema and
// wait for each other, while deployments (or tests) in other schemas of the same cluster do
// not block one another.
func (db *DB) newPostgresLocker(ctx context.Context) (lock.SessionLocker, error) {
	var schema string
	if err := db.writer.QueryRowContext(ctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return nil, err
	}
	h := fnv.New64a()
	h.Write([]byte("docsd-migrations:" + schema))
	return lock.NewPostgresSessionLocker(
		lock.WithLockID(int64(h.Sum64()>>1)),
		lock.WithLockTimeout(1, 300),
	)
}
