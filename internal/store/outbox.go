package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"docsd/internal/outbox"

	"github.com/jackc/pgx/v5"
)

// The event outbox's SQL (see internal/outbox and migration 00090).
//
// Commit order on PostgreSQL. A sequence or identity column hands out numbers in the order
// transactions ask, not the order they commit: a reader could see event 8 committed while 7
// is still in flight, move its cursor past 7 and never see it. Instead every transaction that
// writes events adds to the one row of outbox_state, just before it commits. The row lock
// that update takes is held until commit, so the next transaction to ask waits, and gets its
// numbers only after the previous one has committed (or rolled back, giving its numbers back):
// events become visible in the order of their numbers, and there are never gaps. The price is
// that event-writing transactions commit one at a time; writes therefore share transactions,
// each process's in groups that number their events once (groupcommit.go), and on
// PostgreSQL a group takes the row as it begins, so that the groups of several processes run
// one after the other. SQLite serializes all writes anyway.

// notifyChannel is the PostgreSQL channel on which transactions that wrote events notify
// listeners (a wake-up only: the outbox table is the truth).
const notifyChannel = "docsd_outbox"

// Emit adds an event to the current write transaction: it is written, numbered, when the
// transaction commits, and never if it rolls back. data is encoded as a JSON object (nil for
// none).
func (q *Q) Emit(kind, orgID, spaceID, subject string, data any) error {
	if !q.inTx() {
		return errors.New("store: Emit needs a write transaction")
	}
	raw := json.RawMessage(`{}`)
	if data != nil {
		b, err := json.Marshal(data)
		if err != nil {
			return fmt.Errorf("encode %s event: %w", kind, err)
		}
		raw = b
	}
	q.events = append(q.events, outbox.Event{Kind: kind, OrgID: orgID, SpaceID: spaceID, Subject: subject, Data: raw, At: q.now})
	return nil
}

// beforeCommit writes the transaction's events and, on PostgreSQL, moves the database's
// generation; both are done last so that the locks they take are held for as short a time as
// possible.
func (q *Q) beforeCommit(ctx context.Context) error {
	if q.db.Engine == Postgres && len(q.events) <= eventsPerInsert {
		return q.finishPostgres(ctx)
	}
	if len(q.events) > 0 {
		if err := q.writeEvents(ctx); err != nil {
			return err
		}
	}
	if q.db.Engine == Postgres {
		// Any write may change an answer: see generation.go; members, see instances.go.
		if err := q.QueryRow(ctx, `UPDATE outbox_generation SET n = n + 1 WHERE shard = ? RETURNING members`,
			rand.IntN(generationShards)).Scan(&q.members); err != nil {
			return fmt.Errorf("move generation: %w", err)
		}
	}
	return nil
}

// eventsPerInsert is how many events one INSERT writes.
const eventsPerInsert = 64

// pgEventRow is one event's row in finishPostgres's VALUES, typed: PostgreSQL cannot infer
// the types of parameters there.
const pgEventRow = `(CAST(? AS BIGINT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT))`

// finishPostgres is beforeCommit on PostgreSQL for a transaction of at most eventsPerInsert
// events, in one statement instead of four: numbering the events, writing them, notifying
// the consumers and moving the generation each cost a round trip, which is most of a small
// write's time. Data-modifying WITH clauses run exactly once whether or not they are
// referenced, and see the same snapshot, as the separate statements did.
func (q *Q) finishPostgres(ctx context.Context) error {
	shard := rand.IntN(generationShards)
	if len(q.events) == 0 {
		if err := q.lastMembers(ctx, `UPDATE outbox_generation SET n = n + 1 WHERE shard = ? RETURNING members`, shard); err != nil {
			return fmt.Errorf("move generation: %w", err)
		}
		return nil
	}
	n := len(q.events)
	args := make([]any, 0, 2+n*7)
	args = append(args, n, shard)
	for i, e := range q.events {
		// Each event keeps its own write's time: the writes committed in one group have
		// their events written together (groupcommit.go).
		args = append(args, i+1, e.Kind, e.OrgID, e.SpaceID, e.Subject, string(e.Data), Micros(e.At))
	}
	if err := q.lastMembers(ctx, `WITH s AS (UPDATE outbox_state SET seq = seq + CAST(? AS BIGINT) WHERE id = 1 RETURNING seq),
		g AS (UPDATE outbox_generation SET n = n + 1 WHERE shard = CAST(? AS INTEGER) RETURNING members),
		w AS (INSERT INTO outbox_events (seq, kind, org_id, space_id, subject, data, created_at)
			SELECT s.seq - `+fmt.Sprint(n)+` + v.i, v.kind, v.org_id, v.space_id, v.subject, v.data, v.created_at
			FROM s, (VALUES `+valuesList(n, 0, pgEventRow)+`) AS v (i, kind, org_id, space_id, subject, data, created_at)),
		e AS (SELECT pg_notify('`+notifyChannel+`', ''))
		SELECT g.members FROM g, e`, args...); err != nil {
		return fmt.Errorf("write events: %w", err)
	}
	if wake := q.db.eventsWritten.Load(); wake != nil {
		q.AfterCommit(*wake)
	}
	return nil
}

// lastMembers runs the last statement of a transaction on PostgreSQL, which moves the
// generation and returns outbox_generation.members (into q.members: see instances.go); with
// commitInline, the COMMIT is sent with it, in one round trip: the statement's arguments are
// then written into its text by the driver (its simple protocol) rather than sent apart, and
// the COMMIT's outcome is read with the rows. Should the statement fail, the COMMIT does not
// run, and the transaction is left to be rolled back.
func (q *Q) lastMembers(ctx context.Context, query string, args ...any) error {
	if !q.commitInline {
		return q.QueryRow(ctx, query, args...).Scan(&q.members)
	}
	if err := q.QueryRow(ctx, query+`; COMMIT`, append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...).Scan(&q.members); err != nil {
		return err
	}
	q.committed = true
	return nil
}

func (q *Q) writeEvents(ctx context.Context) error {
	var last int64
	if err := q.QueryRow(ctx, `UPDATE outbox_state SET seq = seq + ? WHERE id = 1 RETURNING seq`, len(q.events)).Scan(&last); err != nil {
		return fmt.Errorf("number events: %w", err)
	}
	first := last - int64(len(q.events)) + 1
	for start := 0; start < len(q.events); start += eventsPerInsert {
		part := q.events[start:min(start+eventsPerInsert, len(q.events))]
		args := make([]any, 0, len(part)*7)
		for i, e := range part {
			// Each event keeps its own write's time: the writes committed in one group have
			// their events written together (groupcommit.go).
			args = append(args, first+int64(start+i), e.Kind, e.OrgID, e.SpaceID, e.Subject, string(e.Data), Micros(e.At))
		}
		if _, err := q.Exec(ctx, `INSERT INTO outbox_events (seq, kind, org_id, space_id, subject, data, created_at) VALUES `+
			valuesList(len(part), 7, ""), args...); err != nil {
			return fmt.Errorf("write events: %w", err)
		}
	}
	if q.db.Engine == Postgres {
		if _, err := q.Exec(ctx, `SELECT pg_notify('`+notifyChannel+`', '')`); err != nil {
			return fmt.Errorf("notify events: %w", err)
		}
	}
	if wake := q.db.eventsWritten.Load(); wake != nil {
		q.AfterCommit(*wake)
	}
	return nil
}

// OnEventsWritten sets a function called after each commit that wrote events, so this
// process's consumers start at once instead of at their next poll.
func (db *DB) OnEventsWritten(f func()) { db.eventsWritten.Store(&f) }

// Outbox adapts the DB to outbox.Store.
type Outbox struct{ DB *DB }

func (o Outbox) EnsureCursor(ctx context.Context, consumer string) error {
	return o.DB.Write(ctx, time.Now(), func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO outbox_cursors (consumer) VALUES (?) ON CONFLICT (consumer) DO NOTHING`, consumer)
		return err
	})
}

const eventColumns = `seq, kind, org_id, space_id, subject, data, created_at`

func readEvents(ctx context.Context, query func(context.Context, string, ...any) (*Rows, error), after int64, limit int) ([]outbox.Event, error) {
	rows, err := query(ctx, `SELECT `+eventColumns+` FROM outbox_events WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
	if err != nil {
		return nil, mapErr(err)
	}
	return scanEvents(rows)
}

// scanEvents reads the events of rows (eventColumns), and closes them.
func scanEvents(rows *Rows) ([]outbox.Event, error) {
	defer rows.Close()
	var out []outbox.Event
	for rows.Next() {
		var e outbox.Event
		var data string
		var at int64
		if err := rows.Scan(&e.Seq, &e.Kind, &e.OrgID, &e.SpaceID, &e.Subject, &data, &at); err != nil {
			return nil, mapErr(err)
		}
		e.Data, e.At = json.RawMessage(data), FromMicros(at)
		out = append(out, e)
	}
	return out, mapErr(rows.Err())
}

// PendingConsumers returns the consumers with events after their cursor, in one read: the
// runner looks once per pass for all its consumers, and claims only for those.
func (o Outbox) PendingConsumers(ctx context.Context) (map[string]bool, error) {
	rows, err := o.DB.Read().Query(ctx, `SELECT c.consumer FROM outbox_cursors c
		WHERE EXISTS (SELECT 1 FROM outbox_events e WHERE e.seq > c.seq)`)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, mapErr(err)
		}
		out[name] = true
	}
	return out, mapErr(rows.Err())
}

// ClaimEvents takes a consumer's cursor. On PostgreSQL the claim is a transaction holding
// the cursor's row lock (FOR UPDATE SKIP LOCKED: an instance that finds it locked goes on
// with other work), in which the cursor later moves: if the process dies, its connection
// drops, the lock goes with it and the cursor stays where it was. On SQLite, whose one write
// connection cannot stay in a transaction while the events are processed, the claim is a
// lease written on the cursor's row, which another process may take over once it expires.
// Either way a claim writes: callers look for pending events first (PendingConsumers).
func (o Outbox) ClaimEvents(ctx context.Context, consumer, owner string, now time.Time, lease time.Duration, limit int) (outbox.Claim, bool, error) {
	if o.DB.Engine == Postgres {
		return o.claimPostgres(ctx, consumer, limit)
	}
	c := &leaseClaim{db: o.DB, consumer: consumer, owner: owner, expires: Micros(now.Add(lease))}
	var cursor int64
	err := o.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE outbox_cursors SET lease_owner = ?, lease_expires_at = ?
			WHERE consumer = ? AND (lease_owner IS NULL OR lease_expires_at <= ?)`, owner, c.expires, consumer, Micros(now))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, errClaimHeld)
		}
		return q.QueryRow(ctx, `SELECT seq FROM outbox_cursors WHERE consumer = ?`, consumer).Scan(&cursor)
	})
	if errors.Is(err, errClaimHeld) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	if c.events, err = readEvents(ctx, o.DB.Read().Query, cursor, limit); err != nil {
		c.Release()
		return nil, false, err
	}
	return c, true, nil
}

var errClaimHeld = errors.New("store: claim held elsewhere")

// ErrClaimLost is returned when a consumer moves a cursor whose lease expired and was taken
// over: the events it processed will be processed again by the new holder.
var ErrClaimLost = errors.New("store: outbox claim lost")

// claimTimeout bounds each of a PostgreSQL claim's round trips.
const claimTimeout = 10 * time.Second

func (o Outbox) claimPostgres(ctx context.Context, consumer string, limit int) (outbox.Claim, bool, error) {
	conn, pc, err := pgxConn(ctx, o.DB.writer)
	if err != nil {
		return nil, false, err
	}
	c := &lockClaim{conn: conn, pc: pc, consumer: consumer}
	// One round trip: the transaction begins, takes the cursor's row (or finds it taken) and
	// reads the events after it. The events' statement runs after the lock is held, so the
	// cursor it reads is the one locked. The round trip is not cut short when ctx ends (a
	// stopping runner): pgx would close the connection in the middle of the transaction, and
	// the cursor's row would stay locked, every instance skipping the consumer, until
	// PostgreSQL noticed.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimTimeout)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SELECT seq FROM outbox_cursors WHERE consumer = $1 FOR UPDATE SKIP LOCKED`, consumer)
	b.Queue(`SELECT `+eventColumns+` FROM outbox_events
		WHERE seq > (SELECT seq FROM outbox_cursors WHERE consumer = $1) ORDER BY seq LIMIT $2`, consumer, limit)
	br := c.pc.SendBatch(ctx, b)
	locked, events, err := claimResults(br)
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil || !locked {
		c.Release()
		return nil, false, mapErr(err)
	}
	c.events = events
	return c, true, nil
}

// claimResults reads claimPostgres's round trip: whether the cursor's row was locked, and the
// events after it.
func claimResults(br pgx.BatchResults) (locked bool, events []outbox.Event, err error) {
	if _, err := br.Exec(); err != nil {
		return false, nil, fmt.Errorf("begin: %w", err)
	}
	rows, err := br.Query()
	if err != nil {
		return false, nil, err
	}
	locked = rows.Next()
	rows.Close()
	if err := rows.Err(); err != nil {
		return false, nil, err
	}
	rows, err = br.Query()
	if err != nil {
		return false, nil, err
	}
	events, err = scanEvents(&Rows{pg: rows})
	return locked, events, err
}

// lockClaim is a claim on PostgreSQL: an open transaction holding the cursor's row, on a
// connection of the write pool held until the claim ends. Its statements go through pgx
// directly, as a write group's do (pgwrite.go), so that the cursor's move and the commit
// share a round trip.
type lockClaim struct {
	conn     *sql.Conn
	pc       *pgx.Conn
	consumer string
	events   []outbox.Event
	ended    bool // the transaction committed or rolled back, and conn went back
}

func (c *lockClaim) Events() []outbox.Event { return c.events }

func (c *lockClaim) Advance(ctx context.Context, now time.Time, seq int64) error {
	return c.finish(ctx, `UPDATE outbox_cursors SET seq = $1, failures = 0, last_error = '', updated_at = $2 WHERE consumer = $3`,
		seq, Micros(now), c.consumer)
}

func (c *lockClaim) Fail(ctx context.Context, now time.Time, cause error) error {
	return c.finish(ctx, `UPDATE outbox_cursors SET failures = failures + 1, last_error = $1, updated_at = $2 WHERE consumer = $3`,
		truncate(cause.Error(), 2000), Micros(now), c.consumer)
}

// finish runs the cursor's update and the commit in one round trip, and ends the claim. Like
// the claim's, the round trip is not cut short when ctx ends.
func (c *lockClaim) finish(ctx context.Context, query string, args ...any) error {
	if c.ended {
		return errors.New("store: outbox claim already ended")
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), claimTimeout)
	defer cancel()
	b := &pgx.Batch{}
	b.Queue(query, args...)
	b.Queue(`COMMIT`)
	br := c.pc.SendBatch(ctx, b)
	_, err := br.Exec()
	if err == nil {
		_, err = br.Exec()
	}
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.Release()
		return mapErr(err)
	}
	c.ended = true
	c.conn.Close()
	return nil
}

// Release rolls the transaction back, unless it ended, and gives the connection back; one
// whose rollback failed is dropped instead.
func (c *lockClaim) Release() {
	if c.ended {
		return
	}
	c.ended = true
	ctx, cancel := context.WithTimeout(context.Background(), claimTimeout)
	defer cancel()
	if _, err := c.pc.Exec(ctx, `ROLLBACK`); err != nil {
		c.conn.Raw(func(any) error { return errBadConn })
	}
	c.conn.Close()
}

// leaseClaim is a claim on SQLite: a lease written on the cursor's row.
type leaseClaim struct {
	db       *DB
	consumer string
	owner    string
	expires  int64
	events   []outbox.Event
	done     bool
}

func (c *leaseClaim) Events() []outbox.Event { return c.events }

func (c *leaseClaim) Advance(ctx context.Context, now time.Time, seq int64) error {
	return c.finish(ctx, now, `seq = ?, failures = 0, last_error = ''`, seq)
}

func (c *leaseClaim) Fail(ctx context.Context, now time.Time, cause error) error {
	return c.finish(ctx, now, `failures = failures + 1, last_error = ?`, truncate(cause.Error(), 2000))
}

func (c *leaseClaim) finish(ctx context.Context, now time.Time, set string, args ...any) error {
	args = append(args, Micros(now), c.consumer, c.owner, c.expires)
	err := c.db.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE outbox_cursors SET `+set+`, updated_at = ?, lease_owner = NULL, lease_expires_at = NULL
			WHERE consumer = ? AND lease_owner = ? AND lease_expires_at = ?`, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return errors.Join(err, ErrClaimLost)
		}
		return nil
	})
	if err == nil || errors.Is(err, ErrClaimLost) {
		c.done = true // otherwise Release still gives the lease back
	}
	return err
}

func (c *leaseClaim) Release() {
	if c.done {
		return
	}
	c.done = true
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c.db.Write(ctx, time.Now(), func(q *Q) error {
		_, err := q.Exec(ctx, `UPDATE outbox_cursors SET lease_owner = NULL, lease_expires_at = NULL
			WHERE consumer = ? AND lease_owner = ? AND lease_expires_at = ?`, c.consumer, c.owner, c.expires)
		return err
	})
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}

func (o Outbox) ConsumerLag(ctx context.Context, consumer string, now time.Time) (outbox.Lag, error) {
	var lag outbox.Lag
	var oldest sql.NullInt64
	err := o.DB.Read().QueryRow(ctx, `SELECT c.failures, COUNT(e.seq), MIN(e.created_at)
		FROM outbox_cursors c LEFT JOIN outbox_events e ON e.seq > c.seq
		WHERE c.consumer = ? GROUP BY c.failures`, consumer).Scan(&lag.Failures, &lag.Pending, &oldest)
	if errors.Is(err, ErrNotFound) {
		return lag, nil
	}
	if oldest.Valid {
		lag.Oldest = max(now.Sub(FromMicros(oldest.Int64)), 0)
	}
	return lag, err
}

func (o Outbox) PruneEvents(ctx context.Context, now, cutoff time.Time) (int64, error) {
	var n int64
	err := o.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `DELETE FROM outbox_events WHERE created_at < ?`, Micros(cutoff))
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return n, err
}

// ListenEvents calls wake whenever another transaction, of any instance, commits events,
// until ctx ends; on SQLite it returns at once (other processes writing to the same file are
// rare, the admin commands, and consumers poll for them). Notifications are a wake-up only:
// one lost while the connection was being replaced is made up for by the consumers' poll.
func (db *DB) ListenEvents(ctx context.Context, wake func()) {
	if db.Engine != Postgres {
		return
	}
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		if listened := db.listen(ctx, wake); listened {
			backoff = 100 * time.Millisecond
		}
		if ctx.Err() != nil {
			return
		}
		// The connection failed or broke: the consumers' poll covers the gap; reconnect
		// after a pause.
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(backoff*2, 10*time.Second)
		wake() // events may have been written while no one listened
	}
}

// listen waits for notifications on one connection until it fails or ctx ends; listened
// says whether it got as far as listening.
func (db *DB) listen(ctx context.Context, wake func()) (listened bool) {
	conn, err := pgx.Connect(ctx, db.dsn)
	if err != nil {
		return false
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if _, err := conn.Exec(ctx, `LISTEN `+notifyChannel); err != nil {
		return false
	}
	for {
		if _, err := conn.WaitForNotification(ctx); err != nil {
			return true
		}
		wake()
	}
}

// emitAfter writes an event when the statement before it (whose error is err) succeeded.
func (q *Q) emitAfter(err error, kind, orgID, spaceID, subject string, data any) error {
	if err != nil {
		return err
	}
	return q.Emit(kind, orgID, spaceID, subject, data)
}

// memberEvent and teamEvent are the data of member and team events.
type memberEvent struct {
	Role string `json:"role,omitempty"`
	Team string `json:"team,omitempty"`
}

// SpacesBehind returns the spaces that have events a consumer has not processed yet: what it
// derives for them may lag their content for now without anything being wrong.
func (o Outbox) SpacesBehind(ctx context.Context, consumer string) (map[string]bool, error) {
	rows, err := o.DB.Read().Query(ctx, `SELECT DISTINCT e.space_id FROM outbox_events e
		JOIN outbox_cursors c ON e.seq > c.seq WHERE c.consumer = ? AND e.space_id <> ''`, consumer)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	behind := map[string]bool{}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		behind[id] = true
	}
	return behind, rows.Err()
}

// LastEventSeq is the number of the last event written (0 before the first): the events up
// to it are all visible once it is (they are numbered in commit order).
func (o Outbox) LastEventSeq(ctx context.Context) (int64, error) {
	var seq int64
	err := o.DB.Read().QueryRow(ctx, `SELECT seq FROM outbox_state WHERE id = 1`).Scan(&seq)
	return seq, err
}

// EventsAfter returns up to limit events after seq, oldest first, without a cursor or a
// claim: for readers that keep their place in memory, each instance its own (see
// sitehttp's cache).
func (o Outbox) EventsAfter(ctx context.Context, seq int64, limit int) ([]outbox.Event, error) {
	return readEvents(ctx, o.DB.Read().Query, seq, limit)
}
