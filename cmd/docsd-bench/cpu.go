package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// clockTicksPerSecond is USER_HZ, the unit of the CPU times in /proc/<pid>/stat. It is part of
// Linux's user-space ABI and 100 on every architecture (sysconf(_SC_CLK_TCK) reports it), so
// the figure is read without cgo.
const clockTicksPerSecond = 100

// processCPU returns the user plus system CPU time that process pid has used so far, over all
// its threads. "self" names the calling process.
func processCPU(pid string) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, fmt.Errorf("read CPU time: %w", err)
	}
	return parseProcStat(b)
}

// parseProcStat reads utime and stime (fields 14 and 15) from a /proc/<pid>/stat line. The
// command name (field 2) is in parentheses and may itself hold spaces and parentheses, so
// fields are counted from the last ')'.
func parseProcStat(b []byte) (time.Duration, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("read CPU time: no command name in %q", b)
	}
	fields := bytes.Fields(b[i+1:])
	const utime, stime = 14 - 3, 15 - 3 // fields[0] is field 3, the state
	if len(fields) <= stime {
		return 0, fmt.Errorf("read CPU time: only %d fields after the command name", len(fields))
	}
	var ticks int64
	for _, f := range [][]byte{fields[utime], fields[stime]} {
		n, err := strconv.ParseInt(string(f), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("read CPU time: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicksPerSecond, nil
}
