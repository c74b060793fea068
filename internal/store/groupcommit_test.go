package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// Concurrent writes on SQLite share commits, and each still stands alone: a write that fails,
// or panics, or whose context is cancelled while it waits, leaves nothing behind, while the
// writes grouped with it commit, with their events numbered in order and without gaps.
func TestSQLiteGroupCommitKeepsEachWriteAlone(t *testing.T) {
	t.Parallel()
	db := openSQLite(t)
	ctx := context.Background()
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
					return db.Write(ctx, time.Now(), func(q *Q) error {
						if _, err := q.Exec(ctx, `INSERT INTO outbox_cursors (consumer) VALUES (?)`, name); err != nil {
							return err
						}
						if err := q.Emit("test.event", "", "", name, nil); err != nil {
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
	rows, err = db.Read().Query(ctx, `SELECT seq, subject FROM outbox_events ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var seq int64
	for rows.Next() {
		var n int64
		var subject string
		if err := rows.Scan(&n, &subject); err != nil {
			t.Fatal(err)
		}
		if seq++; n != seq || !committed[subject] {
			t.Errorf("event %d (%s): want number %d, of a committed write", n, subject, seq)
		}
	}
	rows.Close()
	if int(seq) != len(committed) {
		t.Errorf("%d events, want one per committed write (%d)", seq, len(committed))
	}
	if c := db.group.commits.Load(); c >= uint64(len(committed)) {
		t.Errorf("%d commits for %d concurrent successful writes: none were grouped", c, len(committed))
	} else {
		t.Logf("%d successful writes in %d commits", len(committed), c)
	}

	// A write whose context ends while it waits for the writer does nothing.
	cctx, cancel := context.WithCancel(ctx)
	release := make(chan struct{})
	started := make(chan struct{})
	go db.Write(ctx, time.Now(), func(q *Q) error { close(started); <-release; return nil })
	<-started
	errc := make(chan error, 1)
	go func() {
		errc <- db.Write(cctx, time.Now(), func(q *Q) error {
			_, err := q.Exec(ctx, `INSERT INTO outbox_cursors (consumer) VALUES ('cancelled')`)
			return err
		})
	}()
	for db.group.waiting.Load() == 0 {
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
