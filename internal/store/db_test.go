package store

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func openSQLite(t *testing.T) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "docsd.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestSQLiteReadRefusesAnAlreadyCancelledContext(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var n int
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM users`).Scan(&n); !errors.Is(err, context.Canceled) {
		t.Fatalf("QueryRow with a cancelled context: %v, want context.Canceled", err)
	}
	if _, err := db.Read().Query(ctx, `SELECT id FROM users`); !errors.Is(err, context.Canceled) {
		t.Fatalf("Query with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestSQLiteReadStartedBeforeCancellationFinishes(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rows, err := db.Read().Query(ctx, `SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cancel()
	sum := 0
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		sum += v
	}
	if err := rows.Err(); err != nil || sum != 6 {
		t.Fatalf("rows after the context was cancelled: sum %d, err %v; want 6 and no error", sum, err)
	}
}
