package main

import (
	"testing"
	"time"
)

func TestParseProcStatCountsUserAndSystemTime(t *testing.T) {
	t.Parallel()
	// The command name holds a space and a parenthesis, as names may.
	line := "4242 (docsd (x) y) S 1 4242 4242 0 -1 4194560 900 0 0 0 250 130 0 0 20 0 9 0 1000 1000000 2000 18446744073709551615\n"
	got, err := parseProcStat([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if want := 3800 * time.Millisecond; got != want {
		t.Errorf("CPU time = %v, want %v (250 + 130 ticks of 10ms)", got, want)
	}
	for _, bad := range []string{"", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 10 ten 11"} {
		if _, err := parseProcStat([]byte(bad)); err == nil {
			t.Errorf("parseProcStat(%q) succeeded", bad)
		}
	}
}

func TestProcessCPUGrowsWhileThisProcessWorks(t *testing.T) {
	t.Parallel()
	before, err := processCPU("self")
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	// Spin until a clock tick has been charged, bounded in time.
	deadline := time.Now().Add(10 * time.Second)
	x := 0
	for time.Now().Before(deadline) {
		for i := range 1_000_000 {
			x += i
		}
		after, err := processCPU("self")
		if err != nil {
			t.Fatal(err)
		}
		if after > before {
			return
		}
	}
	t.Errorf("CPU time stayed at %v through 10s of work (%d)", before, x)
}
