package batcher_test

import (
	"slices"
	"sync"
	"testing"
	"time"

	"docsd/internal/batcher"
)

// sink records the batches handed to it, and fails the test if two run at once.
type sink struct {
	t       *testing.T
	mu      sync.Mutex
	batches [][]int
	running bool
}

func (s *sink) take(items []int) {
	s.mu.Lock()
	if s.running {
		s.t.Error("two batches were handed over at the same time")
	}
	s.running = true
	s.mu.Unlock()
	time.Sleep(100 * time.Microsecond) // long enough for another hand-over to collide
	s.mu.Lock()
	s.batches = append(s.batches, slices.Clone(items))
	s.running = false
	s.mu.Unlock()
}

func (s *sink) all() (batches [][]int, items []int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, b := range s.batches {
		items = append(items, b...)
	}
	return slices.Clone(s.batches), items
}

func TestBatchesOfSizeInOrderFromManyGoroutines(t *testing.T) {
	s := &sink{t: t}
	b := batcher.New(16, time.Hour, s.take)
	const goroutines, each = 8, 200
	var mu sync.Mutex // makes "the order Add took them" observable: next is added under it
	next := 0
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range each {
				mu.Lock()
				b.Add(next)
				next++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	batches, items := s.all()
	if len(items) != goroutines*each {
		t.Fatalf("%d items handed over, want %d (an hour's interval never fired)", len(items), goroutines*each)
	}
	for i, it := range items {
		if it != i {
			t.Fatalf("item %d is %d: batches out of order", i, it)
		}
	}
	for _, batch := range batches {
		if len(batch) != 16 {
			t.Fatalf("a batch of %d items, want 16", len(batch))
		}
	}
}

func TestIntervalHandsOverWhatWaits(t *testing.T) {
	s := &sink{t: t}
	b := batcher.New(1000, 20*time.Millisecond, s.take)
	b.Add(1)
	b.Add(2)
	if _, items := s.all(); len(items) != 0 {
		t.Fatalf("handed over %v before the interval", items)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		if _, items := s.all(); slices.Equal(items, []int{1, 2}) {
			break
		}
		if time.Now().After(deadline) {
			_, items := s.all()
			t.Fatalf("after 5s of a 20ms interval, got %v, want [1 2]", items)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The timer is armed again by the next item after a hand-over.
	b.Add(3)
	for {
		if _, items := s.all(); slices.Equal(items, []int{1, 2, 3}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the second interval never handed over item 3")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestFlushAndClose(t *testing.T) {
	s := &sink{t: t}
	b := batcher.New(1000, time.Hour, s.take)
	b.Flush() // nothing waits: returns at once
	b.Add(1)
	b.Add(2)
	b.Flush()
	if batches, _ := s.all(); len(batches) != 1 || !slices.Equal(batches[0], []int{1, 2}) {
		t.Fatalf("after Flush: %v, want [[1 2]]", batches)
	}
	b.Add(3)
	b.Close()
	b.Add(4) // after Close: handed over at once, alone
	if batches, _ := s.all(); !slices.EqualFunc(batches, [][]int{{1, 2}, {3}, {4}}, slices.Equal) {
		t.Fatalf("after Close: %v, want [[1 2] [3] [4]]", batches)
	}
}

// A Flush that finds nothing waiting still returns only once the batch taken before it has
// been handed over: a caller reading what the function wrote (metrics) sees every item added
// before its call.
func TestFlushWaitsForTheBatchBeingHandedOver(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	var got []int
	var mu sync.Mutex
	b := batcher.New(2, time.Hour, func(items []int) {
		if items[0] == 1 {
			close(started)
			<-release
		}
		mu.Lock()
		got = append(got, items...)
		mu.Unlock()
	})
	go func() {
		b.Add(1)
		b.Add(2) // fills the batch: this goroutine hands it over, and blocks in it
	}()
	<-started
	flushed := make(chan struct{})
	go func() { b.Flush(); close(flushed) }()
	select {
	case <-flushed:
		t.Fatal("Flush returned while the batch taken before it was still being handed over")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-flushed
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(got, []int{1, 2}) {
		t.Fatalf("got %v, want [1 2]", got)
	}
}
