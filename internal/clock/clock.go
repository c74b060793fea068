// Package clock gives the application its notion of "now", so tests can move time.
package clock

import (
	"sync"
	"time"
)

// Clock returns the current time.
type Clock interface{ Now() time.Time }

// Real is the wall clock, in UTC.
type Real struct{}

func (Real) Now() time.Time { return time.Now().UTC() }

// Fake is a clock that tests advance by hand. It starts at the real time unless set.
type Fake struct {
	mu  sync.Mutex
	now time.Time
	off time.Duration
}

// NewFake returns a clock that follows the real time shifted by whatever Advance adds.
func NewFake() *Fake { return &Fake{} }

func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.now.IsZero() {
		return f.now
	}
	return time.Now().UTC().Add(f.off)
}

// Advance moves the clock forward by d.
func (f *Fake) Advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.now.IsZero() {
		f.now = f.now.Add(d)
		return
	}
	f.off += d
}

// Set freezes the clock at t.
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = t.UTC()
}
