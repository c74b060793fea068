package main

import (
	"context"

	"docsd/internal/childserver"
)

// startDocsd runs `docsd serve` on a free loopback port. Uploaded imports are committed
// within their request (the benchmark times them), whatever their size.
func startDocsd(ctx context.Context, bin, dataDir, dbURL, logPath, cpuProfile, heapProfile string) (*childserver.Child, error) {
	// One token makes every edit, far past the default rate limits: they are set out of
	// reach, so that each request still pays for counting.
	return childserver.Start(ctx, childserver.Options{Bin: bin, DataDir: dataDir, DatabaseURL: dbURL, LogPath: logPath,
		Env: []string{"DOCSD_LOG_LEVEL=warn", "DOCSD_IMPORT_SYNC_PAGES=1000000", "DOCSD_MAX_BODY_BYTES=268435456",
			"DOCSD_RATE_LIMIT_TOKEN=1000000000", "DOCSD_RATE_LIMIT_ADDRESS=1000000000", "DOCSD_RATE_LIMIT_EXPENSIVE=1000000000",
			"DOCSD_CPU_PROFILE=" + cpuProfile, "DOCSD_HEAP_PROFILE=" + heapProfile}})
}

// peakRSS is the child's peak resident set size (VmHWM), in bytes.
func peakRSS(c *childserver.Child) (int64, error) {
	peak, _, err := c.Memory()
	return peak, err
}
