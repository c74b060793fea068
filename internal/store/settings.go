package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Setting returns a server-wide setting, creating it with make() the first time. Every
// process of a fleet sharing the database reads the same value (the cursor-signing key, for
// example), so whichever creates it first wins and the others adopt it.
func (db *DB) Setting(ctx context.Context, name string, make func() string) (string, error) {
	var v string
	err := db.Read().QueryRow(ctx, `SELECT value FROM server_settings WHERE name = ?`, name).Scan(&v)
	if err == nil {
		return v, nil
	}
	if !errors.Is(err, ErrNotFound) {
		return "", fmt.Errorf("read setting %s: %w", name, err)
	}
	err = db.Write(ctx, time.Now().UTC(), func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO server_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING`, name, make())
		if err != nil {
			return err
		}
		return q.QueryRow(ctx, `SELECT value FROM server_settings WHERE name = ?`, name).Scan(&v)
	})
	if err != nil {
		return "", fmt.Errorf("create setting %s: %w", name, err)
	}
	return v, nil
}

// ClaimFirstStart reports whether this is the first start against an empty database, and
// if so records that it happened, so that exactly one caller ever gets true.
func (db *DB) ClaimFirstStart(ctx context.Context, now time.Time) (bool, error) {
	first := false
	err := db.Write(ctx, now, func(q *Q) error {
		var users int
		if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&users); err != nil {
			return err
		}
		res, err := q.Exec(ctx, `INSERT INTO server_settings (name, value) VALUES ('first_start', ?) ON CONFLICT (name) DO NOTHING`,
			now.UTC().Format(time.RFC3339))
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		first = err == nil && n == 1 && users == 0
		return err
	})
	return first, err
}
