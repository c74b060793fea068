package store

import (
	"context"
	"crypto/md5"
	"encoding/hex"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"docsd/internal/ids"
)

// An instance's lease lets it answer, on PostgreSQL, whether the database changed without
// asking it. Asking (generation.go) is a round trip shared by the requests waiting for it, yet
// it was 5-7% of a cached read's CPU: the socket's system calls, waking PostgreSQL and the
// waiting requests. The rule a lease relies on is that a write is acknowledged to its caller
// only once every instance holding a lease has taken it in, or its lease has run out. An
// instance whose lease runs, and that took in every write it was told of, then knows of every
// write acknowledged before now: its own counter (a number no database sum can equal, see
// trustedBit) stands for the generation, and moves whenever a write is taken in.
//
//   - Holding. An instance listens on its schema's channel, then registers in one
//     transaction: it moves outbox_generation.members on every shard row, which waits for the
//     writes in progress and makes every later write's update of its shard return the new
//     value, and writes its row of instance_leases, valid for leaseDuration by the database's
//     clock. It renews the row every renewEvery while its listening connection hears the pings
//     each renewal sends, and trusts its counter until leaseDuration - leaseMargin after it sent
//     the last renewal: the database's end of that row comes after.
//   - Writing (instances.go). The statement that moves a write's shard returns members. While
//     that is the value for which the process saw no other instance, the write is done at its
//     commit. Otherwise, after the commit, one statement notifies the channel and reads the
//     generation's sum G and the instances; the write then waits until every other instance
//     whose lease runs has seen a sum of at least G.
//   - Taking a write in. On a notification an instance reads the sum S, moves its counter,
//     then records S as seen and notifies its acknowledgement: every commit counted in S was
//     made before the counter moved.
//   - Gaps. Whenever trust resumes after it lapsed (a late renewal, a lost connection, a new
//     registration), the counter moves first: writes acknowledged meanwhile without this
//     instance are older than its new value.
//
// Only `docsd serve` holds a lease (DB.HoldLease); other processes, such as the admin
// commands, write by the same rule and read by asking.
type lease struct {
	db *DB
	id string

	duration, renewEvery, margin time.Duration

	base    time.Time     // until counts from here, on the monotonic clock
	until   atomic.Int64  // nanoseconds after base until which the counter stands; 0 while it does not
	counter atomic.Uint64 // the generation while trusted, but for trustedBit
	pinged  atomic.Uint64 // the last of this lease's pings its listening connection heard
	pid     atomic.Uint32 // the listening connection's backend, for tests
	want    chan struct{} // a write to take in (capacity one: several are taken in together)

	stop context.CancelFunc
	done chan struct{}
}

const (
	// leaseDuration is how long a lease runs after a renewal. A write made while an instance
	// that died still has its row waits for it that long at most.
	leaseDuration = 1500 * time.Millisecond
	// leaseRenewEvery spaces renewals: a few statements a second per instance.
	leaseRenewEvery = 300 * time.Millisecond
	// leaseMargin is how much sooner than the database an instance stops trusting its
	// counter: its renewal is sent before the database reads its clock, so the margin only
	// covers the two clocks' rates differing, and is large against that.
	leaseMargin = 400 * time.Millisecond
	// trustedBit marks the generations a lease gives: a sum of outbox_generation never has it,
	// so no answer computed while asking is taken for one computed while trusting.
	trustedBit = uint64(1) << 63
)

// HoldLease makes this process hold a lease on PostgreSQL until Close, so that its reads ask
// the database whether it changed only while the lease lapses; elsewhere it does nothing.
func (db *DB) HoldLease() { db.holdLease(leaseDuration, leaseRenewEvery, leaseMargin) }

func (db *DB) holdLease(duration, renewEvery, margin time.Duration) {
	if db.Engine != Postgres || db.lease.Load() != nil {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	l := &lease{db: db, id: ids.Random(16), duration: duration, renewEvery: renewEvery, margin: margin,
		base: time.Now(), want: make(chan struct{}, 1), stop: cancel, done: make(chan struct{})}
	if !db.lease.CompareAndSwap(nil, l) {
		cancel()
		return
	}
	go l.run(ctx)
}

// generation is the counter while the lease stands.
func (l *lease) generation() (uint64, bool) {
	if time.Since(l.base) >= time.Duration(l.until.Load()) {
		return 0, false
	}
	return trustedBit | l.counter.Load(), true
}

// wrote is called after this process commits a write, before the write returns.
func (l *lease) wrote() { l.counter.Add(1) }

// trust extends the lease after a registration or renewal sent at sent succeeded; fresh is a
// registration. The counter moves first when trust had lapsed: readers that find the new
// deadline find the new counter.
func (l *lease) trust(sent time.Time, fresh bool) {
	if fresh || time.Since(l.base) >= time.Duration(l.until.Load()) {
		l.counter.Add(1)
	}
	l.until.Store(int64(sent.Sub(l.base) + l.duration - l.margin))
}

// lapse stops trusting the counter at once.
func (l *lease) lapse() { l.until.Store(0) }

// close stops holding the lease and gives its row up, so that writes stop waiting for it.
func (l *lease) close() {
	l.stop()
	<-l.done
}

// run holds the lease until ctx ends, connecting again after a failure.
func (l *lease) run(ctx context.Context) {
	defer close(l.done)
	backoff := 100 * time.Millisecond
	for ctx.Err() == nil {
		if l.hold(ctx) {
			backoff = 100 * time.Millisecond
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(backoff):
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

// hold registers and renews the lease on two connections of its own (one listening, one for
// statements) until either fails, a renewal finds the row gone or expired, the listening
// connection stops hearing its pings, or ctx ends. It reports whether it registered. Trust
// has lapsed and the row is given up by the time it returns.
func (l *lease) hold(ctx context.Context) (registered bool) {
	hctx, cancel := context.WithCancel(ctx)
	defer cancel()
	listener, err := pgx.Connect(hctx, l.db.dsn)
	if err != nil {
		return false
	}
	defer listener.Close(context.Background())
	ctl, err := pgx.Connect(hctx, l.db.dsn)
	if err != nil {
		return false
	}
	defer ctl.Close(context.Background())
	var schema string
	if err := ctl.QueryRow(hctx, `SELECT current_schema()`).Scan(&schema); err != nil {
		return false
	}
	channel := changesChannel(schema)
	l.pid.Store(listener.PgConn().PID())
	if _, err := listener.Exec(hctx, `LISTEN `+pgx.Identifier{channel}.Sanitize()); err != nil {
		return false
	}
	l.pinged.Store(0) // this connection's pings count from 1 again
	lost := make(chan struct{})
	go func() {
		defer close(lost)
		l.listen(hctx, listener)
	}()
	defer func() {
		cancel()
		<-lost
	}()
	defer l.giveUp(ctl)

	// Every statement is bounded by the lease's length: one that takes longer has lost the
	// lease anyway, and a connection that stopped answering must not hold this loop.
	bounded := func() (context.Context, context.CancelFunc) { return context.WithTimeout(hctx, l.duration) }
	sent := time.Now()
	sctx, done := bounded()
	err = l.register(sctx, ctl)
	done()
	if err != nil {
		return false
	}
	l.trust(sent, true)
	ticker := time.NewTicker(l.renewEvery)
	defer ticker.Stop()
	var ping uint64
	for {
		select {
		case <-hctx.Done():
			return true
		case <-lost:
			return true
		case <-l.want:
			sctx, done := bounded()
			err := l.takeIn(sctx, ctl, channel)
			done()
			if err != nil {
				return true
			}
		case <-ticker.C:
			// The listening connection must have heard the ping before last: one that stopped
			// hearing would leave writes waiting for acknowledgements it cannot send.
			if ping >= 2 && l.pinged.Load() < ping-1 {
				return true
			}
			ping++
			sent := time.Now()
			sctx, done := bounded()
			renewed, err := l.renew(sctx, ctl, channel, ping)
			done()
			if err != nil || !renewed {
				return true
			}
			l.trust(sent, false)
		}
	}
}

// listen dispatches the channel's notifications until the connection fails or ctx ends:
// "c<id>" a write of instance id to take in, "a<id>:<sum>" instance id's acknowledgement of
// sum, which writes may be waiting for, "p<id>:<n>" instance id's ping n.
func (l *lease) listen(ctx context.Context, conn *pgx.Conn) {
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return
		}
		p := n.Payload
		switch {
		case strings.HasPrefix(p, "a"):
			if id, n, ok := strings.Cut(p[1:], ":"); ok {
				if seen, err := strconv.ParseInt(n, 10, 64); err == nil {
					l.db.instances.acknowledged(id, seen)
				}
			}
		case strings.HasPrefix(p, "c"):
			if p[1:] != l.id {
				select {
				case l.want <- struct{}{}:
				default:
				}
			}
		case strings.HasPrefix(p, "p"+l.id+":"):
			if k, err := strconv.ParseUint(p[len(l.id)+2:], 10, 64); err == nil && k > l.pinged.Load() {
				l.pinged.Store(k)
			}
		}
	}
}

// register writes the lease's row (see lease). The process's writes learn the new members
// value, and who else is registered, from it: the rows are locked, so no other registration
// comes between, and its own would otherwise send the next write to ask.
func (l *lease) register(ctx context.Context, ctl *pgx.Conn) error {
	var epoch, others int64
	err := pgx.BeginFunc(ctx, ctl, func(tx pgx.Tx) error {
		err := tx.QueryRow(ctx, `WITH u AS (UPDATE outbox_generation SET members = members + 1 RETURNING members)
			SELECT COALESCE(MAX(members), 0)::BIGINT FROM u`).Scan(&epoch)
		if err != nil {
			return err
		}
		// Rows of instances gone long ago: while one is left, every write asks after it.
		if _, err := tx.Exec(ctx, `DELETE FROM instance_leases WHERE expires_at < clock_timestamp() - interval '1 minute'`); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `INSERT INTO instance_leases (id, expires_at, seen)
			VALUES ($1, clock_timestamp() + make_interval(secs => $2), (SELECT COALESCE(SUM(n), 0) FROM outbox_generation))
			ON CONFLICT (id) DO UPDATE SET expires_at = EXCLUDED.expires_at, seen = EXCLUDED.seen`,
			l.id, l.duration.Seconds())
		if err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT count(*) FROM instance_leases WHERE id <> $1`, l.id).Scan(&others)
	})
	if err == nil {
		l.db.instances.saw(epoch, others)
	}
	return err
}

// renew extends the lease's row if it has not expired, with ping n: it reports false when
// the row was gone or expired, and the lease must be registered again.
func (l *lease) renew(ctx context.Context, ctl *pgx.Conn, channel string, n uint64) (bool, error) {
	tag, err := ctl.Exec(ctx, `WITH u AS (UPDATE instance_leases SET expires_at = clock_timestamp() + make_interval(secs => $2)
			WHERE id = $1 AND expires_at > clock_timestamp() RETURNING id)
		SELECT pg_notify($3, $4) FROM u`,
		l.id, l.duration.Seconds(), channel, "p"+l.id+":"+strconv.FormatUint(n, 10))
	if err != nil {
		return false, err
	}
	return tag.RowsAffected() == 1, nil
}

// takeIn takes in the writes notified so far (see lease): the sum first, then the counter,
// then the acknowledgement.
func (l *lease) takeIn(ctx context.Context, ctl *pgx.Conn, channel string) error {
	var sum int64
	if err := ctl.QueryRow(ctx, `SELECT COALESCE(SUM(n), 0)::BIGINT FROM outbox_generation`).Scan(&sum); err != nil {
		return err
	}
	l.counter.Add(1)
	_, err := ctl.Exec(ctx, `WITH u AS (UPDATE instance_leases SET seen = GREATEST(seen, $2) WHERE id = $1 RETURNING id)
		SELECT pg_notify($3, $4) FROM u`, l.id, sum, channel, "a"+l.id+":"+strconv.FormatInt(sum, 10))
	return err
}

// giveUp ends trust and deletes the lease's row, so that writes stop waiting for it; should
// that fail, the row expires. ctl may have been closed by a statement that the lease's end
// interrupted: another connection is opened then.
func (l *lease) giveUp(ctl *pgx.Conn) {
	l.lapse()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	const drop = `DELETE FROM instance_leases WHERE id = $1`
	if _, err := ctl.Exec(ctx, drop, l.id); err == nil {
		return
	}
	if conn, err := pgx.Connect(ctx, l.db.dsn); err == nil {
		conn.Exec(ctx, drop, l.id)
		conn.Close(ctx)
	}
}

// changesChannel is the channel of a schema's writes and acknowledgements: instances of
// other schemas of the database (other deployments, or tests) do not hear them.
func changesChannel(schema string) string {
	sum := md5.Sum([]byte(schema))
	return "docsd_changes_" + hex.EncodeToString(sum[:])
}

// changesChannelSQL is changesChannel in SQL, for statements that notify it.
const changesChannelSQL = `'docsd_changes_' || md5(current_schema())`
