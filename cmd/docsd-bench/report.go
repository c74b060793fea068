package main

import (
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"text/tabwriter"
	"time"
)

// The targets, both relative to the bare handler measured in the same run.
const (
	minThroughputRatio = 0.5 // docsd's requests/s over the bare handler's, at least
	maxP99Ratio        = 2.0 // docsd's p99 over the bare handler's, at most
	// maxPostgresSlowdown bounds SQLite's requests/s over PostgreSQL's (with -postgres).
	maxPostgresSlowdown = 1.5
	// minPairScale is how much more two docsd instances sharing PostgreSQL must serve than one
	// (with -pg-instances 2), on a machine with at least minPairCPUs CPUs.
	minPairScale = 1.6
	minPairCPUs  = 8
)

type report struct {
	Options               options
	Targets               []target
	Overheads             []overheadResult // see overhead.go
	LoadBefore, LoadAfter string
	LogPath               string
}

func (r report) print(w io.Writer) {
	o := r.Options
	fmt.Fprintf(w, "\ndocsd-bench: %d connections on 127.0.0.1, closed loop; per endpoint and server %s warm-up, then %s measured in %d slices alternating between the servers\n",
		o.Connections, o.Warmup, o.Duration, o.Slices)
	fmt.Fprintf(w, "machine: %d CPUs shared by docsd, the bare handler and the load generator; load average %s before, %s after\n",
		runtime.NumCPU(), r.LoadBefore, r.LoadAfter)
	logs := "request logs on (a JSON line per request, to a file)"
	if o.LogLevel != "info" && o.LogLevel != "debug" {
		logs = "request logs OFF (lowered from docsd's default, info)"
	}
	engines := "SQLite"
	if o.Postgres != "" {
		engines = "SQLite, and PostgreSQL (docsd-pg)"
	}
	fmt.Fprintf(w, "docsd: %s, log level %s: %s; organization with %d members besides its admin\n\n",
		engines, o.LogLevel, logs, o.Members)

	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "endpoint\tserver\tbody B\treq/s\tp50 ms\tp99 ms\tserver CPU µs/req\tload gen CPU µs/req\terrors\treq/s vs bare\tp99 vs bare\t")
	for _, t := range r.Targets {
		if t.Unavailable != "" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t\n", t.Route)
			continue
		}
		rows := []struct {
			name string
			res  *loadResult
			body int
		}{{"bare", t.Bare, len(t.Body)}, {"docsd", t.Docsd, len(t.Body)}}
		if t.Postgres != nil {
			rows = append(rows, struct {
				name string
				res  *loadResult
				body int
			}{"docsd-pg", t.Postgres, len(t.PgBody)})
		}
		for _, row := range rows {
			res := row.res
			vsRate, vsP99 := "", ""
			if row.name != "bare" {
				vsRate = fmt.Sprintf("%.0f%%", 100*ratio(res.perSecond(), t.Bare.perSecond()))
				vsP99 = fmt.Sprintf("%.2f×", ratio(float64(res.Latency.quantile(0.99)), float64(t.Bare.Latency.quantile(0.99))))
			}
			errs := strconv.FormatInt(res.Errors, 10)
			if res.Dials > o.Connections {
				errs += fmt.Sprintf(" (%d reconnects)", res.Dials-o.Connections)
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%s\t%s\t%.1f\t%.1f\t%s\t%s\t%s\t\n",
				t.Route, row.name, row.body, res.perSecond(), ms(res.Latency.quantile(0.5)), ms(res.Latency.quantile(0.99)),
				micros(res.cpuPerRequest(0)), micros(res.cpuPerRequest(1)), errs, vsRate, vsP99)
		}
	}
	tw.Flush()

	fmt.Fprintln(w)
	for _, t := range r.Targets {
		if t.Unavailable != "" {
			fmt.Fprintf(w, "N/A   %s: unavailable (%s)\n", t.Route, t.Unavailable)
			continue
		}
		b, d := t.Bare, t.Docsd
		// The general targets are a read's: a write commits (and on PostgreSQL waits for
		// the database's commit), which a bare handler answering bytes does not, so a
		// write's figures against them are printed, not judged; its goal is its own
		// (endpoint.MaxCPURatio).
		judge, targetWord := verdict, "target"
		if t.method() != http.MethodGet {
			judge, targetWord = func(bool) string { return "info" }, "a read's target"
		}
		rate := ratio(d.perSecond(), b.perSecond())
		fmt.Fprintf(w, "%s  %s: requests/s %.0f = %.0f%% of bare %.0f (%s ≥ %.0f%%)\n",
			judge(rate >= minThroughputRatio), t.Route, d.perSecond(), 100*rate, b.perSecond(), targetWord, 100*minThroughputRatio)
		p99 := ratio(float64(d.Latency.quantile(0.99)), float64(b.Latency.quantile(0.99)))
		fmt.Fprintf(w, "%s  %s: p99 %s ms = %.2f× bare %s ms (%s ≤ %.0f×)\n",
			judge(p99 <= maxP99Ratio), t.Route, ms(d.Latency.quantile(0.99)), p99, ms(b.Latency.quantile(0.99)), targetWord, maxP99Ratio)
		if len(d.Phases) > 1 {
			lo, hi := phaseRatios(b, d)
			fmt.Fprintf(w, "info  %s: requests/s vs bare per slice: %.0f%% to %.0f%%\n", t.Route, 100*lo, 100*hi)
		}
		fmt.Fprintf(w, "info  %s: CPU per request %.1f µs = bare %.1f µs + %.1f µs\n",
			t.Route, micros(d.cpuPerRequest(0)), micros(b.cpuPerRequest(0)), micros(d.cpuPerRequest(0)-b.cpuPerRequest(0)))
		r.goals(w, t, "docsd", d)
		if d.Errors+b.Errors > 0 {
			fmt.Fprintf(w, "FAIL  %s: %d failed requests on docsd, %d on bare; first: %s%s\n", t.Route, d.Errors, b.Errors, d.FirstErr, b.FirstErr)
		}
		if p := t.Postgres; p != nil {
			slow := ratio(d.perSecond(), p.perSecond())
			fmt.Fprintf(w, "%s  %s: PostgreSQL requests/s %.0f, SQLite's %.0f is %.2f× that (%s ≤ %.1f×)\n",
				judge(p.perSecond() > 0 && slow <= maxPostgresSlowdown), t.Route, p.perSecond(), d.perSecond(), slow, targetWord, maxPostgresSlowdown)
			r.goals(w, t, "docsd-pg", p)
			if p.Errors > 0 {
				fmt.Fprintf(w, "FAIL  %s: %d failed requests on docsd-pg; first: %s\n", t.Route, p.Errors, p.FirstErr)
			}
			if a, b := t.PgPair[0], t.PgPair[1]; a != nil && b != nil {
				both := a.perSecond() + b.perSecond()
				scale := ratio(both, p.perSecond())
				// Two instances can only serve more where there are cores for both of them, the
				// database and the load generator; below that the figure is printed, not judged.
				judged := verdict(scale >= minPairScale)
				if runtime.NumCPU() < minPairCPUs {
					judged = "info"
				}
				fmt.Fprintf(w, "%s  %s: two docsd instances on one PostgreSQL serve %.0f req/s (%.0f + %.0f), %.2f× one instance's %.0f (goal ≥ %.1f× with at least %d CPUs; this machine has %d)\n",
					judged, t.Route, both, a.perSecond(), b.perSecond(), scale, p.perSecond(), minPairScale, minPairCPUs, runtime.NumCPU())
				if a.Errors+b.Errors > 0 {
					fmt.Fprintf(w, "FAIL  %s: %d failed requests on the two instances; first: %s%s\n", t.Route, a.Errors+b.Errors, a.FirstErr, b.FirstErr)
				}
			}
		}
	}
	printOverhead(w, r.Overheads)
	if r.Options.Keep {
		fmt.Fprintf(w, "\ndocsd's log: %s\n", r.LogPath)
	}
}

// goals prints the endpoint's own goals (endpoint.MaxCPURatio, MinRate) for one docsd server:
// goal, figure, ratio and verdict.
func (r report) goals(w io.Writer, t target, server string, d *loadResult) {
	b := t.Bare
	if t.MaxCPURatio > 0 {
		cpu := ratio(float64(d.cpuPerRequest(0)), float64(b.cpuPerRequest(0)))
		fmt.Fprintf(w, "%s  %s: %s CPU per request %.1f µs = %.2f× bare %.1f µs (goal ≤ %.0f×)\n",
			verdict(b.cpuPerRequest(0) > 0 && cpu <= t.MaxCPURatio), t.Route, server, micros(d.cpuPerRequest(0)), cpu, micros(b.cpuPerRequest(0)), t.MaxCPURatio)
	}
	if t.MinRate > 0 {
		fmt.Fprintf(w, "%s  %s: %s requests/s %.0f (goal ≥ %.0f with %d connections)\n",
			verdict(d.perSecond() >= t.MinRate), t.Route, server, d.perSecond(), t.MinRate, r.Options.Connections)
	}
}

// failed reports whether any measured request failed.
func (r report) failed() bool {
	for _, t := range r.Targets {
		if t.Unavailable == "" && t.Bare.Errors+t.Docsd.Errors > 0 {
			return true
		}
		if t.Unavailable == "" && t.Postgres != nil && t.Postgres.Errors > 0 {
			return true
		}
		if a, b := t.PgPair[0], t.PgPair[1]; t.Unavailable == "" && a != nil && b != nil && a.Errors+b.Errors > 0 {
			return true
		}
	}
	return false
}

// phaseRatios is the lowest and highest docsd-to-bare requests/s ratio over the slices, a
// measure of how much the machine's noise moved the result.
func phaseRatios(b, d *loadResult) (lo, hi float64) {
	for i := range min(len(b.Phases), len(d.Phases)) {
		r := ratio(d.Phases[i], b.Phases[i])
		if i == 0 || r < lo {
			lo = r
		}
		if i == 0 || r > hi {
			hi = r
		}
	}
	return lo, hi
}

func verdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISS"
}

func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

func ms(d time.Duration) string { return strconv.FormatFloat(float64(d)/1e6, 'f', 3, 64) }

func micros(d time.Duration) float64 { return float64(d) / 1e3 }
