package main

import (
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"runtime/pprof"
)

// startCPUProfile profiles the process from now until the returned function runs (at the end
// of serve, after the graceful shutdown), so a server under load can be examined with
// `go tool pprof <docsd binary> <file>` without exposing a profiling endpoint.
func startCPUProfile(path string) (stop func(*slog.Logger), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("cpu-profile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cpu-profile: %w", err)
	}
	return func(log *slog.Logger) {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			log.Error("cpu-profile: write failed", "path", path, "err", err)
		}
	}, nil
}

// heapProfileAtStop writes the heap profile when the returned function runs (after the
// graceful shutdown, before the caches are dropped with the process): inuse_space shows what
// the caches and consumers still hold, alloc_space what the run allocated.
func heapProfileAtStop(path string) (stop func(*slog.Logger), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("heap-profile: %w", err)
	}
	return func(log *slog.Logger) {
		runtime.GC() // the profile's live figures are as of the last collection
		err := pprof.Lookup("heap").WriteTo(f, 0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			log.Error("heap-profile: write failed", "path", path, "err", err)
		}
	}, nil
}
