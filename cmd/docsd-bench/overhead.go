package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The request overhead: what a cached page read (the "page" endpoint) spends on the
// per-request log line and metrics, and on the database change check that decides whether
// the cached answer is still good. A cached read does little else, so these are a large part
// of it. They cannot be switched off (the cache needs the check), so their share is read from
// a CPU profile: a docsd of its own, on the same data, serves only that read for the
// warm-up and the measured time, and its profile is asked how much of the process's CPU went
// through each group of functions. A request hands its log line and metrics to a batch
// (logRequest), written later by whichever goroutine hands the batch over (writeFinished,
// through the batcher): the three count as logging, each sample once.
const (
	maxOverheadShare = 0.05 // log line, metrics and change check over the cached read's CPU, below
	logFocus         = `^docsd/internal/httpapi\.\(\*Server\)\.(logRequest|writeFinished)$|^docsd/internal/batcher\.`
	checkFocus       = `^docsd/internal/httpapi\.\(\*Server\)\.requestGeneration$`
)

// overheadResult is one server's figures.
type overheadResult struct {
	Server          string
	Requests        int64
	Total, Log, Gen time.Duration // CPU in the profile: all of it, and under each function
	Err             string        // why there is no figure
}

func (r overheadResult) share() float64 { return ratio(float64(r.Log+r.Gen), float64(r.Total)) }

// overheadRun is what measureOverhead needs of one engine: a docsd started like the measured
// one, and the cached read's load.
type overheadRun struct {
	Server  string // as the report names it: docsd, docsd-pg
	DataDir string
	DBURL   string // empty for SQLite
	Spec    loadSpec
}

// measureOverhead starts another docsd on run's data (a second instance, as a fleet runs),
// drives the cached read at it for o.Warmup and o.Duration, stops it and reads its profile.
func measureOverhead(ctx context.Context, o options, bin, tmp string, run overheadRun) overheadResult {
	res := overheadResult{Server: run.Server}
	fail := func(err error) overheadResult { res.Err = err.Error(); return res }
	goTool, err := exec.LookPath("go")
	if err != nil {
		return fail(fmt.Errorf("the go command reads the profile: %w", err))
	}
	prof := filepath.Join(tmp, run.Server+"-overhead.prof")
	srv, _, err := startDocsd(ctx, docsdOptions{Binary: bin, DataDir: run.DataDir, DatabaseURL: run.DBURL, Joining: true,
		LogPath: filepath.Join(tmp, run.Server+"-overhead.log"), LogLevel: o.LogLevel, CPUProfile: prof})
	if err != nil {
		return fail(err)
	}
	defer srv.stop()
	loads, err := openLoads([]measured{{srv, run.Spec}}, false)
	defer closeLoads(loads)
	if err != nil {
		return fail(err)
	}
	if err := loads[0].phase(ctx, o.Warmup, false); err != nil {
		return fail(err)
	}
	if err := loads[0].phase(ctx, o.Duration, true); err != nil {
		return fail(err)
	}
	lr := loads[0].finish()
	res.Requests = lr.Requests
	if lr.Errors > 0 {
		return fail(fmt.Errorf("%d failed requests; first: %s", lr.Errors, lr.FirstErr))
	}
	if err := srv.stop(); err != nil { // docsd writes its profile as it stops
		return fail(err)
	}
	if res.Total, res.Log, err = focusedCPU(ctx, goTool, bin, prof, logFocus); err != nil {
		return fail(err)
	}
	if _, res.Gen, err = focusedCPU(ctx, goTool, bin, prof, checkFocus); err != nil {
		return fail(err)
	}
	return res
}

// focusedCPU asks pprof for the CPU of the samples with a function matching focus in their
// stack, each sample counted once, and for the profile's total.
func focusedCPU(ctx context.Context, goTool, bin, prof, focus string) (total, matched time.Duration, err error) {
	out, err := exec.CommandContext(ctx, goTool, "tool", "pprof", "-top", "-unit=ms", "-focus="+focus,
		"-nodecount=1000000", "-nodefraction=0", "-edgefraction=0", bin, prof).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("go tool pprof -focus=%s: %w", focus, err)
	}
	return parseFocusedTop(bytes.NewReader(out))
}

// parseFocusedTop reads `go tool pprof -top -unit=ms -focus=… -nodecount=<all>`: the profile's
// total, and what the shown nodes, every node of the focused samples, account for.
func parseFocusedTop(r io.Reader) (total, matched time.Duration, err error) {
	sc := bufio.NewScanner(r)
	seenMatched := false
	for sc.Scan() {
		line := sc.Text()
		if _, rest, ok := strings.Cut(line, "Total samples = "); ok {
			f, _, _ := strings.Cut(rest, " ")
			if total, err = millis(f); err != nil {
				return 0, 0, fmt.Errorf("profile total %q: %w", f, err)
			}
			continue
		}
		if _, rest, ok := strings.Cut(line, "Showing nodes accounting for "); ok {
			f, _, _ := strings.Cut(rest, ",")
			if matched, err = millis(f); err != nil {
				return 0, 0, fmt.Errorf("focused samples %q: %w", f, err)
			}
			seenMatched = true
		}
	}
	if err := sc.Err(); err != nil {
		return 0, 0, err
	}
	if total <= 0 {
		return 0, 0, fmt.Errorf("the profile has no samples")
	}
	if !seenMatched {
		return 0, 0, fmt.Errorf("pprof printed no total for the focused samples")
	}
	return total, matched, nil
}

// millis parses a figure pprof printed with -unit=ms, such as "130ms" (or "0" for none).
func millis(s string) (time.Duration, error) {
	f, err := strconv.ParseFloat(strings.TrimSuffix(s, "ms"), 64)
	return time.Duration(f * float64(time.Millisecond)), err
}

// printOverhead prints each server's figures and verdict.
func printOverhead(w io.Writer, results []overheadResult) {
	for _, r := range results {
		route := "request overhead of a cached page read"
		if r.Err != "" {
			fmt.Fprintf(w, "N/A   %s: %s: %s\n", route, r.Server, r.Err)
			continue
		}
		fmt.Fprintf(w, "%s  %s: %s log line and metrics %.0f ms + change check %.0f ms of %.0f ms CPU over %d reads = %.1f%% (goal < %.0f%%)\n",
			verdict(r.share() < maxOverheadShare), route, r.Server, ms64(r.Log), ms64(r.Gen), ms64(r.Total), r.Requests,
			100*r.share(), 100*maxOverheadShare)
	}
}

func ms64(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
