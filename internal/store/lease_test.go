package store_test

import (
	"context"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"docsd/internal/store"
)

// Leases shorter than the server's, so that a test waiting for one to run out is quick; the
// protocol is the same.
const (
	testLease      = 800 * time.Millisecond
	testLeaseRenew = 100 * time.Millisecond
	testLeaseSlack = 200 * time.Millisecond
)

// leased opens a migrated database at url whose process holds a lease, once it holds.
func leased(t *testing.T, url string) *store.DB {
	t.Helper()
	db := migratedAt(t, url)
	db.HoldLeaseFor(testLease, testLeaseRenew, testLeaseSlack)
	waitTrusted(t, db)
	return db
}

// waitTrusted waits until db's reads answer from its lease.
func waitTrusted(t *testing.T, db *store.DB) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !db.LeaseTrusted(); {
		if time.Now().After(deadline) {
			t.Fatal("the lease did not start holding within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// generation is db's generation for a request arriving now.
func generation(t *testing.T, db *store.DB) uint64 {
	t.Helper()
	g, err := db.Generation(context.Background(), time.Now(), 1)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// touch commits a write that changes nothing but the generation.
func touch(t *testing.T, db *store.DB) {
	t.Helper()
	err := db.Write(context.Background(), time.Now(), func(q *store.Q) error {
		_, err := q.Exec(context.Background(), `UPDATE outbox_state SET seq = seq WHERE id = 1`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// An instance holding a lease answers whether the database changed without asking it, and
// yet a write acknowledged on any process, of an instance or not, is seen by every instance
// the moment it returns. Closing gives the lease's row up.
func TestLeaseAnswersWithoutAskingAndSeesEveryWrite(t *testing.T) {
	url := postgresTestDatabase(t)
	a, b := leased(t, url), leased(t, url)

	asked := a.GenerationRoundTrips()
	for range 200 {
		if g := generation(t, a); !store.TrustedGeneration(g) {
			t.Fatalf("generation %#x did not come from the lease", g)
		}
	}
	if n := a.GenerationRoundTrips() - asked; n != 0 {
		t.Fatalf("reads under a lease asked the database %d times", n)
	}

	for i := range 60 {
		w, r, wn, rn := a, b, "a", "b"
		if i%2 == 1 {
			w, r, wn, rn = b, a, "b", "a"
		}
		gw, gr := generation(t, w), generation(t, r)
		touch(t, w)
		if generation(t, r) == gr {
			t.Fatalf("write %d, acknowledged on %s, is not seen on %s", i, wn, rn)
		}
		if generation(t, w) == gw {
			t.Fatalf("write %d is not seen on %s, which made it", i, wn)
		}
	}

	// A process without a lease (an admin command) writes by the same rule.
	admin := migratedAt(t, url)
	for i := range 10 {
		ga, gb := generation(t, a), generation(t, b)
		touch(t, admin)
		if generation(t, a) == ga || generation(t, b) == gb {
			t.Fatalf("write %d of a process without a lease is not seen on every instance", i)
		}
	}
	for _, db := range []*store.DB{a, b, admin} {
		if n := db.InstanceWaitsGivenUp(); n != 0 {
			t.Fatalf("%d writes stopped waiting for the instances", n)
		}
	}

	id := a.LeaseID()
	a.Close()
	var rows int
	if err := b.Read().QueryRow(context.Background(), `SELECT count(*) FROM instance_leases WHERE id = ?`, id).Scan(&rows); err != nil {
		t.Fatal(err)
	}
	if rows != 0 {
		t.Fatal("a closed instance kept its lease's row")
	}
}

// A write waits for an instance that stopped answering (it died with its row in place) until
// its lease has run out by the database's clock, and no longer.
func TestLeaseOfAStoppedInstanceHoldsWritesUntilItRunsOut(t *testing.T) {
	ctx := context.Background()
	url := postgresTestDatabase(t)
	a := leased(t, url)
	touch(t, a) // the process has seen it is alone

	// What a registration writes, for an instance that will never acknowledge anything.
	err := a.Write(ctx, time.Now(), func(q *store.Q) error {
		if _, err := q.Exec(ctx, `UPDATE outbox_generation SET members = members + 1`); err != nil {
			return err
		}
		_, err := q.Exec(ctx, `INSERT INTO instance_leases (id, expires_at, seen)
			VALUES ('stopped', clock_timestamp() + interval '1 second', 0)`)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	touch(t, a)
	var expired bool
	if err := a.Read().QueryRow(ctx, `SELECT expires_at <= clock_timestamp() FROM instance_leases WHERE id = 'stopped'`).Scan(&expired); err != nil {
		t.Fatal(err)
	}
	if !expired {
		t.Fatal("a write returned while an instance that had not taken it in still held its lease")
	}
	if n := a.InstanceWaitsGivenUp(); n != 0 {
		t.Fatalf("%d writes stopped waiting at the bound instead of at the lease's end", n)
	}
	if !a.LeaseTrusted() {
		waitTrusted(t, a)
	}
}

// An instance whose listening connection is cut stops trusting its lease and gives its row
// up, so writes elsewhere go on, and holds a new lease once it listens again: no write
// acknowledged meanwhile is missed.
func TestLeaseLapsesWithItsListeningConnection(t *testing.T) {
	ctx := context.Background()
	url := postgresTestDatabase(t)
	a, b := leased(t, url), leased(t, url)
	first := a.LeaseListener()
	writesSeen(t, b, a, 10)
	var ok bool
	if err := b.Read().QueryRow(ctx, `SELECT pg_terminate_backend(CAST(? AS INTEGER))`, int64(first)).Scan(&ok); err != nil || !ok {
		t.Fatalf("terminate the listening backend: %v %v", ok, err)
	}
	writesSeen(t, b, a, 30)
	heldAgain(t, a, first)
	writesSeen(t, b, a, 1)
	if n := b.InstanceWaitsGivenUp(); n != 0 {
		t.Fatalf("%d writes stopped waiting for the instances", n)
	}
}

// writesSeen makes n writes on w, each seen on r the moment it returns.
func writesSeen(t *testing.T, w, r *store.DB, n int) {
	t.Helper()
	for i := range n {
		before := generation(t, r)
		touch(t, w)
		if generation(t, r) == before {
			t.Fatalf("write %d is not seen on the other instance", i)
		}
	}
}

// heldAgain waits until db's lease holds on a listening connection other than the backend old.
func heldAgain(t *testing.T, db *store.DB, old uint32) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); db.LeaseListener() == old || !db.LeaseTrusted(); {
		if time.Now().After(deadline) {
			t.Fatal("the lease did not hold again on a new connection within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// An instance whose listening connection goes silent, open but no longer hearing anything
// (here its backend is stopped with SIGSTOP), notices from its own pings, which renewals send
// and it no longer hears: it gives its lease up, so writes elsewhere do not wait for it to
// run out, asks the database meanwhile, and holds a new lease on a new connection.
func TestLeaseLapsesWhenItsListeningConnectionGoesSilent(t *testing.T) {
	url := postgresTestDatabase(t)
	a, b := leased(t, url), leased(t, url)
	pid := int(a.LeaseListener())
	comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	if err != nil || !strings.HasPrefix(string(comm), "postgres") {
		t.Skipf("backend %d is not a process of this machine (%v): it cannot be stopped", pid, err)
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Skipf("cannot stop PostgreSQL's backend %d: %v", pid, err)
	}
	// Resumed whatever happens, even should it have been stopped holding a lock that others
	// need: by then the instance has closed its end, and the backend exits.
	resume := time.AfterFunc(3*time.Second, func() { syscall.Kill(pid, syscall.SIGCONT) })
	defer func() {
		resume.Stop()
		syscall.Kill(pid, syscall.SIGCONT)
	}()
	writesSeen(t, b, a, 20)
	heldAgain(t, a, uint32(pid))
	if n := b.InstanceWaitsGivenUp(); n != 0 {
		t.Fatalf("%d writes stopped waiting for the instances", n)
	}
}

// A write alone on its database asks after no instance: its commit's statement tells it that
// none registered since it last looked. It looks again once another registers, and keeps
// looking while that one is there (its writes must wait for it), until it has gone.
func TestLeaseWriteAloneAsksAfterNoInstance(t *testing.T) {
	url := postgresTestDatabase(t)
	a := leased(t, url)
	touch(t, a) // the first write learns who is there
	asked := a.InstanceAwaits()
	for range 20 {
		touch(t, a)
	}
	if n := a.InstanceAwaits() - asked; n != 0 {
		t.Fatalf("20 writes alone on the database asked after the instances %d times", n)
	}

	b, err := store.Open(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	b.HoldLeaseFor(testLease, testLeaseRenew, testLeaseSlack)
	waitTrusted(t, b)
	asked = a.InstanceAwaits()
	for range 5 {
		touch(t, a)
	}
	if n := a.InstanceAwaits() - asked; n != 5 {
		t.Fatalf("with another instance holding a lease, 5 writes asked after it %d times", n)
	}
	b.Close()
	touch(t, a) // finds it gone
	asked = a.InstanceAwaits()
	for range 5 {
		touch(t, a)
	}
	if n := a.InstanceAwaits() - asked; n != 0 {
		t.Fatalf("once the other instance closed, 5 writes asked after the instances %d times", n)
	}
}
