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

// A large write (a batch of request lines) goes straight out, after what was buffered before
// it, and before what is written after it; concurrent writers still keep their own order.
func TestLargeWritesGoOutInOrder(t *testing.T) {
	dst := &writes{}
	w := New(dst, time.Hour) // no flush but the ones the writes cause
	w.Write([]byte("small 1\n"))
	large := bytes.Repeat([]byte("L"), direct)
	large[len(large)-1] = '\n'
	w.Write(large)
	w.Write([]byte("small 2\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := [][]byte{[]byte("small 1\n"), large, []byte("small 2\n")}
	if len(dst.each) != len(want) {
		t.Fatalf("%d writes reached the destination, want %d", len(dst.each), len(want))
	}
	for i := range want {
		if !bytes.Equal(dst.each[i], want[i]) {
			t.Fatalf("write %d: %.20q…, want %.20q…", i, dst.each[i], want[i])
		}
	}
	// A large write to an empty buffer takes no buffer of its own.
	w2 := New(&writes{}, time.Hour)
	w2.Write(large)
	if w2.spare != nil || cap(w2.buf) != bufferSize {
		t.Error("a large write into an empty buffer replaced it")
	}
	w2.Close()

	// Many writers mixing small and large writes: every writer's lines arrive in its order.
	all := &lockedBuffer{}
	w3 := New(all, time.Millisecond)
	const writers, rounds = 4, 200
	var wg sync.WaitGroup
	for i := range writers {
		wg.Go(func() {
			for j := range rounds {
				line := fmt.Appendf(nil, "writer %d line %06d\n", i, j)
				if j%10 == 0 { // padded past direct: written straight out
					line = append(bytes.Repeat([]byte(" "), direct), line...)
				}
				w3.Write(line)
			}
		})
	}
	wg.Wait()
	w3.Close()
	next := make([]int, writers)
	for _, l := range strings.Split(strings.TrimSuffix(all.String(), "\n"), "\n") {
		var i, j int
		if _, err := fmt.Sscanf(strings.TrimLeft(l, " "), "writer %d line %d", &i, &j); err != nil || j != next[i] {
			t.Fatalf("line %.40q out of order or broken (writer %d expected line %d)", strings.TrimLeft(l, " "), i, next[i])
		}
		next[i]++
	}
	for i, n := range next {
		if n != rounds {
			t.Errorf("writer %d: %d of %d lines arrived", i, n, rounds)
		}
	}
}

// writes keeps each write to the destination apart.
type writes struct {
	mu   sync.Mutex
	each [][]byte
}

func (w *writes) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.each = append(w.each, bytes.Clone(p))
	return len(p), nil
}
