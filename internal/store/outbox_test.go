package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"docsd/internal/store"
)

// Events become visible in the order of their numbers: a reader that tails the outbox while
// many transactions write events at once never sees an event before one numbered lower that
// later appears (a consumer's cursor would have skipped it for good). Numbers handed out by
// a sequence, in the order transactions ask for them rather than commit, fail this on
// PostgreSQL.
func TestOutboxEventsAppearInNumberOrder(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	const writers, writes = 8, 25
	var done, stop atomic.Bool
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range writes {
				if stop.Load() {
					return
				}
				err := db.Write(ctx, time.Now(), func(q *store.Q) error {
					for range 1 + rand.IntN(3) {
						if err := q.Emit("test.event", "", fmt.Sprintf("w%d", w), fmt.Sprint(i), nil); err != nil {
							return err
						}
					}
					// Hold the transaction open a little, so that commits interleave.
					time.Sleep(time.Duration(rand.IntN(2000)) * time.Microsecond)
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); done.Store(true) }()

	var cursor int64
	reads := 0
	for deadline := time.Now().Add(time.Minute); ; reads++ {
		finished := done.Load()
		rows, err := db.Read().Query(ctx, `SELECT seq FROM outbox_events WHERE seq > ? ORDER BY seq`, cursor)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var seq int64
			if err := rows.Scan(&seq); err != nil {
				t.Fatal(err)
			}
			if seq != cursor+1 {
				rows.Close()
				stop.Store(true)
				wg.Wait() // before the database goes with the test
				t.Fatalf("read %d: saw event %d while %d was not visible", reads, seq, cursor+1)
			}
			cursor = seq
		}
		rows.Close()
		if finished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("writers did not finish within a minute")
		}
	}
	var last int64
	if err := db.Read().QueryRow(ctx, `SELECT seq FROM outbox_state WHERE id = 1`).Scan(&last); err != nil {
		t.Fatal(err)
	}
	if cursor != last || cursor < writers*writes {
		t.Errorf("read up to %d of %d events (at least %d written)", cursor, last, writers*writes)
	}
}
