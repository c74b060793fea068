package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// sumShardsStatement names the statement a PostgreSQL check runs, prepared once on the
// connection kept for checks.
const sumShardsStatement = "docsd_generation"

// sumShards reads the sum of outbox_generation's rows on a connection of the read pool kept
// for checks, through pgx's protocol layer: the prepared statement, whose description is kept,
// is bound and run, and its one binary value decoded here. Through database/sql and pgx's
// rows, a check cost half as much again as its round trip (docsd-bench's request overhead on
// PostgreSQL). Only one check runs at a time (Generation), so the connection (and pgDeadline)
// is never shared. ctx carries no cancellation (checkDetached): opening the connection is
// bounded by checkTimeout, and the round trip by the connection's deadline.
func (g *generations) sumShards(ctx context.Context) (uint64, error) {
	g.mu.Lock()
	conn, stmt := g.conn, g.pgStmt
	g.mu.Unlock()
	if conn == nil {
		var err error
		if conn, stmt, err = g.openCheckConn(ctx); err != nil {
			return 0, err
		}
		g.mu.Lock()
		g.conn, g.pgStmt, g.pgDeadline = conn, stmt, time.Time{}
		g.mu.Unlock()
	}
	var n uint64
	g.roundTrips.Add(1)
	err := conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn().PgConn()
		// Every round trip gets between checkTimeout and twice that, and the deadline is
		// moved only when less than checkTimeout is left: once in ten seconds, not per check.
		if now := time.Now(); g.pgDeadline.Sub(now) < g.timeout {
			g.pgDeadline = now.Add(2 * g.timeout)
			if err := pc.Conn().SetDeadline(g.pgDeadline); err != nil {
				return err
			}
		}
		// context.Background, not merely a context without cancellation: pgx skips its
		// context handling for that one alone.
		rr := pc.ExecStatement(context.Background(), stmt, nil, nil, []int16{1})
		rows := 0
		for rr.NextRow() {
			v := rr.Values()[0]
			if len(v) != 8 {
				rr.Close()
				return fmt.Errorf("store: generation sum of %d bytes", len(v))
			}
			n = binary.BigEndian.Uint64(v)
			rows++
		}
		if _, err := rr.Close(); err != nil {
			return err
		}
		if rows != 1 {
			return fmt.Errorf("store: generation sum in %d rows", rows)
		}
		return nil
	})
	if err != nil {
		// The next check starts over on another connection (this one may be broken, be past
		// its deadline, or have lost its statement).
		g.mu.Lock()
		if g.conn == conn {
			g.conn, g.pgStmt = nil, nil
		}
		g.mu.Unlock()
		discardConn(conn)
		return 0, err
	}
	return n, nil
}

// openCheckConn takes a connection of the read pool for checks and prepares the sum on it,
// within checkTimeout.
func (g *generations) openCheckConn(ctx context.Context) (*sql.Conn, *pgconn.StatementDescription, error) {
	ctx, cancel := context.WithTimeout(ctx, g.timeout)
	defer cancel()
	conn, err := g.pool.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	var stmt *pgconn.StatementDescription
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: PostgreSQL driver connection %T is not pgx's", dc)
		}
		var err error
		stmt, err = c.Conn().PgConn().Prepare(ctx, sumShardsStatement,
			`SELECT COALESCE(SUM(n), 0)::BIGINT FROM outbox_generation`, nil)
		if err == nil && len(stmt.Fields) != 1 {
			err = fmt.Errorf("store: generation sum described with %d fields", len(stmt.Fields))
		}
		return err
	})
	if err != nil {
		discardConn(conn) // not back into the pool as it is
		return nil, nil, err
	}
	return conn, stmt, nil
}

// discardConn closes conn's driver connection instead of returning it to the pool: a check's
// connection may be broken, hold a prepared statement or a deadline.
func discardConn(conn *sql.Conn) {
	conn.Raw(func(any) error { return errBadConn })
	conn.Close()
}

// errBadConn, returned from a Raw function, makes database/sql discard the connection
// instead of returning it to the pool.
var errBadConn = fmt.Errorf("store: connection discarded: %w", driver.ErrBadConn)
