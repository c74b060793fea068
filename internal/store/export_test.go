package store

import (
	"time"

	"github.com/jackc/pgx/v5/stdlib"
)

// GenerationWaits is how many generation checks waited to batch requests.
func (db *DB) GenerationWaits() uint64 {
	db.gens.mu.Lock()
	defer db.gens.mu.Unlock()
	return db.gens.waits
}

// GroupCommits is how many groups of writes have committed (groupcommit.go).
func (db *DB) GroupCommits() uint64 { return db.group.commits.Load() }

// WritesWaiting is how many writes wait for the writer.
func (db *DB) WritesWaiting() int32 { return db.group.waiting.Load() }

// GenerationPragmas is how many generation checks asked SQLite (PRAGMA data_version) rather
// than finding the wal-index header unchanged.
func (db *DB) GenerationPragmas() uint64 { return db.gens.pragmas.Load() }

// SharedMemoryDescriptors is how many descriptors of -shm files the process keeps open.
func SharedMemoryDescriptors() int { return shmDescriptors() }

// GenerationBackend is the process id of the PostgreSQL backend serving generation checks,
// 0 when no check has opened its connection.
func (db *DB) GenerationBackend() uint32 {
	g := db.gens
	g.mu.Lock()
	defer g.mu.Unlock()
	var pid uint32
	if g.conn != nil {
		g.conn.Raw(func(dc any) error {
			pid = dc.(*stdlib.Conn).Conn().PgConn().PID()
			return nil
		})
	}
	return pid
}

// SetMaxGroupAge sets how long a group of writes stays open to writes that queue, for a test
// that needs its writes in one group on a slow machine. Call it before the first write.
func (db *DB) SetMaxGroupAge(d time.Duration) { db.group.maxAge = d }

// SetCheckInterval sets how long a batched generation check waits after the last one, for a
// test that tells a check started early from one that waited. Call it before the first check.
func (db *DB) SetCheckInterval(d time.Duration) { db.gens.interval = d }

// SetCheckTimeout sets the bound of one generation check, for a test that blocks one. Call
// it before the first check.
func (db *DB) SetCheckTimeout(d time.Duration) { db.gens.timeout = d }

// HoldLeaseFor is HoldLease with a lease of the given length, renewal interval and margin,
// for tests that wait for one to run out.
func (db *DB) HoldLeaseFor(duration, renewEvery, margin time.Duration) {
	db.holdLease(duration, renewEvery, margin)
}

// LeaseTrusted reports whether reads answer from the lease now.
func (db *DB) LeaseTrusted() bool {
	l := db.lease.Load()
	if l == nil {
		return false
	}
	_, ok := l.generation()
	return ok
}

// LeaseListener is the backend process of the lease's listening connection (0 before it has
// one), and LeaseID the lease's row.
func (db *DB) LeaseListener() uint32 { return db.lease.Load().pid.Load() }
func (db *DB) LeaseID() string       { return db.lease.Load().id }

// InstanceAwaits is how many commits asked after the instances holding leases.
func (db *DB) InstanceAwaits() uint64 { return db.instances.awaited.Load() }

// InstanceWaitsGivenUp is how many writes stopped waiting for the instances at maxAckWait.
func (db *DB) InstanceWaitsGivenUp() uint64 { return db.instances.gaveUp.Load() }

// GenerationRoundTrips is how many generation checks asked PostgreSQL.
func (db *DB) GenerationRoundTrips() uint64 { return db.gens.roundTrips.Load() }

// TrustedGeneration tells a generation given by a lease from one the database gave.
func TrustedGeneration(gen uint64) bool { return gen&trustedBit != 0 }
