package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// generations tells whether the database may have changed, so that answers computed from it
// can be reused until it does. On SQLite, `PRAGMA data_version` on a connection of its own
// changes whenever any other connection (of this process or another, such as the admin
// commands) commits. The pragma takes SQLite's shared-memory locks, a few system calls that
// were most of a cached read's overhead, so on Linux a check first reads the wal-index header
// from the mapped -shm file (walindex.go, fastCheck): while it equals the header read before
// the last pragma, nothing committed since, and that pragma's answer stands. PostgreSQL has
// no such signal, so every write transaction adds one to a row of outbox_generation before
// it commits (Q.beforeCommit), and the generation is the sum of those rows: a read that
// starts after a commit was acknowledged sees a larger sum than any read that ended before
// it, on every instance sharing the database. The read is one round trip, shared by the
// requests that wait for it (see Generation), made only while this process holds no lease
// (lease.go): with one, writes wait until every instance has taken them in, and the lease's
// counter answers.
type generations struct {
	pool     *sql.DB // SQLite: one connection, used for nothing else; PostgreSQL: the read pool
	postgres bool
	interval time.Duration // minCheckInterval, but for tests
	timeout  time.Duration // checkTimeout, but for tests

	mu        sync.Mutex
	conn      *sql.Conn   // the connection checks use, and nothing else (SQLite and PostgreSQL)
	version   driver.Stmt // PRAGMA data_version, prepared on conn's driver connection
	epoch     uint64      // bumped when the connection is replaced: its data_version restarts
	lastStart time.Time   // when the last successful check started
	lastGen   uint64
	inflight  *genCheck // the check running, if any
	pending   *genCheck // the next check, which requests join until it starts
	waits     uint64    // checks that waited to batch calls, for tests

	// PostgreSQL only: the sum's statement prepared on conn, and the deadline set on conn's
	// network connection (see sumShards), both with conn.
	pgStmt     *pgconn.StatementDescription
	pgDeadline time.Time

	// SQLite only: the wal-index mapping and what it showed before the last pragma, all
	// under mu (check, which alone changes them, reads them without it).
	shmPath  string        // the database's -shm file; empty when it has none
	shm      *walIndex     // nil until mapped, and while the connection is being replaced
	shmOff   bool          // no mapping to trust: every check runs the pragma
	held     []shmFileID   // -shm files whose descriptors this DB keeps open (releaseFiles)
	seen     walHeader     // the header read just before the last pragma
	seenOK   bool          // seen was a consistent header, read on the current connection
	seenGen  uint64        // what that pragma answered
	pragmaAt time.Time     // when that pragma's check started
	pragmas  atomic.Uint64 // pragmas run, for tests

	roundTrips atomic.Uint64 // PostgreSQL: checks that asked the database, for tests
}

// maxHeaderTrust is how long an unchanged wal-index header stands in for the pragma. The
// header alone is sound (see fastCheck); asking SQLite itself once a second costs nothing
// and bounds the staleness of any case this reasoning missed.
const maxHeaderTrust = time.Second

type genCheck struct {
	start time.Time
	done  chan struct{}
	gen   uint64
	err   error

	// While the check is pending (g.pending): how many requests wait on it, the one that will
	// run it included, and a channel closed when they are all the requests in flight.
	waiters int64
	full    chan struct{}
}

// minCheckInterval spaces generation checks that ask the database under concurrent load (on
// SQLite, those fastCheck cannot answer). Each costs a round trip on PostgreSQL and a few
// system calls on SQLite (shared-memory locks to read data_version), so they are batched:
// at most one starts per interval, and it serves every request that arrived before it
// started. A request with no other in flight has nothing to share a check with and would pay
// the wait whole (a sleep this short takes a millisecond in an otherwise idle process), so its
// caller asks for no batching. At 250 µs checks took 12% of a cached read's CPU under load,
// at 1 ms 5-7% (docsd-bench's request overhead, a pragma costing 40-70 µs of CPU on the
// loaded 2-core machine); 2 ms halves that, for at most 2 ms more of waiting under load.
// A check starts before the interval is over once every request in flight waits on it (see
// Generation): waiting longer would batch no one else.
const minCheckInterval = 2 * time.Millisecond

// ErrNoGeneration is returned by Generation on engines that cannot provide one.
var ErrNoGeneration = errors.New("store: database generation unavailable on this engine")

// generationShards is the number of rows of outbox_generation (migration 00090).
const generationShards = 16

// Generation returns a number that differs from every number it returned before any write
// that committed before `since`. A caller that noted `since` when its request arrived can
// therefore reuse an answer labelled with the same generation and never serve data older than
// its own arrival: one check, started after the arrival, serves every request waiting for it.
//
// inFlight is how many requests the caller has in flight, its own included. With more than
// one, a check due less than minCheckInterval after the last one waits for the rest of the
// interval, so that requests arriving meanwhile share it, but no longer than until inFlight
// requests wait on it: under a closed loop of clients that is all of them, and while the check
// waits for the interval it only adds to their latency (on PostgreSQL the wait, not the CPU,
// bounded a cached read's requests per second).
func (db *DB) Generation(ctx context.Context, since time.Time, inFlight int64) (uint64, error) {
	g := db.gens
	if g == nil {
		return 0, ErrNoGeneration
	}
	if l := db.lease.Load(); l != nil {
		if gen, ok := l.generation(); ok {
			return gen, nil
		}
	}
	g.mu.Lock()
	if !g.lastStart.IsZero() && !g.lastStart.Before(since) {
		gen := g.lastGen
		g.mu.Unlock()
		return gen, nil
	}
	if gen, ok := g.fastCheck(); ok {
		g.mu.Unlock()
		return gen, nil
	}
	if c := g.pending; c != nil {
		// A pending check starts after now, so after this request arrived.
		c.waiters++
		if c.waiters >= inFlight && c.full != nil {
			close(c.full)
			c.full = nil
		}
		g.mu.Unlock()
		// A plain receive: waiting on the request's context too cost a select and the
		// lazy creation of that context's done channel in every waiting request, a third
		// of the check's share of a cached read on PostgreSQL. The check is bounded by
		// checkTimeout, so a request that went away waits no longer than that.
		<-c.done
		return c.gen, c.err
	}
	if c := g.inflight; c != nil && !c.start.Before(since) {
		g.mu.Unlock()
		<-c.done
		return c.gen, c.err
	}
	return g.lead(ctx, inFlight)
}

// lead makes the calling request run the next check, which requests arriving until it starts
// join; g.mu is held, and released. The check waits for the one running (they share the
// connection) and, when batching, for the rest of the interval or until every request in
// flight has joined.
func (g *generations) lead(ctx context.Context, inFlight int64) (uint64, error) {
	c := &genCheck{done: make(chan struct{}), waiters: 1}
	if inFlight > 1 {
		c.full = make(chan struct{})
	}
	running := g.inflight
	g.pending = c
	g.mu.Unlock()
	if running != nil {
		<-running.done
	}
	// Under load, wait until a check interval has passed since the last one: every request
	// arriving meanwhile joins this check instead of paying for one of its own.
	g.mu.Lock()
	wait := time.Until(g.lastStart.Add(g.interval))
	full := c.full // nil once every request in flight joined
	if full != nil && wait > 0 {
		g.waits++
	} else {
		full = nil
	}
	g.mu.Unlock()
	if full != nil {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-full:
			t.Stop()
		}
	}
	g.mu.Lock()
	g.pending, g.inflight = nil, c
	c.full = nil
	c.start = time.Now()
	g.mu.Unlock()
	c.gen, c.err = g.checkDetached(ctx, c.start)
	g.mu.Lock()
	g.inflight = nil
	if c.err == nil && c.start.After(g.lastStart) {
		g.lastStart, g.lastGen = c.start, c.gen
	}
	g.mu.Unlock()
	close(c.done)
	return c.gen, c.err
}

// fastCheck answers without asking SQLite when it can; g.mu is held. A commit rewrites the
// wal-index header before it returns, so every commit acknowledged before now is either one
// the last pragma saw or one that changed the header since it was read, just before that
// pragma: a header equal to that one, read now, lets the pragma's answer stand. (A commit
// that changed the header and another that changed it back cannot be: the header holds the
// WAL's last frame and its salts, which a WAL reset changes, and a running checksum.) A
// header being rewritten, or no mapping, sends the caller to the pragma.
func (g *generations) fastCheck() (uint64, bool) {
	if g.shm == nil || !g.seenOK || time.Since(g.pragmaAt) >= maxHeaderTrust {
		return 0, false
	}
	h, ok := g.shm.header()
	if !ok || h != g.seen {
		return 0, false
	}
	return g.seenGen, true
}

// checkTimeout bounds a check. It runs for every request waiting on it, not only for the one
// that started it, so it is detached from that request's cancellation.
const checkTimeout = 10 * time.Second

// checkDetached is check, detached from ctx's cancellation and bounded by checkTimeout. On
// PostgreSQL the round trip itself is bounded by its connection's deadline (sumShards): a
// context with a deadline made pgx watch it, which with the context's own timer was a tenth of
// a check's CPU.
func (g *generations) checkDetached(ctx context.Context, start time.Time) (uint64, error) {
	if g.postgres {
		return g.sumShards(context.WithoutCancel(ctx))
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), g.timeout)
	defer cancel()
	return g.check(ctx, start)
}

// check returns the generation from SQLite, noting the wal-index header read just before for
// fastCheck; start is when the check began. Only one check runs at a time,
// so the dedicated connection is never shared.
func (g *generations) check(ctx context.Context, start time.Time) (uint64, error) {
	var before walHeader
	beforeOK := false
	if g.shm != nil {
		before, beforeOK = g.shm.header()
	}
	gen, err := g.dataVersion(ctx)
	g.pragmas.Add(1)
	g.mu.Lock()
	defer g.mu.Unlock()
	if err != nil {
		g.seenOK = false
		return 0, err
	}
	g.seen, g.seenOK, g.seenGen, g.pragmaAt = before, beforeOK, gen, start
	if g.shm == nil && !g.shmOff {
		g.mapWalIndex(ctx)
	}
	return gen, nil
}

// mapWalIndex maps the -shm file once the dedicated connection has read the database, so
// that SQLite has it open; g.mu is held. A database not in WAL mode has no wal-index to read;
// one in WAL mode stays in it while this connection is open (leaving WAL mode needs an
// exclusive lock).
func (g *generations) mapWalIndex(ctx context.Context) {
	// Not the request's cancellation: a failure here turns the mapping off for good.
	ctx = context.WithoutCancel(ctx)
	var mode string
	if g.shmPath == "" || g.conn.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode) != nil || !strings.EqualFold(mode, "wal") {
		g.shmOff = true
		return
	}
	w, id, registered, err := openWalIndex(g.shmPath)
	if registered {
		g.held = append(g.held, id)
	}
	if err != nil {
		g.shmOff = true
		return
	}
	g.shm = w
}

// dropWalIndex forgets the mapping, which belongs with the dedicated connection: another
// connection maps the file again after its first pragma. g.mu is held.
func (g *generations) dropWalIndex() {
	if g.shm != nil {
		g.shm.unmap()
		g.shm = nil
	}
	g.seenOK = false
}

// dataVersion reads data_version on the dedicated connection.
func (g *generations) dataVersion(ctx context.Context) (uint64, error) {
	if g.conn == nil {
		conn, err := g.pool.Conn(ctx)
		if err != nil {
			return 0, err
		}
		// Prepared once, on the driver's connection: parsing the pragma was a good part of
		// every check, and database/sql's statement, rows and scanning half of the rest.
		err = conn.Raw(func(dc any) error {
			p, ok := dc.(driver.ConnPrepareContext)
			if !ok {
				return fmt.Errorf("store: SQLite driver connection %T cannot prepare", dc)
			}
			stmt, err := p.PrepareContext(ctx, `PRAGMA data_version`)
			if err == nil {
				if _, ok := stmt.(driver.StmtQueryContext); !ok {
					stmt.Close()
					return fmt.Errorf("store: SQLite driver statement %T cannot query", stmt)
				}
			}
			g.version = stmt
			return err
		})
		if err != nil {
			conn.Close()
			g.version = nil
			return 0, err
		}
		g.conn = conn
		g.epoch++
	}
	var v int64
	err := g.conn.Raw(func(any) error {
		rows, err := g.version.(driver.StmtQueryContext).QueryContext(context.WithoutCancel(ctx), nil)
		if err != nil {
			return err
		}
		dest := make([]driver.Value, 1)
		err = rows.Next(dest)
		if cerr := rows.Close(); err == nil {
			err = cerr
		}
		if err == io.EOF {
			return errors.New("store: PRAGMA data_version returned no row")
		}
		if err != nil {
			return err
		}
		n, ok := dest[0].(int64)
		if !ok {
			return fmt.Errorf("store: PRAGMA data_version returned %T", dest[0])
		}
		v = n
		return nil
	})
	if err != nil {
		g.mu.Lock()
		g.closeConn()
		g.mu.Unlock()
		return 0, err
	}
	return g.epoch<<40 | uint64(v), nil
}

// closeConn drops the dedicated connection, its statement and the mapping that relied on it
// being open; the next check opens another. g.mu is held.
func (g *generations) closeConn() {
	g.dropWalIndex()
	g.conn.Raw(func(any) error { return g.version.Close() })
	g.conn.Close()
	g.conn, g.version = nil, nil
}

func (g *generations) close() {
	if g.postgres {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.conn != nil {
			discardConn(g.conn) // it has a deadline, which a connection of the pool must not
			g.conn, g.pgStmt = nil, nil
		}
		return // the pool is the DB's own
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conn != nil {
		g.closeConn()
	}
	g.dropWalIndex()
	g.shmOff = true
	g.pool.Close()
}

// releaseFiles lets go of the -shm descriptors this DB kept open, once its connections (all
// of its pools) are closed.
func (g *generations) releaseFiles() {
	g.mu.Lock()
	held := g.held
	g.held = nil
	g.mu.Unlock()
	for _, id := range held {
		releaseShmFile(id)
	}
}
