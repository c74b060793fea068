package store_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/store"
)

// Concurrent writes share commits, on both engines, and each still stands alone: a write that fails,
// or panics, or whose context is cancelled while it waits, leaves nothing behind, while the
// writes grouped with it commit, with their events numbered in order and without gaps.
func TestGroupCommitKeepsEachWriteAlone(t *testing.T) {
	// Events are written with their data as given, whatever it holds (PostgreSQL's last
	// statement has its arguments written into its text).
	const eventText = `it's a \\ "quoted" $1 ? ; COMMIT; -- ünïcode 🙂`
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	const writers, writes = 16, 12
	errFailed := errors.New("this write fails")
	var wg sync.WaitGroup
	var mu sync.Mutex
	committed := map[string]bool{}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range writes {
				name := fmt.Sprintf("w%d-%d", w, i)
				kind := i % 4 // 0: fails after writing, 1: panics after writing, 2 and 3: commit
				err := func() (err error) {
					defer func() {
						if p := recover(); p != nil {
							err = fmt.Errorf("panicked: %v", p)
						}
					}()
					return db.Write(ctx, time.Now(), func(q *store.Q) error {
						if _, err := q.Exec(ctx, `INSERT INTO outbox_cursors (consumer) VALUES (?)`, name); err != nil {
							return err
						}
						if err := q.Emit("test.event", "", "", name, map[string]string{"text": eventText}); err != nil {
							return err
						}
						time.Sleep(200 * time.Microsecond) // let writers queue behind this one
						switch kind {
						case 0:
							return errFailed
						case 1:
							panic("write " + name)
						}
						return nil
					})
				}()
				switch {
				case kind == 0 && !errors.Is(err, errFailed), kind == 1 && err == nil, kind > 1 && err != nil:
					t.Errorf("write %s (kind %d): %v", name, kind, err)
				case kind > 1:
					mu.Lock()
					committed[name] = true
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()

	rows, err := db.Read().Query(ctx, `SELECT consumer FROM outbox_cursors`)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			t.Fatal(err)
		}
		if !committed[name] {
			t.Errorf("row %s of a failed write was committed", name)
		}
		found++
	}
	rows.Close()
	if found != len(committed) {
		t.Errorf("%d rows committed, want the %d of the successful writes", found, len(committed))
	}
	rows, err = db.Read().Query(ctx, `SELECT seq, subject, data FROM outbox_events ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var seq int64
	for rows.Next() {
		var n int64
		var subject, data string
		if err := rows.Scan(&n, &subject, &data); err != nil {
			t.Fatal(err)
		}
		var got struct{ Text string }
		if err := json.Unmarshal([]byte(data), &got); err != nil || got.Text != eventText {
			t.Errorf("event %d's data: %s (%v), want text %q", n, data, err, eventText)
		}
		if seq++; n != seq || !committed[subject] {
			t.Errorf("event %d (%s): want number %d, of a committed write", n, subject, seq)
		}
	}
	rows.Close()
	if int(seq) != len(committed) {
		t.Errorf("%d events, want one per committed write (%d)", seq, len(committed))
	}
	if c := db.GroupCommits(); c >= uint64(len(committed)) {
		t.Errorf("%d commits for %d concurrent successful writes: none were grouped", c, len(committed))
	} else {
		t.Logf("%d successful writes in %d commits", len(committed), c)
	}

	// A write whose context ends while it waits for the writer does nothing.
	cctx, cancel := context.WithCancel(ctx)
	release := make(chan struct{})
	started := make(chan struct{})
	go db.Write(ctx, time.Now(), func(q *store.Q) error { close(started); <-release; return nil })
	<-started
	errc := make(chan error, 1)
	go func() {
		errc <- db.Write(cctx, time.Now(), func(q *store.Q) error {
			_, err := q.Exec(ctx, `INSERT INTO outbox_cursors (consumer) VALUES ('cancelled')`)
			return err
		})
	}()
	for db.WritesWaiting() == 0 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	close(release)
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Errorf("a write cancelled while waiting: %v, want context.Canceled", err)
	}
	var n int
	if err := db.Read().QueryRow(ctx, `SELECT COUNT(*) FROM outbox_cursors WHERE consumer = 'cancelled'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("the cancelled write left %d rows (%v)", n, err)
	}
}

// Groups of writes in two processes sharing the database do not deadlock: each holds the
// rows its writes changed until it commits, so two groups of unrelated writes taking rows in
// opposite orders would wait for each other (on PostgreSQL the server would then fail one of
// the writes), were the groups not run one at a time.
func TestGroupCommitAcrossProcessesDoesNotDeadlock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	url := apitest.DatabaseURL(t)
	dbs := [2]*store.DB{migratedAt(t, url), migratedAt(t, url)}
	bump := func(q *store.Q, row string) error {
		_, err := q.Exec(ctx, `UPDATE outbox_cursors SET failures = failures + 1 WHERE consumer = ?`, row)
		return err
	}
	if err := dbs[0].Write(ctx, time.Now(), func(q *store.Q) error {
		_, err := q.Exec(ctx, `INSERT INTO outbox_cursors (consumer) VALUES ('a'), ('b')`)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// Each process changes one row, and while it holds it queues a write of the other row,
	// which joins its group; each waits (a while) for the other to hold its first row.
	holding := [2]chan struct{}{make(chan struct{}), make(chan struct{})}
	rows := [2][2]string{{"a", "b"}, {"b", "a"}}
	errs := make(chan error, 4)
	var wg sync.WaitGroup
	for i, db := range dbs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- db.Write(ctx, time.Now(), func(q *store.Q) error {
				if err := bump(q, rows[i][0]); err != nil {
					return err
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					errs <- db.Write(ctx, time.Now(), func(q *store.Q) error { return bump(q, rows[i][1]) })
				}()
				for db.WritesWaiting() == 0 {
					time.Sleep(time.Millisecond)
				}
				close(holding[i])
				select {
				case <-holding[1-i]:
				case <-time.After(500 * time.Millisecond):
				}
				return nil
			})
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("a write failed: %v", err)
		}
	}
	for _, row := range []string{"a", "b"} {
		var n int
		if err := dbs[1].Read().QueryRow(ctx, `SELECT failures FROM outbox_cursors WHERE consumer = ?`, row).Scan(&n); err != nil || n != 2 {
			t.Errorf("row %s changed %d times (%v), want 2", row, n, err)
		}
	}
}

// Statements a write defers (Q.ExecLater) run before its next statement, in the same round
// trip on PostgreSQL, as do its savepoint and the reads it queued (Q.QueryLater); what it
// deferred last goes with the next write's first statement. A deferred statement that fails
// fails its own write only, even when the write goes on as if nothing happened, or has
// ended: its rows and events are undone, while the writes grouped with it commit.
func TestGroupCommitDefersStatementsToTheNextRoundTrip(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	insert := `INSERT INTO outbox_cursors (consumer) VALUES (?)`
	count := func(q *store.Q, like string) int {
		var n int
		if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM outbox_cursors WHERE consumer LIKE ?`, like).Scan(&n); err != nil {
			t.Errorf("count %s: %v", like, err)
		}
		return n
	}
	emit := func(q *store.Q, name string) error { return q.Emit("test.event", "", "", name, nil) }
	db.SetMaxGroupAge(time.Minute) // one group, however slow the machine

	// The first write holds the writer until the others queue behind it: they join its group.
	release := make(chan struct{})
	started := make(chan struct{})
	commits := db.GroupCommits()
	writes := []func(q *store.Q) error{
		func(q *store.Q) error { // a
			close(started)
			<-release
			_, err := q.Exec(ctx, insert, "a")
			return err
		},
		func(q *store.Q) error { // b: its savepoint, a queued read and two deferred inserts
			before := db.WriteRoundTrips()
			var early int
			if err := q.QueryLater(ctx, `SELECT COUNT(*) FROM outbox_cursors WHERE consumer = ?`, []any{"a"}, func(rows *store.Rows) error {
				for rows.Next() {
					if err := rows.Scan(&early); err != nil {
						return err
					}
				}
				return rows.Err()
			}); err != nil {
				return err
			}
			if n := count(q, "a"); n != 1 || early != 1 {
				t.Errorf("b sees %d rows of a, and %d by its queued read, want 1 and 1", n, early)
			}
			q.ExecLater(ctx, insert, "b1")
			q.ExecLater(ctx, insert, "b2")
			if n := count(q, "b%"); n != 2 {
				t.Errorf("b sees %d of its deferred rows, want 2", n)
			}
			if trips := db.WriteRoundTrips() - before; db.Engine == store.Postgres && trips != 2 {
				t.Errorf("b made %d round trips, want 2: its savepoint, queued read and deferred inserts ride with its queries", trips)
			}
			return emit(q, "b")
		},
		func(q *store.Q) error { // c: a deferred insert that fails, whose error it ignores
			q.ExecLater(ctx, insert, "a")
			q.Exec(ctx, insert, "c")
			return emit(q, "c")
		},
		func(q *store.Q) error { // d: left for the next write to send
			q.ExecLater(ctx, insert, "d")
			return emit(q, "d")
		},
		func(q *store.Q) error { // e: left for the next write, and failing there
			q.ExecLater(ctx, insert, "e")
			q.ExecLater(ctx, insert, "b1")
			return emit(q, "e")
		},
		func(q *store.Q) error { // f: sends what d and e left
			before := db.WriteRoundTrips()
			if n := count(q, "d"); n != 1 {
				t.Errorf("f sees %d rows of d, want 1", n)
			}
			if n := count(q, "e"); n != 0 {
				t.Errorf("f sees %d rows of e, want 0: e failed", n)
			}
			if trips := db.WriteRoundTrips() - before; db.Engine == store.Postgres && trips != 4 {
				t.Errorf("f made %d round trips, want 4 (a statement, e's undoing, the statement again, another)", trips)
			}
			return emit(q, "f")
		},
		func(q *store.Q) error { // g: the last, whose deferred insert goes with the commit and fails
			q.ExecLater(ctx, insert, "g")
			q.ExecLater(ctx, insert, "a")
			return emit(q, "g")
		},
	}
	errs := make([]chan error, len(writes))
	for i, fn := range writes {
		errs[i] = make(chan error, 1)
		go func() { errs[i] <- db.Write(ctx, time.Now(), fn) }()
		if i == 0 {
			<-started
			continue
		}
		for db.WritesWaiting() != int32(i) {
			time.Sleep(time.Millisecond)
		}
	}
	close(release)
	ok := map[rune]bool{'a': true, 'b': true, 'd': true, 'f': true}
	for i := range writes {
		name := 'a' + rune(i)
		err := <-errs[i]
		if (err == nil) != ok[name] {
			t.Errorf("write %c: %v, want success %v", name, err, ok[name])
		}
		if err != nil && errors.Is(err, store.ErrUniqueViolation) {
			t.Errorf("write %c: %v: a deferred statement's failure is not its caller's own", name, err)
		}
	}
	if c := db.GroupCommits() - commits; c != 1 {
		t.Errorf("%d commits, want the successful writes in one", c)
	}
	if got := texts(t, db, `SELECT consumer FROM outbox_cursors ORDER BY consumer`); fmt.Sprint(got) != "[a b1 b2 d]" {
		t.Errorf("committed rows %v, want those of a, b and d", got)
	}
	events := texts(t, db, `SELECT subject FROM outbox_events ORDER BY seq`)
	if fmt.Sprint(events) != "[b d f]" {
		t.Errorf("events %v, want those of b, d and f, in order", events)
	}
}

// migratedDB opens the test's database, migrated, closed when the test ends.
func migratedDB(t *testing.T) *store.DB {
	t.Helper()
	return migratedAt(t, apitest.DatabaseURL(t))
}

// postgresTestDatabase is a PostgreSQL database of the test's own, for a test of what
// PostgreSQL alone does, which runs in parallel; the test is skipped without one.
func postgresTestDatabase(t *testing.T) string {
	t.Helper()
	if apitest.PostgresURL() == "" {
		t.Skip("DOCSD_TEST_POSTGRES is not set")
	}
	t.Parallel()
	return apitest.DatabaseURL(t)
}

// migratedAt opens the database at url, migrated, closed when the test ends: called again
// with the same url, another handle on it, as another instance of a fleet has.
func migratedAt(t *testing.T, url string) *store.DB {
	t.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	return db
}

// texts runs a query of one text column and returns its values.
func texts(t *testing.T, db *store.DB, query string) []string {
	t.Helper()
	rows, err := db.Read().Query(context.Background(), query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
