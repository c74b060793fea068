package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"strings"
	"testing"
	"time"

	"docsd/internal/gitbookimport"
)

func TestMarkdownTreeImportsAsSectionsOfFifty(t *testing.T) {
	for _, n := range []int{10, 120} {
		archive, err := markdownTree(n)
		if err != nil {
			t.Fatal(err)
		}
		gz, err := gzip.NewReader(bytes.NewReader(archive))
		if err != nil {
			t.Fatal(err)
		}
		fsys, err := gitbookimport.FromTar(gz)
		if err != nil {
			t.Fatal(err)
		}
		res, err := gitbookimport.Import(fsys)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pages) != n {
			t.Fatalf("%d pages imported, want %d", len(res.Pages), n)
		}
	}
	if words := len(strings.Fields(pageText("T", 3, ""))); words < 280 || words > 320 {
		t.Fatalf("a page has %d words, want about 300", words)
	}
}

func TestRequiredTargets(t *testing.T) {
	ms := func(d int) []time.Duration { return []time.Duration{time.Duration(d) * time.Millisecond} }
	r := report{results: []sizeResult{
		{pages: 10, cycles: ms(2), editBytes: []int64{1000}, mergeBytes: []int64{900}},
		{pages: 1000, cycles: ms(2), editBytes: []int64{1000}, mergeBytes: []int64{1900}, importTime: 6 * time.Second},
		{pages: 10000, cycles: ms(10), editBytes: []int64{1050}, mergeBytes: []int64{2900}, readP50: time.Millisecond / 2, servingRSS: 100 << 20},
	}}
	if got := strings.Join(r.missed(map[string]bool{"a": true, "b": true, "c": true, "d": true, "e": true}), ","); got != "a,c" {
		t.Fatalf("missed %q, want a,c", got)
	}
	if got := r.missed(map[string]bool{"d": true, "e": true}); len(got) != 0 {
		t.Fatalf("missed %v", got)
	}
	var out bytes.Buffer
	r.print(&out)
	if !strings.Contains(out.String(), "MISS") || !strings.Contains(out.String(), "PASS") {
		t.Fatalf("table:\n%s", out.String())
	}
	// Merges after the space moved: (f) flat from the smallest size to the largest, (g) near git.
	r.results[0].movedMerges, r.results[2].movedMerges, r.results[2].gitMerges = ms(4), ms(5), ms(1)
	if got := strings.Join(r.missed(map[string]bool{"f": true, "g": true}), ","); got != "g" {
		t.Fatalf("missed %q, want g", got)
	}
	r.results[2].movedMerges = ms(7)
	r.results[2].gitMerges = ms(3)
	if got := strings.Join(r.missed(map[string]bool{"f": true, "g": true}), ","); got != "f" {
		t.Fatalf("missed %q, want f", got)
	}
	small := report{results: r.results[:1]}
	if got := small.missed(map[string]bool{"e": true, "f": true}); len(got) != 2 {
		t.Fatalf("an unmeasured required target must count as missed: %v", got)
	}
	small.print(io.Discard)
}

func TestParseOptions(t *testing.T) {
	o, err := parseOptions([]string{"-sizes", "10,500", "-require", "c,e"}, io.Discard)
	if err != nil || len(o.sizes) != 2 || !o.require["c"] || !o.require["e"] || o.require["a"] {
		t.Fatalf("%+v %v", o, err)
	}
	for _, bad := range [][]string{{"-sizes", "1"}, {"-require", "h"}, {"-reps", "0"}} {
		if _, err := parseOptions(bad, io.Discard); err == nil {
			t.Errorf("%v: accepted", bad)
		}
	}
}
