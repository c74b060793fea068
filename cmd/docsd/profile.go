package main

import (
	"fmt"
	"log/slog"
	"os"
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
