package store_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"docsd/internal/store"
)

// writeSetting commits a value through d: a change every generation check must see.
func writeSetting(t *testing.T, d *store.DB, v string) {
	t.Helper()
	ctx := context.Background()
	err := d.Write(ctx, time.Now(), func(q *store.Q) error {
		_, err := q.Exec(ctx, `INSERT INTO server_settings (name, value) VALUES ('g', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value`, v)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestGenerationSeesEveryCommitBeforeTheRequest(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "g.db")
	db, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	other, err := store.Open(ctx, path) // another process's handle on the same file
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	write := func(d *store.DB, v string) { t.Helper(); writeSetting(t, d, v) }
	g0, err := db.Generation(ctx, time.Now(), 8)
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := db.Generation(ctx, time.Now(), 8); g != g0 {
		t.Fatalf("generation moved without a write: %d then %d", g0, g)
	}
	write(db, "local")
	g1, _ := db.Generation(ctx, time.Now(), 8)
	if g1 == g0 {
		t.Fatal("a local commit did not change the generation")
	}
	write(other, "remote")
	g2, _ := db.Generation(ctx, time.Now(), 8)
	if g2 == g1 {
		t.Fatal("another process's commit did not change the generation")
	}

	// Many concurrent requests share checks, and each still sees a commit made before it.
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				before, err := db.Generation(ctx, time.Now(), 8)
				if err != nil {
					errs <- err
					return
				}
				write(other, time.Now().String()) // a commit that changes nothing is not a change
				after, err := db.Generation(ctx, time.Now(), 8)
				if err != nil {
					errs <- err
					return
				}
				if after == before {
					errs <- errors.New("a commit before the request was not seen")
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// A call that asks for no batching never waits; the concurrent calls above batch.
func TestGenerationChecksWaitOnlyToBatch(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, filepath.Join(t.TempDir(), "docsd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 200 {
		if _, err := db.Generation(ctx, time.Now(), 1); err != nil {
			t.Fatal(err)
		}
	}
	if n := db.GenerationWaits(); n != 0 {
		t.Fatalf("%d of 200 unbatched checks waited, want none", n)
	}
}

// A check serves every request waiting on it, so the request that happened to start it going
// away must not fail it for the others: the check runs detached from that request.
func TestGenerationCheckOutlivesTheRequestThatStartedIt(t *testing.T) {
	t.Parallel()
	db, err := store.Open(context.Background(), filepath.Join(t.TempDir(), "docsd.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	gone, cancel := context.WithCancel(context.Background())
	cancel()
	g, err := db.Generation(gone, time.Now(), 1)
	if err != nil {
		t.Fatalf("a check started by a cancelled request failed: %v", err)
	}
	again, err := db.Generation(context.Background(), time.Now(), 1)
	if err != nil || again != g {
		t.Fatalf("the next check: %d, %v; want %d with no commit between", again, err, g)
	}
}

// On PostgreSQL a check reads the generation shards on a connection of its own: it sees a
// commit made before it through another handle (another instance of a fleet), and a check
// whose connection was lost fails alone, the next one opening another.
func TestGenerationOnPostgres(t *testing.T) {
	url := postgresTestDatabase(t)
	ctx := context.Background()
	db, other := migratedAt(t, url), migratedAt(t, url)
	write := func(v string) { t.Helper(); writeSetting(t, other, v) }
	g0, err := db.Generation(ctx, time.Now(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if g, err := db.Generation(ctx, time.Now(), 1); err != nil || g != g0 {
		t.Fatalf("generation %d (%v) after %d with no write", g, err, g0)
	}
	write("one")
	g1, err := db.Generation(ctx, time.Now(), 1)
	if err != nil || g1 == g0 {
		t.Fatalf("generation %d (%v) after another handle's commit, before it %d", g1, err, g0)
	}

	pid := db.GenerationBackend()
	if pid == 0 {
		t.Fatal("no connection kept for checks")
	}
	var killed bool
	if err := other.Read().QueryRow(ctx, `SELECT pg_terminate_backend(?)`, int64(pid)).Scan(&killed); err != nil || !killed {
		t.Fatalf("terminate the checks' backend %d: %v %v", pid, killed, err)
	}
	write("two")
	deadline := time.Now().Add(10 * time.Second)
	for {
		g2, err := db.Generation(ctx, time.Now(), 1)
		if err == nil {
			if g2 == g1 {
				t.Fatalf("generation %d unchanged after a commit, on a new connection", g2)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no check succeeded after the connection was lost: %v", err)
		}
	}
	if p := db.GenerationBackend(); p == 0 || p == pid {
		t.Fatalf("checks' backend %d after %d was terminated, want another", p, pid)
	}
}

// A PostgreSQL check's round trip is bounded by its connection's deadline rather than by a
// context: one that cannot read the generation (its table locked by another transaction)
// fails within twice its bound, and once the lock is gone the next check answers, on another
// connection.
func TestGenerationCheckOnPostgresIsBounded(t *testing.T) {
	url := postgresTestDatabase(t)
	ctx := context.Background()
	db := migratedAt(t, url)
	const bound = 300 * time.Millisecond
	db.SetCheckTimeout(bound)
	g0, err := db.Generation(ctx, time.Now(), 1)
	if err != nil {
		t.Fatal(err)
	}
	pid := db.GenerationBackend()

	locker, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close()
	tx, err := locker.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `LOCK TABLE outbox_generation IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	type answer struct {
		gen uint64
		err error
	}
	blocked := make(chan answer, 1)
	go func() {
		g, err := db.Generation(ctx, time.Now(), 1)
		blocked <- answer{g, err}
	}()
	select {
	case a := <-blocked:
		if a.err == nil {
			t.Fatalf("a check behind a lock answered %d", a.gen)
		}
	case <-time.After(2*bound + 3*time.Second):
		t.Fatalf("a check behind a lock still runs after %s, with a bound of %s", 2*bound+3*time.Second, bound)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	g1, err := db.Generation(ctx, time.Now(), 1)
	if err != nil || g1 != g0 {
		t.Fatalf("the check after the lock: %d, %v; want %d (no commit since)", g1, err, g0)
	}
	if p := db.GenerationBackend(); p == 0 || p == pid {
		t.Fatalf("checks' backend %d after the one that timed out (%d), want another", p, pid)
	}
}

// A batched check waits for the rest of the interval after the last one, so that requests
// arriving meanwhile share it, but no longer than until every request in flight waits on it:
// none other is coming to share it. On both engines.
func TestGenerationCheckStartsOnceEveryRequestInFlightWaits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := migratedDB(t)
	const interval = 3 * time.Second
	db.SetCheckInterval(interval)
	// concurrently asks n callers for the generation after a commit, each saying that inFlight
	// requests are in flight; it returns their one answer, once they all have it.
	concurrently := func(n int, inFlight int64) uint64 {
		t.Helper()
		writeSetting(t, db, time.Now().String())
		gens := make(chan uint64, n)
		errs := make(chan error, n)
		for range n {
			go func() {
				g, err := db.Generation(ctx, time.Now(), inFlight)
				errs <- err
				gens <- g
			}()
		}
		var first uint64
		for i := range n {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
			g := <-gens
			if i == 0 {
				first = g
			} else if g != first {
				t.Fatalf("callers of one batched check got %d and %d", first, g)
			}
		}
		return first
	}
	g0, err := db.Generation(ctx, time.Now(), 1)
	if err != nil {
		t.Fatal(err)
	}
	waits := db.GenerationWaits()

	// Six requests in flight, all waiting: their check starts at once, not 3 s after g0's.
	start := time.Now()
	g1 := concurrently(6, 6)
	if took := time.Since(start); took >= interval/2 {
		t.Fatalf("six of six requests in flight waited %v for their check, want it started at once", took)
	}
	if g1 == g0 {
		t.Fatal("the batched check missed the commit before it")
	}
	if n := db.GenerationWaits() - waits; n != 1 {
		t.Fatalf("%d checks waited to batch the six requests, want their one", n)
	}

	// One of seven still being served: the check waits out the interval for it.
	ended := time.Now()
	g2 := concurrently(6, 7)
	if took := time.Since(ended); took < interval/2 {
		t.Fatalf("a check for six of seven requests in flight started after %v, want the interval waited", took)
	}
	if g2 == g1 {
		t.Fatal("the batched check missed the commit before it")
	}
}
