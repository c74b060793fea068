package store_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"
	"time"

	"docsd/internal/store"
)

type testKind string

type testLevel int16

// Reads inside a write (on PostgreSQL, pgx's rows: pgscan.go) scan columns into named string
// and integer types as into plain ones, NULL into the sql.Null types, and refuse NULL in a
// plain destination and an integer too large for its type, on both engines.
func TestWriteReadsScanIntoNamedTypes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	err := db.Write(ctx, time.Now(), func(q *store.Q) error {
		var (
			kind   testKind
			level  testLevel
			n      int
			plain  string
			absent sql.NullString
			flag   bool
		)
		if err := q.QueryRow(ctx, `SELECT 'private', 7, 42, 'plain', NULL, 1 = 1`).Scan(&kind, &level, &n, &plain, &absent, &flag); err != nil {
			t.Errorf("scan: %v", err)
		} else if kind != "private" || level != 7 || n != 42 || plain != "plain" || absent.Valid || !flag {
			t.Errorf("scanned %q %d %d %q %v %v", kind, level, n, plain, absent, flag)
		}
		rows, err := q.Query(ctx, `SELECT 'a', 1 UNION ALL SELECT 'b', 2 ORDER BY 1`)
		if err != nil {
			return err
		}
		var got []string
		for rows.Next() {
			if err := rows.Scan(&kind, &level); err != nil {
				rows.Close()
				return err
			}
			got = append(got, string(kind)+strings.Repeat("+", int(level)))
		}
		if err := rows.Close(); err != nil {
			return err
		}
		if strings.Join(got, " ") != "a+ b++" {
			t.Errorf("rows scanned %q", got)
		}
		if err := q.QueryRow(ctx, `SELECT NULL`).Scan(&kind); err == nil {
			t.Errorf("NULL scanned into a named string: %q", kind)
		}
		if err := q.QueryRow(ctx, `SELECT 40000`).Scan(&level); err == nil {
			t.Errorf("40000 scanned into an int16 type: %d", level)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
