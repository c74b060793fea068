package logbuf

import (
	"bytes"
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
