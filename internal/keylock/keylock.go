// Package keylock serialises work on one key (a space, say) within a process, while work on
// different keys runs in parallel.
package keylock

import (
	"context"
	"sync"
)

// Set holds one lock per key in use; a key's lock is dropped once nobody holds or waits for
// it, so the set stays as small as the number of keys being worked on.
type Set struct {
	mu    sync.Mutex
	locks map[string]*entry
}

type entry struct {
	token chan struct{} // holds one value while the key is free
	users int           // holders and waiters, under Set.mu
}

// Lock waits until the key is free and takes it, or returns ctx's error without taking it.
// The returned function releases the key; call it exactly once.
func (s *Set) Lock(ctx context.Context, key string) (unlock func(), err error) {
	s.mu.Lock()
	if s.locks == nil {
		s.locks = map[string]*entry{}
	}
	e := s.locks[key]
	if e == nil {
		e = &entry{token: make(chan struct{}, 1)}
		e.token <- struct{}{}
		s.locks[key] = e
	}
	e.users++
	s.mu.Unlock()

	select {
	case <-e.token:
		return func() { e.token <- struct{}{}; s.leave(key, e) }, nil
	case <-ctx.Done():
		s.leave(key, e)
		return nil, ctx.Err()
	}
}

func (s *Set) leave(key string, e *entry) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e.users--
	if e.users == 0 {
		delete(s.locks, key)
	}
}
