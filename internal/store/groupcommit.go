package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"
)

// Group commit. On SQLite, which has one writer and with synchronous=FULL syncs the WAL at
// every commit, a commit was the largest part of a small write (a title PATCH spent 42% of
// its CPU there, on top of BEGIN, numbering its event and waking the outbox consumers, each
// once per write). On PostgreSQL, every transaction that writes events holds the outbox's
// numbering row from its last statement to its commit (outbox.go), so such transactions
// committed one at a time anyway, and BEGIN, numbering the events and COMMIT were three of a
// title PATCH's six round trips, each costing a write and a read on the socket and the
// wake-ups around them (most of its CPU).
//
// Writes that queue for the writer while another runs therefore share its transaction: each
// runs in a savepoint of its own, so that its failure rolls back only its own changes, and the
// last of the group commits all of them with one sync. Nobody is answered before that commit:
// a write's Write returns only once its changes are durable, and if the commit fails every
// write of the group gets the error, none of them having happened. Events are numbered and
// written once per group, in the order of the writes, so commit order and event order stay
// the same (README, "Event outbox"). On PostgreSQL this holds across processes sharing the
// database too: each process's groups take the numbering row last, as single writes did.
//
// A write that waits for the group's commit no longer holds the writer, so a write that
// arrives meanwhile joins the group; the group closes when nobody is waiting, or when it
// reaches maxGroupWrites writes or maxGroupAge, so that its first writer is answered in
// bounded time under a steady stream of writes.
//
// On PostgreSQL, where every statement is a round trip, a group spends none on savepoints:
// the first write of a group runs in none (should it fail, the whole transaction is rolled
// back and the group ends with it), and every other write's savepoint, releasing the previous
// one, is sent with its first statement (pgwrite.go). What a write defers goes with its next
// statement, or when another write waits, with that write's first: a title PATCH that joins
// a group then costs one round trip, its space read carrying the published addresses it
// asked for first and the previous write's update.
const (
	// maxGroupWrites also keeps a PostgreSQL group within the subtransactions a server
	// process tracks in shared memory (64), past which other sessions' visibility checks
	// slow down: a group has at most maxGroupWrites-1 savepoints.
	maxGroupWrites = 64
	maxGroupAge    = 20 * time.Millisecond
)

// groupCommit is the writer's state. turn is held (a value in the channel) by the one
// goroutine using the writer's transaction; waiting counts the writes queued for it.
type groupCommit struct {
	turn    chan struct{}
	waiting atomic.Int32
	open    *writeGroup   // the group whose transaction is open, under turn
	commits atomic.Uint64 // groups committed, for tests
	maxAge  time.Duration // maxGroupAge, but for tests that need a group to stay open
}

// writeGroup is one transaction shared by several writes.
type writeGroup struct {
	sqlTx      *sql.Tx  // on SQLite
	pg         *pgWrite // on PostgreSQL
	started    time.Time
	writes     int          // writes whose changes it holds
	batch      *Q           // the group's events and what runs after its commit
	unprepared []string     // statements its writes ran unprepared (Q.prepare)
	broken     error        // set when a write's rollback failed: the transaction cannot go on
	ran        int          // writes that ran in it, failed ones included
	savepoint  bool         // PostgreSQL: a savepoint of a write that ended well is still open
	ranges     []eventRange // PostgreSQL: where each write's events are in batch.events
	done       chan struct{}
	err        error // the commit's outcome, once done is closed
}

// eventRange is where a write's events are among its group's, to take them out should the
// write fail after it ended (lateFailure).
type eventRange struct {
	owner      *pgOwner
	start, end int
}

func newGroupCommit() groupCommit {
	return groupCommit{turn: make(chan struct{}, 1), maxAge: maxGroupAge}
}

// write is DB.Write.
func (g *groupCommit) write(ctx context.Context, db *DB, now time.Time, fn func(q *Q) error) error {
	// A write that queued waits for its turn whatever its context says: the writer ahead may
	// have left the group open for it (see finish), and must find it come.
	g.waiting.Add(1)
	g.turn <- struct{}{}
	g.waiting.Add(-1)

	grp := g.open
	if grp == nil {
		var err error
		if grp, err = db.begin(); err != nil {
			<-g.turn
			return err
		}
		grp.started, grp.done = time.Now(), make(chan struct{})
		grp.batch = &Q{db: db, tx: grp.sqlTx, pg: grp.pg, pool: db.writer, commitInline: db.Engine == Postgres}
		g.open = grp
	}
	q := &Q{db: db, tx: grp.sqlTx, pg: grp.pg, pool: db.writer, now: now}
	var panicked any
	err := ctx.Err()
	if err == nil {
		err, panicked = g.run(ctx, db, grp, q, fn)
	}
	if err == nil {
		grp.writes++
		start := len(grp.batch.events)
		grp.batch.events = append(grp.batch.events, q.events...)
		if q.owner != nil {
			grp.ranges = append(grp.ranges, eventRange{q.owner, start, len(grp.batch.events)})
		}
	}
	grp.unprepared = append(grp.unprepared, q.unprepared...)
	committing := g.finish(db, grp)
	if panicked != nil {
		panic(panicked)
	}
	// Even a write that failed waits for its group's commit: what made it fail (a row another
	// write of the group had just changed, say) must be visible to its caller once it returns,
	// or a caller that looks again (an index update that lost a race) sees the state from
	// before the group and fails the same way until the group commits.
	if !committing {
		<-grp.done
	}
	if err != nil {
		return err
	}
	if grp.err != nil {
		return grp.err
	}
	if q.owner != nil && q.owner.err != nil {
		return q.owner.err
	}
	for _, f := range q.afterCommit {
		f()
	}
	return nil
}

// begin opens a group's transaction. On PostgreSQL it is begun with statements on a
// connection of its own rather than through database/sql's transactions, sent with the
// group's first statement (pgwrite.go), so that its first round trip also takes the outbox's
// numbering row (which the group's events would take at its end anyway) and its last one
// also commits (finishPostgres). Taking the row first makes
// the groups of the processes sharing the database run one at a time, as the writes of one
// process do. Without that, two groups of unrelated writes, each holding the rows its writes
// changed, could wait for each other's rows: the server would end the deadlock by failing
// one of the writes, which alone would have gone through.
func (db *DB) begin() (*writeGroup, error) {
	ctx := context.Background()
	if db.Engine == Postgres {
		w, err := beginPostgres(ctx, db.writer, &db.writeRoundTrips)
		if err != nil {
			return nil, fmt.Errorf("begin: %w", mapErr(err))
		}
		grp := &writeGroup{pg: w}
		w.lateFailure = grp.lateFailure
		return grp, nil
	}
	tx, err := db.writer.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("begin: %w", mapErr(err))
	}
	return &writeGroup{sqlTx: tx}, nil
}

// rollback ends the group's transaction without its changes.
func (grp *writeGroup) rollback() {
	if grp.pg == nil {
		grp.sqlTx.Rollback()
		return
	}
	// Outside a transaction (its COMMIT failed) ROLLBACK only warns. A connection left in
	// one for any reason is dropped when the pool next hands it out (the driver checks).
	grp.pg.end(false)
}

// run runs one write in a savepoint of the group's transaction, releasing it if fn succeeds
// and rolling back to it otherwise (and on a panic, which it returns to be raised again once
// the writer is handed on).
func (g *groupCommit) run(ctx context.Context, db *DB, grp *writeGroup, q *Q, fn func(q *Q) error) (err error, panicked any) {
	if db.Engine == Postgres {
		return g.runPostgres(ctx, grp, q, fn)
	}
	if _, err := grp.sqlTx.ExecContext(context.WithoutCancel(ctx), `SAVEPOINT group_write`); err != nil {
		// The transaction is no longer usable: nothing more may join it.
		grp.broken = fmt.Errorf("savepoint: %w", mapErr(err))
		return grp.broken, nil
	}
	defer func() {
		if p := recover(); p != nil {
			panicked, err = p, fmt.Errorf("panic: %v", p)
		}
		var rerr error
		if err != nil {
			_, rerr = grp.sqlTx.ExecContext(context.WithoutCancel(ctx), `ROLLBACK TO group_write`)
		}
		if rerr == nil {
			_, rerr = grp.sqlTx.ExecContext(context.WithoutCancel(ctx), `RELEASE group_write`)
		}
		// A statement that failed may have rolled SQLite's whole transaction back (a full
		// disk, an I/O error): the savepoint is then gone, and so is every write of the group.
		if rerr != nil {
			grp.broken = fmt.Errorf("end savepoint: %w", mapErr(rerr))
			if err == nil {
				err = grp.broken
			}
		}
	}()
	if err := fn(q); err != nil {
		return err, nil
	}
	if q.failed != nil {
		return q.failed, nil
	}
	return q.confirmCallerToken(ctx), nil
}

// errFirstWriteFailed ends a PostgreSQL group whose first write, which ran in no savepoint,
// failed: its transaction is rolled back whole. Only that write sees the group's outcome,
// and it returns its own error.
var errFirstWriteFailed = errors.New("store: the group's first write failed")

// runPostgres is run on PostgreSQL, in as few round trips as it can (see the top of this
// file and pgwrite.go). The group's first write runs in no savepoint. Any other write's
// savepoint is opened, releasing the previous write's, in the round trip of the write's
// first statement (a write that runs none needs none); it is rolled back to only when the
// write fails after its savepoint was sent. Reads it queued, and statements it deferred, are
// sent before it ends, unless another write waits to carry the latter (see the end).
func (g *groupCommit) runPostgres(ctx context.Context, grp *writeGroup, q *Q, fn func(q *Q) error) (err error, panicked any) {
	w := grp.pg
	first := grp.ran == 0
	grp.ran++
	o := &pgOwner{savepoint: !first}
	w.current, w.failed, q.owner = o, nil, o
	if !first {
		if grp.savepoint {
			w.queue(pendingRelease, `RELEASE SAVEPOINT group_write`)
		}
		w.queue(pendingSavepoint, `SAVEPOINT group_write`)
	}
	defer func() {
		if p := recover(); p != nil {
			panicked, err = p, fmt.Errorf("panic: %v", p)
		}
		if err == nil {
			err = w.failed
		}
		defer func() { w.current = nil }()
		if err == nil {
			_, deferred := w.own()
			switch {
			case deferred || o.opened:
				grp.savepoint = !first // open, or opened with what it left to send
			case !first:
				w.dropOwn() // it ran nothing: the previous savepoint stays open
			}
			return
		}
		if w.broken != nil {
			grp.broken = w.broken
			return
		}
		if first {
			grp.broken = errFirstWriteFailed
			return
		}
		w.dropOwn()
		if !o.opened {
			return // nothing of this write reached the database
		}
		grp.savepoint = true
		// The savepoint stays open after it was rolled back to: the next write releases it.
		if _, rerr := w.exec(context.WithoutCancel(ctx), `ROLLBACK TO SAVEPOINT group_write`, nil); rerr != nil {
			grp.broken = fmt.Errorf("end savepoint: %w", mapErr(rerr))
		}
	}()
	if err := fn(q); err != nil {
		return err, nil
	}
	if err := q.confirmCallerToken(ctx); err != nil {
		return err, nil
	}
	// Reads it queued are sent now: it needs their rows. So are statements it deferred when
	// no other write waits to send them (or it is the group's first, which has no savepoint
	// to be undone by alone); otherwise they go with the next write's first statement, or
	// with the commit, and should one fail then, lateFailure undoes this write alone.
	if reads, deferred := w.own(); reads || deferred && (first || g.waiting.Load() == 0) {
		return w.flush(context.WithoutCancel(ctx)), nil
	}
	return nil, nil
}

// lateFailure undoes a write that ended well but whose deferred statement failed when it was
// sent with a later write's statement or the commit: nothing after it ran, so the most
// recent savepoint is that write's own. Its changes are rolled back, its events taken out of
// the group, and its caller gets err once the group commits.
func (grp *writeGroup) lateFailure(o *pgOwner, err error) error {
	if !o.savepoint {
		return fmt.Errorf("store: the group's first write failed: %w", err)
	}
	if _, rerr := grp.pg.exec(context.Background(), `ROLLBACK TO SAVEPOINT group_write`, nil); rerr != nil {
		return fmt.Errorf("end savepoint: %w", mapErr(rerr))
	}
	o.err = err
	grp.writes--
	for i, r := range grp.ranges {
		if r.owner != o {
			continue
		}
		grp.batch.events = slices.Delete(grp.batch.events, r.start, r.end)
		for j := i + 1; j < len(grp.ranges); j++ {
			grp.ranges[j].start -= r.end - r.start
			grp.ranges[j].end -= r.end - r.start
		}
		grp.ranges = slices.Delete(grp.ranges, i, i+1)
		break
	}
	return nil
}

// finish hands the writer on after a write: to a queued write, which joins the open group,
// or, when none waits (or the group is full, old or broken), to nobody after committing the
// group. It reports whether it committed.
func (g *groupCommit) finish(db *DB, grp *writeGroup) bool {
	if grp.broken == nil && g.waiting.Load() > 0 && grp.writes < maxGroupWrites && time.Since(grp.started) < g.maxAge {
		<-g.turn
		return false
	}
	g.open = nil
	grp.err = grp.commit()
	if grp.err == nil && grp.writes > 0 {
		g.commits.Add(1)
	}
	if len(grp.unprepared) > 0 {
		db.prepareForWrites(context.Background(), grp.unprepared)
	}
	<-g.turn
	if grp.err == nil && grp.pg != nil && grp.writes > 0 {
		// Before the writes return: the instances holding leases must have taken them in.
		db.committed(grp.batch.members)
	}
	close(grp.done)
	if grp.err == nil {
		for _, f := range grp.batch.afterCommit {
			f()
		}
	}
	return true
}

// commit writes the group's events and commits its transaction; with no write left in it,
// it rolls back instead.
func (grp *writeGroup) commit() error {
	ctx := context.Background()
	if grp.pg != nil && grp.broken == nil {
		// What the last writes deferred: a failure undoes its write alone (lateFailure).
		grp.pg.current = nil
		if err := grp.pg.flush(ctx); err != nil {
			grp.broken = err
		}
	}
	if grp.broken != nil || grp.writes == 0 {
		grp.rollback()
		if grp.broken == errFirstWriteFailed {
			return nil
		}
		return grp.broken
	}
	if err := grp.batch.beforeCommit(ctx); err != nil {
		grp.rollback()
		return err
	}
	if grp.pg == nil {
		if err := grp.sqlTx.Commit(); err != nil {
			return fmt.Errorf("commit: %w", mapErr(err))
		}
		return nil
	}
	if !grp.batch.committed {
		if _, err := grp.pg.exec(ctx, `COMMIT`, nil); err != nil {
			grp.rollback()
			return fmt.Errorf("commit: %w", mapErr(err))
		}
	}
	return grp.pg.end(true)
}
