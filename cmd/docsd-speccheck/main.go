// Command docsd-speccheck adds up what the test suite's answers were judged by (the files
// test processes write to DOCSD_TEST_SPEC_REPORT) and prints the totals and, for each
// version of the public GitBook spec, the operations no test called.
//
//	DOCSD_TEST_SPEC_REPORT=/tmp/spec go test ./...
//	go run ./cmd/docsd-speccheck /tmp/spec
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"docsd/internal/apispec"
)

func main() {
	list := flag.Bool("list", true, "list the uncalled operations, not only their count")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: docsd-speccheck [-list=false] DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *list); err != nil {
		fmt.Fprintln(os.Stderr, "docsd-speccheck:", err)
		os.Exit(1)
	}
}

func run(dir string, list bool) error {
	t, files, err := apispec.ReadTallies(dir)
	if err != nil {
		return err
	}
	if files == 0 {
		return fmt.Errorf("%s holds no reports: did the tests run with DOCSD_TEST_SPEC_REPORT=%s?", dir, dir)
	}
	fmt.Printf("answers judged: %d (from %d test processes)\n", t.Answers, files)
	fmt.Printf("answers with a violation: %d\n", t.Violating)
	if n := len(t.Calls["docsd"]); n > 0 {
		fmt.Printf("docsd extensions (api/openapi.yaml): %d operations called\n", n)
	}
	for _, v := range apispec.PublicVersions {
		doc, err := apispec.Public(v)
		if err != nil {
			return err
		}
		total := len(doc.Operations())
		uncalled := t.Uncalled(doc)
		fmt.Printf("\n@gitbook/api %s: %d of %d operations called, %d uncalled\n", v, total-len(uncalled), total, len(uncalled))
		if !list {
			continue
		}
		var lines []string
		for _, op := range uncalled {
			lines = append(lines, fmt.Sprintf("  %-7s %s  (%s)", op.Method, op.Path, op.ID))
		}
		sort.Strings(lines)
		fmt.Println(strings.Join(lines, "\n"))
	}
	return nil
}
