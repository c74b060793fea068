// Command docsd-contentbench measures how docsd's content costs grow with the size of a
// space. On generated spaces (about 300 words a page, in sections of 50) of each size it
// imports the markdown tree through the API, times change requests (create, edit one page,
// merge) through the API, counts the bytes one page edit writes to the database, reads pages
// by id in-process, and reads the server's peak memory; it prints a table and PASS/MISS
// against the targets. See README.md, "Content benchmark".
package main

import (
	"context"
	"docsd/internal/buildbin"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type options struct {
	sizes    []int
	reps     int
	reads    int
	postgres string
	require  map[string]bool // targets ("a" to "g") whose MISS fails the run
	keep     bool
	// cpuProfile, when set, makes the server serving each size write a CPU profile to
	// cpuProfile.<pages>, for go tool pprof.
	cpuProfile string
	// heapProfile, likewise, gets the serving server's heap profile as it stops: what the
	// caches and outbox consumers hold after serving each size (the peak memory target).
	heapProfile string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	code, err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docsd-contentbench:", err)
	}
	os.Exit(code)
}

func parseOptions(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("docsd-contentbench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("sizes", "10,1000,10000", "space sizes in pages, comma-separated; the targets compare the smallest and the largest, and (c) needs 1000")
	fs.IntVar(&o.reps, "reps", 15, "change request rounds per size, alternating between sizes (their medians are compared), after one warm-up round")
	fs.IntVar(&o.reads, "reads", 2000, "in-process page reads per size")
	fs.StringVar(&o.postgres, "postgres", "", "run on PostgreSQL: a postgres:// URL of a database the benchmark may make schemas in (default: SQLite)")
	require := fs.String("require", "", "targets whose MISS makes the run exit 1, comma-separated letters a to g, or \"all\" (default: none; the table is printed either way)")
	fs.BoolVar(&o.keep, "keep", false, "keep the working directory (data, server logs) and print where it is")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the serving server's CPU profile of each size to FILE.<pages> (go tool pprof)")
	fs.StringVar(&o.heapProfile, "heapprofile", "", "write the serving server's heap profile of each size, taken as it stops, to FILE.<pages> (go tool pprof -sample_index=inuse_space)")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 2 || n > 100_000 {
			return o, fmt.Errorf("-sizes: %q is not a page count between 2 and 100000", s)
		}
		o.sizes = append(o.sizes, n)
	}
	o.require = map[string]bool{}
	for _, t := range strings.Split(*require, ",") {
		switch t = strings.TrimSpace(t); t {
		case "":
		case "all":
			for _, l := range targetLetters {
				o.require[l] = true
			}
		case "a", "b", "c", "d", "e", "f", "g":
			o.require[t] = true
		default:
			return o, fmt.Errorf("-require: %q is not a target letter a to g", t)
		}
	}
	if o.reps < 1 || o.reps > 100 || o.reads < 1 || o.reads > 1_000_000 {
		return o, fmt.Errorf("-reps must be 1 to 100 and -reads 1 to 1000000")
	}
	return o, nil
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	o, err := parseOptions(args, stderr)
	if err != nil {
		return 2, err
	}
	work, err := os.MkdirTemp("", "docsd-contentbench-*")
	if err != nil {
		return 1, err
	}
	if o.keep {
		fmt.Fprintln(stderr, "working directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	bin, err := buildbin.Docsd(ctx, work)
	if err != nil {
		return 1, err
	}
	engine := "sqlite"
	if o.postgres != "" {
		engine = "postgres"
	}
	began := time.Now()
	var runs []*sizeRun
	defer func() {
		for _, sr := range runs {
			sr.close()
		}
	}()
	for _, n := range o.sizes {
		fmt.Fprintf(stderr, "importing %d pages on %s...\n", n, engine)
		sr, err := setUp(ctx, o, bin, work, n)
		if err != nil {
			return 1, fmt.Errorf("%d pages: %w", n, err)
		}
		runs = append(runs, sr)
	}
	fmt.Fprintf(stderr, "change request rounds, alternating between sizes...\n")
	if err := cycleRounds(ctx, runs, o.reps); err != nil {
		return 1, err
	}
	fmt.Fprintf(stderr, "merges after the space moved, beside git merge-tree, alternating between sizes...\n")
	if err := movedRounds(ctx, runs, work, o.reps); err != nil {
		return 1, err
	}
	var results []sizeResult
	for _, sr := range runs {
		fmt.Fprintf(stderr, "edit sizes, reads and memory at %d pages...\n", len(sr.ids))
		if err := sr.measureRest(ctx, o); err != nil {
			return 1, fmt.Errorf("%d pages: %w", len(sr.ids), err)
		}
		results = append(results, sr.res)
	}
	r := report{engine: engine, results: results, elapsed: time.Since(began)}
	r.print(stdout)
	if missed := r.missed(o.require); len(missed) > 0 {
		fmt.Fprintf(stdout, "\nrequired targets missed: %s\n", strings.Join(missed, ", "))
		return 1, nil
	}
	return 0, nil
}
