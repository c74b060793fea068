package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A PostgreSQL write group's statements (groupcommit.go) run on pgx directly rather than
// through database/sql, so that the statements a write does not wait for ride in the round
// trip of the next one it does wait for: its savepoint, sent with its first statement, and
// the statements it defers (Q.ExecLater), sent with its next one. Each round trip costs this
// process two system calls on the socket and the wake-ups around them (100–150 µs of CPU on
// a 2-core machine, where a title PATCH made four), and database/sql's layer around pgx adds
// its own conversions to every statement.
//
// The group's *sql.Conn is held from the group's start to its end, so nothing else in the
// process uses its driver connection meanwhile; pgWrite uses that connection (pc) only while
// the group holds it, leaving it, as database/sql expects, with no statement in progress.
type pgWrite struct {
	conn *sql.Conn
	pc   *pgx.Conn
	// trips counts exchanges with the server (DB.writeRoundTrips).
	trips *atomic.Uint64
	// pending are statements sent with the next one, in the order they were queued: savepoint
	// commands, reads whose rows a write takes when they come (Q.QueryLater), and deferred
	// statements, some of them left by writes that have ended (see lateFailure).
	pending []pendingStmt
	// current is the write running now (nil between writes and at the commit).
	current *pgOwner
	// broken is set when a savepoint command failed: the transaction cannot go on.
	broken error
	// failed is the failure of a statement the current write deferred or queued, which fails
	// that write even if the statement it rode with was one whose error the write handled.
	failed error
	// lateFailure undoes a write that has ended whose deferred statement failed: it rolls the
	// transaction back to that write's savepoint and takes the write out of the group
	// (groupcommit.go). An error means the transaction cannot go on.
	lateFailure func(o *pgOwner, err error) error
}

// pgOwner is a write of the group, as the statements it queued know it.
type pgOwner struct {
	savepoint bool  // it runs in a savepoint of its own (every write but the group's first)
	opened    bool  // its SAVEPOINT has run
	err       error // set when a statement it deferred failed after it ended
}

type pendingStmt struct {
	query string
	args  []any
	kind  pendingKind
	owner *pgOwner
	read  func(*Rows) error // pendingRead: takes the rows
}

type pendingKind int

const (
	pendingBegin     pendingKind = iota // the group's BEGIN, and its taking the numbering row
	pendingRelease                      // RELEASE of the previous write's savepoint
	pendingSavepoint                    // the write's SAVEPOINT
	pendingRead                         // a query the write reads the rows of when they come
	pendingDeferred                     // a statement the write deferred
)

// deferredError is a deferred statement's failure, as seen by the statement it rode with.
// It is not unwrapped: a caller expecting its own statement's constraint violation must not
// take it for one.
type deferredError struct{ err error }

func (e *deferredError) Error() string { return "deferred statement: " + e.err.Error() }

// beginPostgres takes a connection and begins the group's transaction (see DB.begin).
func beginPostgres(ctx context.Context, pool *sql.DB, trips *atomic.Uint64) (*pgWrite, error) {
	conn, pc, err := pgxConn(ctx, pool)
	if err != nil {
		return nil, err
	}
	w := &pgWrite{conn: conn, pc: pc, trips: trips}
	// The transaction begins with the group's first statement, in its round trip, and takes
	// the outbox's numbering row before anything else (DB.begin).
	w.queue(pendingBegin, `BEGIN`)
	w.queue(pendingBegin, `SELECT seq FROM outbox_state WHERE id = 1 FOR UPDATE`)
	return w, nil
}

// pgxConn takes a connection of pool, and the pgx connection under it: statements go through
// pgx directly while the *sql.Conn is held, and nothing else in the process uses it meanwhile.
func pgxConn(ctx context.Context, pool *sql.DB) (*sql.Conn, *pgx.Conn, error) {
	conn, err := pool.Conn(ctx)
	if err != nil {
		return nil, nil, err
	}
	var pc *pgx.Conn
	if err := conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return fmt.Errorf("store: PostgreSQL connection of type %T", dc)
		}
		pc = c.Conn()
		return nil
	}); err != nil {
		conn.Close()
		return nil, nil, err
	}
	return conn, pc, nil
}

// end returns the connection to the pool, after rolling back whatever is left unless the
// transaction is known to have ended. A connection whose state is unknown (its ROLLBACK
// failed) is dropped rather than reused.
func (w *pgWrite) end(ended bool) error {
	if !ended {
		w.trips.Add(1)
		if _, err := w.pc.Exec(context.Background(), `ROLLBACK`); err != nil {
			w.conn.Raw(func(any) error { return errBadConn })
		}
	}
	return w.conn.Close()
}

// queue adds a statement of the current write to be sent with the next one.
func (w *pgWrite) queue(kind pendingKind, query string, args ...any) {
	w.pending = append(w.pending, pendingStmt{query: query, args: args, kind: kind, owner: w.current})
}

// queueRead adds a query of the current write whose rows read takes when they come.
func (w *pgWrite) queueRead(query string, args []any, read func(*Rows) error) {
	w.pending = append(w.pending, pendingStmt{query: query, args: args, kind: pendingRead, owner: w.current, read: read})
}

// own reports whether the current write has reads and deferred statements pending.
func (w *pgWrite) own() (reads, deferred bool) {
	for _, p := range w.pending {
		if p.owner == w.current {
			reads = reads || p.kind == pendingRead
			deferred = deferred || p.kind == pendingDeferred
		}
	}
	return reads, deferred
}

// dropOwn forgets what the current write has pending: its savepoint commands when it ran
// no statement (it has nothing to undo, and the previous savepoint stays open), or all of
// it when it failed. What writes that ended left pending stays.
func (w *pgWrite) dropOwn() {
	kept := w.pending[:0]
	for _, p := range w.pending {
		if p.owner != w.current {
			kept = append(kept, p)
		}
	}
	clear(w.pending[len(kept):])
	w.pending = kept
}

// simple reports whether args ask for the simple protocol (Q.lastMembers), which a batch
// cannot carry.
func simple(args []any) bool {
	if len(args) == 0 {
		return false
	}
	_, ok := args[0].(pgx.QueryExecMode)
	return ok
}

// send runs the pending statements followed by query (none when query is empty) in one
// round trip, and returns the batch positioned at query's result. On error the batch is
// already closed.
//
// When a statement deferred by a write that has ended fails, the server skips the rest of
// the round trip: lateFailure undoes that write, and what the others queued is sent again.
func (w *pgWrite) send(ctx context.Context, query string, args []any) (pgx.BatchResults, error) {
	for {
		pending := w.pending
		w.pending = nil
		if len(pending) == 0 && query == "" {
			return w.pc.SendBatch(ctx, &pgx.Batch{}), nil // nothing to send: no round trip
		}
		b := &pgx.Batch{QueuedQueries: make([]*pgx.QueuedQuery, 0, len(pending)+1)}
		for _, p := range pending {
			b.Queue(p.query, p.args...)
		}
		if query != "" {
			b.Queue(query, args...)
		}
		w.trips.Add(1)
		br := w.pc.SendBatch(ctx, b)
		late := -1
		for i, p := range pending {
			err := w.result(br, p)
			if err == nil {
				continue
			}
			br.Close()
			switch {
			case p.kind == pendingBegin:
				w.broken = fmt.Errorf("begin: %w", mapErr(err))
				return nil, w.broken
			case p.kind == pendingRelease || p.kind == pendingSavepoint:
				w.broken = fmt.Errorf("savepoint: %w", mapErr(err))
				return nil, w.broken
			case p.owner == w.current && w.current != nil:
				w.failed = &deferredError{mapErr(err)}
				return nil, w.failed
			}
			if lerr := w.lateFailure(p.owner, &deferredError{mapErr(err)}); lerr != nil {
				w.broken = lerr
				return nil, lerr
			}
			late = i
			break
		}
		if late < 0 {
			return br, nil
		}
		// Nothing after the failed statement ran: send it again, without that write's.
		failed := pending[late].owner
		for _, p := range pending[late+1:] {
			if p.owner != failed {
				w.pending = append(w.pending, p)
			}
		}
	}
}

// result takes one pending statement's result from br.
func (w *pgWrite) result(br pgx.BatchResults, p pendingStmt) error {
	if p.kind != pendingRead {
		_, err := br.Exec()
		if err == nil && p.kind == pendingSavepoint {
			p.owner.opened = true
		}
		return err
	}
	rows, err := br.Query()
	if err != nil {
		return err
	}
	r := &Rows{pg: rows}
	err = p.read(r)
	if cerr := r.Close(); err == nil {
		err = cerr
	}
	if err != nil && rows.Err() == nil {
		// The statement ran; its reader failed (a value it could not take): the write's
		// failure, not the transaction's.
		w.failed = err
		return nil
	}
	return err
}

// flush sends the pending statements on their own.
func (w *pgWrite) flush(ctx context.Context) error {
	if len(w.pending) == 0 {
		return nil
	}
	br, err := w.send(ctx, "", nil)
	if err != nil {
		return err
	}
	return br.Close()
}

// exec runs a statement that returns no rows, with the pending ones.
func (w *pgWrite) exec(ctx context.Context, query string, args []any) (sql.Result, error) {
	if len(w.pending) == 0 || simple(args) {
		if err := w.flush(ctx); err != nil {
			return nil, err
		}
		w.trips.Add(1)
		tag, err := w.pc.Exec(ctx, query, args...)
		if err != nil {
			return nil, err
		}
		return pgResult(tag.RowsAffected()), nil
	}
	br, err := w.send(ctx, query, args)
	if err != nil {
		return nil, err
	}
	tag, err := br.Exec()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return pgResult(tag.RowsAffected()), nil
}

// query runs a statement that returns rows, with the pending ones.
func (w *pgWrite) query(ctx context.Context, query string, args []any) (*Rows, error) {
	if len(w.pending) == 0 || simple(args) {
		if err := w.flush(ctx); err != nil {
			return nil, err
		}
		w.trips.Add(1)
		rows, err := w.pc.Query(ctx, query, args...)
		if err != nil {
			return nil, err
		}
		return &Rows{pg: rows}, nil
	}
	br, err := w.send(ctx, query, args)
	if err != nil {
		return nil, err
	}
	rows, err := br.Query()
	if err != nil {
		br.Close()
		return nil, err
	}
	return &Rows{pg: rows, batch: br}, nil
}

// pgResult is a statement's sql.Result on pgx: the rows it affected.
type pgResult int64

func (r pgResult) RowsAffected() (int64, error) { return int64(r), nil }

func (pgResult) LastInsertId() (int64, error) {
	return 0, errors.New("store: PostgreSQL has no last insert id (use RETURNING)")
}
