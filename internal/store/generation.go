package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// generations tells whether the database may have changed, so that answers computed from it
// can be reused until it does. On SQLite, `PRAGMA data_version` on a connection of its own
// changes whenever any other connection (of this process or another, such as the admin
// commands) commits. PostgreSQL has no such signal, so every write transaction adds one to a
// row of outbox_generation before it commits (Q.beforeCommit), and the generation is the sum
// of those rows: a read that starts after a commit was acknowledged sees a larger sum than
// any read that ended before it, on every instance sharing the database. The read is one
// round trip, shared by the requests that wait for it (see Generation).
type generations struct {
	pool     *sql.DB // SQLite: one connection, used for nothing else; PostgreSQL: the read pool
	postgres bool

	mu        sync.Mutex
	conn      *sql.Conn
	version   driver.Stmt // PRAGMA data_version, prepared on conn's driver connection
	epoch     uint64      // bumped when the connection is replaced: its data_version restarts
	lastStart time.Time   // when the last successful check started
	lastGen   uint64
	inflight  *genCheck
	waits     uint64 // checks that waited to batch calls, for tests
}

type genCheck struct {
	start time.Time
	done  chan struct{}
	gen   uint64
	err   error
}

// minCheckInterval spaces generation checks under concurrent load. Each check costs a few
// system calls (SQLite takes shared-memory locks to read data_version), so checks are batched:
// at most one starts per interval, and it serves every request that arrived before it
// started. A request with no other in flight has nothing to share a check with and would pay
// the wait whole (a sleep this short takes a millisecond in an otherwise idle process), so its
// caller asks for no batching. At 250 µs checks took 12% of a cached read's CPU under load,
// at 1 ms 5-7% (docsd-bench's request overhead, a pragma costing 40-70 µs of CPU on the
// loaded 2-core machine); 2 ms halves that, for at most 2 ms more of waiting under load.
const minCheckInterval = 2 * time.Millisecond

// ErrNoGeneration is returned by Generation on engines that cannot provide one.
var ErrNoGeneration = errors.New("store: database generation unavailable on this engine")

// generationShards is the number of rows of outbox_generation (migration 00090).
const generationShards = 16

// Generation returns a number that differs from every number it returned before any write
// that committed before `since`. A caller that noted `since` when its request arrived can
// therefore reuse an answer labelled with the same generation and never serve data older than
// its own arrival: one check, started after the arrival, serves every request waiting for it.
// With batch, a check due less than minCheckInterval after the last one waits for the rest
// of the interval, so that requests arriving meanwhile share it.
func (db *DB) Generation(ctx context.Context, since time.Time, batch bool) (uint64, error) {
	g := db.gens
	if g == nil {
		return 0, ErrNoGeneration
	}
	for {
		g.mu.Lock()
		if !g.lastStart.IsZero() && !g.lastStart.Before(since) {
			gen := g.lastGen
			g.mu.Unlock()
			return gen, nil
		}
		if c := g.inflight; c != nil {
			g.mu.Unlock()
			select {
			case <-c.done:
			case <-ctx.Done():
				return 0, ctx.Err()
			}
			if !c.start.Before(since) {
				return c.gen, c.err
			}
			continue // that check began before this request arrived: it may miss a write
		}
		c := &genCheck{done: make(chan struct{})}
		g.inflight = c
		wait := time.Until(g.lastStart.Add(minCheckInterval))
		if batch = batch && wait > 0; batch {
			g.waits++
		}
		g.mu.Unlock()
		// Under load, wait until a check interval has passed since the last one: every request
		// arriving meanwhile joins this check instead of paying for one of its own.
		if batch {
			time.Sleep(wait)
		}
		c.start = time.Now()
		c.gen, c.err = g.check(ctx)
		g.mu.Lock()
		g.inflight = nil
		if c.err == nil && c.start.After(g.lastStart) {
			g.lastStart, g.lastGen = c.start, c.gen
		}
		g.mu.Unlock()
		close(c.done)
		return c.gen, c.err
	}
}

// check reads data_version on the dedicated connection. Only one check runs at a time, so
// the connection is never shared.
func (g *generations) check(ctx context.Context) (uint64, error) {
	if g.postgres {
		var n int64
		err := g.pool.QueryRowContext(ctx, `SELECT COALESCE(SUM(n), 0)::BIGINT FROM outbox_generation`).Scan(&n)
		return uint64(n), err
	}
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
		g.closeConn()
		return 0, err
	}
	return g.epoch<<40 | uint64(v), nil
}

// closeConn drops the dedicated connection and its statement; the next check opens another.
func (g *generations) closeConn() {
	g.conn.Raw(func(any) error { return g.version.Close() })
	g.conn.Close()
	g.conn, g.version = nil, nil
}

func (g *generations) close() {
	if g.postgres {
		return // the pool is the DB's own
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.conn != nil {
		g.closeConn()
	}
	g.pool.Close()
}
