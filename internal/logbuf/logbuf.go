// Package logbuf batches log output: one write system call per flush instead of one per
// line, which is a measurable share of a cheap request's cost. Lines reach the destination
// within the flush interval, and at once on Close (graceful shutdown); a process killed
// outright can lose at most one interval of lines.
package logbuf

import (
	"io"
	"sync"
	"time"
)

// bufferSize is how much is gathered before a write: a few hundred request lines.
const bufferSize = 64 << 10

// Writer is a buffered, periodically flushed, concurrency-safe io.Writer. Each Write reaches
// the destination whole and in order, never interleaved with another's.
//
// A write to the destination runs outside the lock that Write takes: callers that add a line
// while a full buffer is being written only append to the next one. (Writing it under that
// lock made every request that logged meanwhile wait for the system call, and under load
// the lock's contention was a good part of a cached read's log line.)
type Writer struct {
	mu     sync.Mutex // buf, spare, closed
	buf    []byte
	spare  []byte // a written buffer, to fill next
	closed bool

	out sync.Mutex // held while writing to dst, taken under mu so that buffers go in order
	dst io.Writer

	stop chan struct{}
	done chan struct{}
}

// New buffers writes to w and flushes them every interval.
func New(w io.Writer, interval time.Duration) *Writer {
	lw := &Writer{dst: w, buf: make([]byte, 0, bufferSize), stop: make(chan struct{}), done: make(chan struct{})}
	go lw.loop(interval)
	return lw
}

func (w *Writer) loop(interval time.Duration) {
	defer close(w.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			w.Flush()
		case <-w.stop:
			return
		}
	}
}

// LineAtomic marks Write as whole and ordered with concurrent callers (see jsonlog.New).
func (w *Writer) LineAtomic() {}

// Write buffers p; a buffer it fills is written out by this caller, after the lock. A p of
// direct bytes or more is written at once, after what is buffered.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return 0, io.ErrClosedPipe
	}
	if len(p) >= direct {
		// Written as it is, after what is buffered: copying it would cost more than the
		// system call it saves, and a buffer grown to hold it could not be reused.
		var full []byte
		if len(w.buf) > 0 {
			full = w.take()
		}
		w.out.Lock() // before unlocking mu: a buffer taken later is written later
		w.mu.Unlock()
		var err error
		if full != nil {
			_, err = w.dst.Write(full)
		}
		if err == nil {
			_, err = w.dst.Write(p)
		}
		if full == nil {
			w.out.Unlock()
		} else {
			w.recycle(full) // releases out
		}
		return len(p), err
	}
	if len(w.buf)+len(p) <= cap(w.buf) {
		w.buf = append(w.buf, p...)
		w.mu.Unlock()
		return len(p), nil
	}
	full := w.take()
	w.buf = append(w.buf, p...)
	w.out.Lock() // before unlocking mu: a buffer taken later is written later
	w.mu.Unlock()
	return len(p), w.writeOut(full)
}

// direct is the size from which a Write goes straight to the destination (a batch of request
// lines, jsonlog.Requests): the buffer gathers small writes.
const direct = bufferSize / 4

// take swaps the buffer for the spare one; w.mu is held.
func (w *Writer) take() []byte {
	full := w.buf
	w.buf, w.spare = w.spare[:0], nil
	if w.buf == nil {
		w.buf = make([]byte, 0, bufferSize)
	}
	return full
}

// writeOut writes b to the destination; w.out is held, and released here.
func (w *Writer) writeOut(b []byte) error {
	_, err := w.dst.Write(b)
	w.recycle(b)
	return err
}

// recycle releases w.out and keeps b, written, as the spare buffer.
func (w *Writer) recycle(b []byte) {
	w.out.Unlock()
	if cap(b) == bufferSize {
		w.mu.Lock()
		if w.spare == nil {
			w.spare = b[:0]
		}
		w.mu.Unlock()
	}
}

// Flush writes out what is buffered.
func (w *Writer) Flush() error {
	w.mu.Lock()
	if len(w.buf) == 0 {
		w.mu.Unlock()
		return nil
	}
	full := w.take()
	w.out.Lock()
	w.mu.Unlock()
	return w.writeOut(full)
}

// Close stops the flusher and writes out what is buffered. Later writes fail.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true
	w.mu.Unlock()
	close(w.stop)
	<-w.done
	return w.Flush()
}
