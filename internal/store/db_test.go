package store

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
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

// rebind numbers the placeholders outside quoted text, answers a text it rewrote before from
// what it kept, and keeps no more than maxRebound texts.
func TestRebindKeepsBoundedAnswers(t *testing.T) {
	db := &DB{Engine: Postgres}
	q := `SELECT '?', "a?" FROM t WHERE a = ? AND b IN (?, ?) AND c = 'it''s ?'`
	want := `SELECT '?', "a?" FROM t WHERE a = $1 AND b IN ($2, $3) AND c = 'it''s ?'`
	if got := db.rebind(q); got != want {
		t.Fatalf("rebind:\n got %s\nwant %s", got, want)
	}
	if got := db.rebind(q); got != want {
		t.Fatalf("rebind from what it kept:\n got %s\nwant %s", got, want)
	}
	if n := db.reboundN.Load(); n != 1 {
		t.Fatalf("%d texts kept after rewriting one twice, want 1", n)
	}
	if got := db.rebind("SELECT 1"); got != "SELECT 1" || db.reboundN.Load() != 1 {
		t.Fatalf("a text without placeholders: %q, %d kept", got, db.reboundN.Load())
	}
	for i := range maxRebound + 10 {
		q := "SELECT ? FROM t" + strings.Repeat(" ", i)
		if got := db.rebind(q); got != "SELECT $1 FROM t"+strings.Repeat(" ", i) {
			t.Fatalf("text %d: %q", i, got)
		}
	}
	if n := db.reboundN.Load(); n != maxRebound {
		t.Fatalf("%d texts kept, want the bound %d", n, maxRebound)
	}
	if got := (&DB{Engine: SQLite}).rebind(q); got != q {
		t.Fatalf("SQLite's text was rewritten: %s", got)
	}
}
