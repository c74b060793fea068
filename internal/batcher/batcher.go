// Package batcher hands items added by many goroutines to one function, a batch at a time
// and in the order they were added. The server records each finished request this way: its
// log line and metrics cost several times more when every request writes them, cold, among
// its own work (the formatting tables, the metrics' counters and the log buffer all touched
// once per request and shared by every core), than when one goroutine writes a few hundred
// in a row.
package batcher

import (
	"sync"
	"time"
)

// Batcher gathers items for its function. An item is handed over once size items wait, by
// the goroutine that added the last of them, or after the interval since the first of them
// was added, by a timer; Flush and Close hand over at once. The function never runs twice at
// the same time, and it gets the items in the order Add took them.
//
// Items reach the function within the interval; a process that dies loses those still
// waiting, as it would lose a buffered log line.
type Batcher[T any] struct {
	fn       func([]T)
	size     int
	interval time.Duration

	mu      sync.Mutex // items, spare, timer, closed
	items   []T
	spare   []T // a handed-over batch, emptied, to fill next
	timer   *time.Timer
	armed   bool
	closed  bool
	running sync.Mutex // held while fn runs; taken under mu, so that batches go in order
}

// New returns a Batcher handing batches of at most size items to fn.
func New[T any](size int, interval time.Duration, fn func([]T)) *Batcher[T] {
	b := &Batcher[T]{fn: fn, size: max(size, 1), interval: interval}
	b.items = make([]T, 0, b.size)
	b.timer = time.AfterFunc(time.Hour, b.Flush)
	b.timer.Stop()
	return b
}

// Add queues item. After Close, the item is handed over at once, alone.
func (b *Batcher[T]) Add(item T) {
	b.mu.Lock()
	if b.closed {
		b.running.Lock()
		b.mu.Unlock()
		b.fn([]T{item})
		b.running.Unlock()
		return
	}
	b.items = append(b.items, item)
	if len(b.items) < b.size {
		if !b.armed {
			b.armed = true
			b.timer.Reset(b.interval)
		}
		b.mu.Unlock()
		return
	}
	b.handOver() // unlocks mu
}

// Flush hands over every item added before it was called, and returns once fn has had them.
func (b *Batcher[T]) Flush() {
	b.mu.Lock()
	if len(b.items) == 0 {
		b.mu.Unlock()
		// A batch taken before this call may still be with fn: wait for it.
		b.running.Lock()
		b.running.Unlock()
		return
	}
	b.handOver()
}

// Close hands over what waits; later items are handed over one at a time, as they come.
func (b *Batcher[T]) Close() {
	b.mu.Lock()
	b.closed = true
	b.mu.Unlock()
	b.timer.Stop()
	b.Flush()
}

// handOver takes the waiting items and runs fn on them; b.mu is held, and released here.
func (b *Batcher[T]) handOver() {
	batch := b.items
	b.items, b.spare = b.spare[:0], nil
	if b.items == nil {
		b.items = make([]T, 0, b.size)
	}
	if b.armed {
		b.armed = false
		b.timer.Stop()
	}
	b.running.Lock() // before mu is let go: a batch taken later runs later
	b.mu.Unlock()
	b.fn(batch)
	b.running.Unlock()
	clear(batch) // the items' references are not kept alive by the spare
	b.mu.Lock()
	if b.spare == nil && cap(batch) >= b.size {
		b.spare = batch[:0]
	}
	b.mu.Unlock()
}
