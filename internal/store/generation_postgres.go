package store

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"fmt"

	"github.com/jackc/pgx/v5/stdlib"
)

// sumShardsStatement names the statement a PostgreSQL check runs, prepared once on the
// connection kept for checks.
const sumShardsStatement = "docsd_generation"

// sumShards reads the sum of outbox_generation's rows on a connection of the read pool kept
// for checks, through pgx's protocol layer: the prepared statement is bound and run, and its
// one binary value decoded here. Through database/sql and pgx's rows, a check cost half as
// much again as its round trip (docsd-bench's request overhead on PostgreSQL). Only one check
// runs at a time (Generation), so the connection is never shared.
func (g *generations) sumShards(ctx context.Context) (uint64, error) {
	g.mu.Lock()
	conn := g.conn
	g.mu.Unlock()
	if conn == nil {
		var err error
		conn, err = g.pool.Conn(ctx)
		if err != nil {
			return 0, err
		}
		err = conn.Raw(func(dc any) error {
			c, ok := dc.(*stdlib.Conn)
			if !ok {
				return fmt.Errorf("store: PostgreSQL driver connection %T is not pgx's", dc)
			}
			_, err := c.Conn().PgConn().Prepare(ctx, sumShardsStatement,
				`SELECT COALESCE(SUM(n), 0)::BIGINT FROM outbox_generation`, nil)
			return err
		})
		if err != nil {
			conn.Raw(func(any) error { return errBadConn }) // not back into the pool as it is
			conn.Close()
			return 0, err
		}
		g.mu.Lock()
		g.conn = conn
		g.mu.Unlock()
	}
	var n uint64
	err := conn.Raw(func(dc any) error {
		rr := dc.(*stdlib.Conn).Conn().PgConn().ExecPrepared(ctx, sumShardsStatement, nil, nil, []int16{1})
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
		// The next check starts over on another connection (this one may be broken, or
		// have lost its statement).
		g.mu.Lock()
		if g.conn == conn {
			g.conn = nil
		}
		g.mu.Unlock()
		conn.Raw(func(any) error { return errBadConn })
		conn.Close()
		return 0, err
	}
	return n, nil
}

// errBadConn, returned from a Raw function, makes database/sql discard the connection
// instead of returning it to the pool.
var errBadConn = fmt.Errorf("store: connection discarded: %w", driver.ErrBadConn)
