// Command docsd-searchbench measures search on a realistic corpus: two-word queries through
// the HTTP API against the same queries run raw on the database (a plain FTS5 bm25 query with
// LIMIT 20), their recall@20 against an exact ranking of every match, and the time to update
// the index after a one-page merge into a small and a large space. It prints a table with PASS
// or MISS against the targets.
//
//	go run ./cmd/docsd-searchbench [-pages 10000] [-sections 10] [-words 100] [-queries 1000]
//
// It runs docsd in this process on a fresh SQLite data directory, on 127.0.0.1. The corpus is
// made of real content (a revision of pages pages) whose sections are then written to the
// index in bulk through the store, as the indexer would write them; queries go through HTTP.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"
)

type options struct {
	Pages, Sections, Words, Queries, Merges int
	SmallPages                              int
	Seed                                    uint64
	Strict, StrictRecall, Keep              bool
	Reuse, CPUProfile                       string
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var o options
	fs := flag.NewFlagSet("docsd-searchbench", flag.ContinueOnError)
	fs.IntVar(&o.Pages, "pages", 10000, "pages in the large space")
	fs.IntVar(&o.Sections, "sections", 10, "sections per page (pages × sections = the corpus)")
	fs.IntVar(&o.Words, "words", 100, "words per section")
	fs.IntVar(&o.SmallPages, "small-pages", 1000, "pages in the small space, to compare update times")
	fs.IntVar(&o.Queries, "queries", 1000, "measured queries (each distinct, after 100 for warm-up)")
	fs.IntVar(&o.Merges, "merges", 15, "one-page merges measured per space")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed of the corpus and queries")
	fs.BoolVar(&o.Strict, "strict", false, "exit with status 1 when a target is missed")
	fs.BoolVar(&o.StrictRecall, "strict-recall", false, "exit with status 1 when the recall target is missed (it does not depend on the machine's load)")
	fs.BoolVar(&o.Keep, "keep", false, "keep the data directory (its path is printed), to -reuse it")
	fs.StringVar(&o.Reuse, "reuse", "", "measure on the corpus of a data directory kept by an earlier run with the same flags")
	fs.StringVar(&o.CPUProfile, "cpuprofile", "", "write a CPU profile of the query measurements to this file")
	if err := fs.Parse(os.Args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		os.Exit(2)
	}
	missed, recallMissed, err := run(ctx, o, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "docsd-searchbench:", err)
		os.Exit(1)
	}
	if (missed && o.Strict) || (recallMissed && o.StrictRecall) {
		os.Exit(1)
	}
}

// logf prints progress to stderr, so stdout holds only the table.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05")}, args...)...)
}
