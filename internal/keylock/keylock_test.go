package keylock

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestOneHolderPerKey(t *testing.T) {
	var s Set
	var inside, most atomic.Int32
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := s.Lock(context.Background(), "a")
			if err != nil {
				t.Error(err)
				return
			}
			n := inside.Add(1)
			for {
				m := most.Load()
				if n <= m || most.CompareAndSwap(m, n) {
					break
				}
			}
			time.Sleep(time.Millisecond)
			inside.Add(-1)
			unlock()
		}()
	}
	wg.Wait()
	if most.Load() != 1 {
		t.Fatalf("%d holders of one key at once", most.Load())
	}
	if len(s.locks) != 0 {
		t.Fatalf("%d keys left in the set after every holder left", len(s.locks))
	}
}

func TestOtherKeysDoNotWait(t *testing.T) {
	var s Set
	unlock, _ := s.Lock(context.Background(), "a")
	defer unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	u, err := s.Lock(ctx, "b")
	if err != nil {
		t.Fatalf("key b waited for key a: %v", err)
	}
	u()
}

func TestWaitEndsWithContext(t *testing.T) {
	var s Set
	unlock, _ := s.Lock(context.Background(), "a")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.Lock(ctx, "a"); err == nil {
		t.Fatal("took a held key")
	}
	unlock()
	if len(s.locks) != 0 {
		t.Fatalf("a waiter that gave up left its key behind")
	}
	u, err := s.Lock(context.Background(), "a")
	if err != nil {
		t.Fatal(err)
	}
	u()
}
