// Command docsd-crashloop kills docsd with SIGKILL at random moments while writers create
// spaces, collections, change requests with page edits, comments, merges and queued
// imports, restarts it each time, and checks that no acknowledged write was lost and that
// queued imports complete within seconds of the restart. It exits non-zero otherwise.
//
//	go run ./cmd/docsd-crashloop                      # SQLite
//	go run ./cmd/docsd-crashloop -postgres postgres://postgres@127.0.0.1:5432/test?sslmode=disable
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
	"time"

	"docsd/internal/buildbin"
	"docsd/internal/crashtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "docsd-crashloop:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("docsd-crashloop", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfg := crashtest.Config{}
	fs.StringVar(&cfg.Postgres, "postgres", "", "run on PostgreSQL at this URL (in a schema of its own, dropped after) instead of SQLite")
	fs.IntVar(&cfg.Cycles, "cycles", 12, "kills and restarts")
	fs.IntVar(&cfg.Writers, "writers", 6, "concurrent writers")
	fs.DurationVar(&cfg.MinRun, "min-run", 500*time.Millisecond, "shortest time the writers run before a kill")
	fs.DurationVar(&cfg.MaxRun, "max-run", 3*time.Second, "longest time the writers run before a kill")
	fs.IntVar(&cfg.ImportPages, "import-pages", 150, "pages of each queued import")
	fs.DurationVar(&cfg.ImportDeadline, "import-deadline", 10*time.Second, "how long after a restart a queued import may take to complete")
	bin := fs.String("bin", "", "a docsd binary to test (default: build this module's)")
	keep := fs.Bool("keep", false, "keep the work directory (data, logs) and print its path")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.Cycles < 1 || cfg.Writers < 1 || cfg.ImportPages < 2 || cfg.MinRun <= 0 || cfg.MaxRun < cfg.MinRun {
		return fmt.Errorf("-cycles and -writers must be at least 1, -import-pages at least 2, and 0 < -min-run <= -max-run")
	}
	work, err := os.MkdirTemp("", "docsd-crashloop-*")
	if err != nil {
		return err
	}
	if *keep {
		fmt.Fprintln(stderr, "work directory:", work)
	} else {
		defer os.RemoveAll(work)
	}
	cfg.Bin = *bin
	if cfg.Bin == "" {
		if cfg.Bin, err = buildbin.Docsd(ctx, work); err != nil {
			return err
		}
	}
	cfg.WorkDir, cfg.Log = work, stderr
	rep, err := crashtest.Run(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "crash loop on %s: %d kill -9 cycles in %v, %d writers\n", rep.Engine, rep.Cycles, rep.Elapsed.Round(time.Second), cfg.Writers)
	fmt.Fprintf(stdout, "  acknowledged writes: %d (queued imports among them: %d)\n", rep.Acknowledged, rep.QueuedImports)
	fmt.Fprintf(stdout, "  lost writes:         %d\n", len(rep.Lost))
	fmt.Fprintf(stdout, "  queued imports complete after a restart within: %v (limit %v; late: %d)\n",
		rep.MaxImportAfter.Round(time.Millisecond), cfg.ImportDeadline, len(rep.LateImports))
	if len(rep.Refused) > 0 {
		keys := make([]string, 0, len(rep.Refused))
		for k := range rep.Refused {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintln(stdout, "  writes the server refused (not counted as acknowledged):")
		for _, k := range keys {
			fmt.Fprintf(stdout, "    %d× %.200s\n", rep.Refused[k], k)
		}
	}
	for i, l := range append(rep.Lost, rep.LateImports...) {
		if i == 20 {
			fmt.Fprintf(stdout, "  … and %d more\n", len(rep.Lost)+len(rep.LateImports)-20)
			break
		}
		fmt.Fprintln(stdout, "  LOST OR LATE:", l)
	}
	switch {
	case len(rep.Lost) > 0:
		return fmt.Errorf("%d acknowledged writes lost", len(rep.Lost))
	case len(rep.LateImports) > 0:
		return fmt.Errorf("%d queued imports not complete %v after a restart", len(rep.LateImports), cfg.ImportDeadline)
	case rep.Acknowledged == 0:
		return fmt.Errorf("no write was acknowledged: nothing was tested")
	case len(rep.Refused) > 0:
		return fmt.Errorf("the server refused writes it should have accepted")
	}
	return nil
}
