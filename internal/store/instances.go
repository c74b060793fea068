package store

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// instances is what this process's writes on PostgreSQL know of the instances holding leases
// (lease.go): whether, as of a members value, any other was registered. A write whose shard
// update returns that value, with none, is done at its commit; any other waits for the
// instances to take it in (awaitInstances).
type instances struct {
	mu    sync.Mutex
	known bool             // epoch and alone were read
	epoch int64            // outbox_generation.members when they were
	alone bool             // no other instance had a row then
	acks  chan struct{}    // closed at the next acknowledgement heard
	heard map[string]int64 // the largest sum each instance was heard acknowledging

	awaited atomic.Uint64 // commits that asked after the instances, for tests
	gaveUp  atomic.Uint64 // writes that stopped waiting at maxAckWait, for tests
}

// maxAckWait bounds a write's wait for the instances. An instance that died, or cannot hear
// the channel, gives its row up or sees it expire well within it: past it something else is
// wrong, and the write, committed long ago, returns rather than hang.
const maxAckWait = leaseDuration + 4*leaseRenewEvery + time.Second

// done reports whether a write whose shard update returned epoch needs nothing more.
func (s *instances) done(epoch int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.known && s.alone && s.epoch == epoch
}

// saw notes what a statement read of the instances, unless the process already knows of a
// later registration.
func (s *instances) saw(epoch int64, others int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.known || epoch >= s.epoch {
		s.known, s.epoch, s.alone = true, epoch, others == 0
	}
}

// acknowledged notes that instance id has seen the sum seen, and wakes the writes waiting.
func (s *instances) acknowledged(id string, seen int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.heard == nil {
		s.heard = map[string]int64{}
	}
	if seen > s.heard[id] {
		s.heard[id] = seen
	}
	if s.acks != nil {
		close(s.acks)
		s.acks = nil
	}
}

// stillPending returns the instances of ids not heard acknowledging sum or more.
func (s *instances) stillPending(ids []string, sum int64) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.DeleteFunc(ids, func(id string) bool { return s.heard[id] >= sum })
}

// ackSignal is closed at the next acknowledgement heard.
func (s *instances) ackSignal() <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.acks == nil {
		s.acks = make(chan struct{})
	}
	return s.acks
}

// committed is called once a PostgreSQL write transaction has committed, before its writes
// return; epoch is the members value its shard update returned.
func (db *DB) committed(epoch int64) {
	l := db.lease.Load()
	if l != nil {
		l.wrote()
	}
	if db.instances.done(epoch) {
		return
	}
	db.awaitInstances(l)
}

// awaitInstances notifies the channel of a write that committed and waits until every other
// instance whose lease runs has seen the generation sum read with the notification (which
// counts the write), at most maxAckWait. own is this process's lease, if it holds one: its
// listening connection hears the acknowledgements, each naming its instance and sum, so a
// write asks the database again only every poll, for instances that may have stopped
// (asking at every acknowledgement made each one cost a statement per write waiting). The
// rows of instances gone for a minute are deleted on the way: while one is left, every write
// comes here (the statement still counts it, and the next write finds it gone).
func (db *DB) awaitInstances(own *lease) {
	db.instances.awaited.Add(1)
	ctx, cancel := context.WithTimeout(context.Background(), maxAckWait)
	defer cancel()
	me := ""
	poll := 20 * time.Millisecond // without a listener of its own, the process asks again
	if own != nil {
		me = own.id
		poll = 100 * time.Millisecond
	}
	var sum, epoch, others int64
	var pending string
	for {
		err := db.reader.QueryRowContext(ctx, `WITH s AS (SELECT COALESCE(SUM(n), 0)::BIGINT AS g,
				COALESCE(MAX(members), 0)::BIGINT AS m FROM outbox_generation),
			c AS (SELECT pg_notify(`+changesChannelSQL+`, $2)),
			d AS (DELETE FROM instance_leases WHERE expires_at < clock_timestamp() - interval '1 minute')
			SELECT s.g, s.m, (SELECT count(*) FROM instance_leases WHERE id <> $1),
				(SELECT COALESCE(string_agg(id, ','), '') FROM instance_leases
					WHERE id <> $1 AND expires_at > clock_timestamp() AND seen < s.g)
			FROM s, c`, me, "c"+me).Scan(&sum, &epoch, &others, &pending)
		if err == nil {
			break
		}
		if !sleepCtx(ctx, poll) {
			db.instances.gaveUp.Add(1)
			return
		}
	}
	db.instances.saw(epoch, others)
	ids := splitIDs(pending)
	next := time.Now().Add(poll)
	for {
		signal := db.instances.ackSignal()
		if ids = db.instances.stillPending(ids, sum); len(ids) == 0 {
			return
		}
		t := time.NewTimer(time.Until(next))
		select {
		case <-signal:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
		if ctx.Err() != nil {
			db.instances.gaveUp.Add(1)
			return
		}
		if time.Now().Before(next) {
			continue
		}
		// Those not heard from may have stopped, or been heard by no listener of this process.
		if err := db.reader.QueryRowContext(ctx, `SELECT COALESCE(string_agg(id, ','), '') FROM instance_leases
			WHERE id = ANY(string_to_array($1, ',')) AND expires_at > clock_timestamp() AND seen < $2`,
			strings.Join(ids, ","), sum).Scan(&pending); err == nil {
			ids = splitIDs(pending)
		}
		next = time.Now().Add(poll)
	}
}

// splitIDs reads a list of lease ids joined by commas (they are letters and digits).
func splitIDs(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ",")
}

// sleepCtx sleeps for d unless ctx ends first; it reports whether ctx is still alive.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
