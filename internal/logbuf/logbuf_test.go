package logbuf

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestLinesArriveWithinTheIntervalAndOnClose(t *testing.T) {
	dst := &lockedBuffer{}
	w := New(dst, 20*time.Millisecond)
	w.Write([]byte("first\n"))
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(dst.String(), "first") {
		if time.Now().After(deadline) {
			t.Fatal("a buffered line was never flushed")
		}
		time.Sleep(5 * time.Millisecond)
	}
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				w.Write([]byte("line\n"))
			}
		}()
	}
	wg.Wait()
	w.Write([]byte("last\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out := dst.String()
	if n := strings.Count(out, "line\n"); n != 8000 || !strings.HasSuffix(out, "last\n") {
		t.Fatalf("after Close: %d lines and suffix %q", n, out[len(out)-5:])
	}
	if _, err := w.Write([]byte("late\n")); err == nil {
		t.Error("a write after Close should fail")
	}
}

// Lines from many writers, several buffers' worth, arrive whole and each writer's in the
// order it wrote them, though full buffers are written outside the lock.
func TestFullBuffersKeepEveryWritersOrder(t *testing.T) {
	dst := &lockedBuffer{}
	w := New(dst, time.Millisecond) // the flusher runs beside the writers too
	const writers, lines = 8, 4000  // about 8 buffers of 64 KiB
	var wg sync.WaitGroup
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range lines {
				w.Write(fmt.Appendf(nil, "writer %d line %06d\n", i, j))
			}
		}()
	}
	wg.Wait()
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	next := make([]int, writers)
	for _, l := range strings.Split(strings.TrimSuffix(dst.String(), "\n"), "\n") {
		var i, j int
		if _, err := fmt.Sscanf(l, "writer %d line %d", &i, &j); err != nil || i < 0 || i >= writers {
			t.Fatalf("a line arrived broken: %q", l)
		}
		if j != next[i] {
			t.Fatalf("writer %d: line %d arrived where %d was due", i, j, next[i])
		}
		next[i]++
	}
	for i, n := range next {
		if n != lines {
			t.Errorf("writer %d: %d of %d lines arrived", i, n, lines)
		}
	}
}
