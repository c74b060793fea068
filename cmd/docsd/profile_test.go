package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is stdout written by the server's goroutine and read by the test's.
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

func TestServeWritesTheCPUProfileWhenItStops(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "cpu.pprof")
	getenv := func(key string) string {
		switch key {
		case "DOCSD_CPU_PROFILE":
			return path
		case "DOCSD_HEAP_PROFILE":
			return filepath.Join(dir, "heap.pprof")
		}
		return ""
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-data-dir", dir}, getenv, &out, io.Discard)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "docsd is serving the API") {
		if time.Now().After(deadline) {
			t.Fatalf("docsd did not start; stdout: %s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	for _, p := range []string{path, filepath.Join(dir, "heap.pprof")} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		// A profile is gzip-compressed protocol buffers.
		if len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Fatalf("%s holds %d bytes that are not a gzip-compressed profile", p, len(b))
		}
	}
}

func TestServeRefusesAProfilePathItCannotWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	err := run(context.Background(), []string{"serve", "-addr", "127.0.0.1:0", "-data-dir", dir,
		"-cpu-profile", filepath.Join(dir, "missing", "cpu.pprof")}, func(string) string { return "" }, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "cpu-profile") {
		t.Fatalf("serve with an unwritable profile path: %v", err)
	}
}
