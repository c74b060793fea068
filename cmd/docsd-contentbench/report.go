package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// Targets.
const (
	cycleRatioMax   = 1.5             // (a) median at the largest size over the smallest
	editGrowthMax   = 1.1             // (b) bytes per edit at the largest size over the smallest: flat
	importPages     = 1000            // (c) the size whose import is timed
	importMax       = 5 * time.Second // (c)
	readP50Max      = time.Millisecond
	servingRSSMax   = 200 << 20 // (e)
	largestForReads = 10000
	movedGrowthMax  = 1.5 // (f) merge after the space moved, median at the largest size over the smallest
	movedGitMax     = 3.0 // (g) the same at the largest size over git merge-tree on the same tree
)

// targetLetters are the targets' letters, in the table's order.
var targetLetters = []string{"a", "b", "c", "d", "e", "f", "g"}

type report struct {
	engine  string
	results []sizeResult
	elapsed time.Duration
}

type verdictLine struct {
	letter                 string
	name, measured, target string
	ok, known              bool // known is false when the run did not measure it
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianInt(xs []int64) int64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// msOf is the median of ds in milliseconds, or "-" when nothing was measured.
func msOf(ds []time.Duration) string {
	if len(ds) == 0 {
		return "-"
	}
	return ms(median(ds))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.3f", float64(d)/1e6) }
func mb(b int64) string         { return fmt.Sprintf("%.1f", float64(b)/(1<<20)) }

func (r report) verdicts() []verdictLine {
	small, large := r.results[0], r.results[len(r.results)-1]
	var out []verdictLine
	ratio := float64(median(large.cycles)) / float64(median(small.cycles))
	out = append(out, verdictLine{name: fmt.Sprintf("(a) change request + edit + merge, median at %d pages / at %d", large.pages, small.pages),
		measured: fmt.Sprintf("%.2fx (%s ms / %s ms)", ratio, ms(median(large.cycles)), ms(median(small.cycles))),
		target:   fmt.Sprintf("<= %.1fx", cycleRatioMax), ok: ratio <= cycleRatioMax, known: len(r.results) > 1})
	var per []string
	for _, res := range r.results {
		per = append(per, fmt.Sprintf("%d: %d", res.pages, medianInt(res.editBytes)))
	}
	growth := float64(medianInt(large.editBytes)) / float64(medianInt(small.editBytes))
	out = append(out, verdictLine{name: "(b) bytes written per one-page edit, by pages",
		measured: fmt.Sprintf("%s (%.2fx)", strings.Join(per, ", "), growth),
		target:   fmt.Sprintf("flat: <= %.1fx from %d to %d pages", editGrowthMax, small.pages, large.pages), ok: growth <= editGrowthMax, known: len(r.results) > 1})
	imp := verdictLine{name: fmt.Sprintf("(c) import of a %d-page markdown tree", importPages), target: "< " + importMax.String()}
	read := verdictLine{name: fmt.Sprintf("(d) page read by id, p50 in-process at %d pages", largestForReads), target: "< " + ms(readP50Max) + " ms"}
	mem := verdictLine{name: fmt.Sprintf("(e) server's peak RSS serving %d pages", largestForReads), target: "< " + mb(servingRSSMax) + " MB"}
	for _, res := range r.results {
		if res.pages == importPages {
			imp.measured, imp.ok, imp.known = fmt.Sprintf("%.2f s", res.importTime.Seconds()), res.importTime < importMax, true
		}
		if res.pages == largestForReads {
			read.measured, read.ok, read.known = ms(res.readP50)+" ms", res.readP50 < readP50Max, true
			mem.measured, mem.ok, mem.known = mb(res.servingRSS)+" MB", res.servingRSS < servingRSSMax, true
		}
	}
	out = append(out, imp, read, mem)
	out = append(out, r.movedVerdicts(small, large)...)
	for i := range out {
		out[i].letter = string(rune('a' + i))
	}
	return out
}

// missed lists the required targets that were missed, or not measured at all.
func (r report) missed(required map[string]bool) []string {
	var out []string
	for _, v := range r.verdicts() {
		if required[v.letter] && (!v.known || !v.ok) {
			out = append(out, v.letter)
		}
	}
	return out
}

func (r report) print(w io.Writer) {
	fmt.Fprintf(w, "docsd content benchmark on %s (%s)\n\n", r.engine, r.elapsed.Round(time.Second))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "pages\timport s\tCR+edit+merge median ms\tmin ms\tmax ms\tmerge after moved ms\tgit merge-tree ms\tbytes/edit\tbytes/merge\tread p50 ms\tread p99 ms\tpeak RSS import MB\tpeak RSS serving MB\t")
	for _, res := range r.results {
		fmt.Fprintf(tw, "%d\t%.2f\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\t\n", res.pages, res.importTime.Seconds(),
			ms(median(res.cycles)), ms(slices.Min(res.cycles)), ms(slices.Max(res.cycles)), msOf(res.movedMerges), msOf(res.gitMerges),
			medianInt(res.editBytes), medianInt(res.mergeBytes), ms(res.readP50), ms(res.readP99), mb(res.importRSS), mb(res.servingRSS))
	}
	tw.Flush()
	fmt.Fprintln(w)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, v := range r.verdicts() {
		verdict := "PASS"
		switch {
		case !v.known:
			verdict, v.measured = "n/a", "not measured (size not run)"
		case !v.ok:
			verdict = "MISS"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v.name, v.measured, v.target, verdict)
	}
	tw.Flush()
}

// movedVerdicts are the targets on merges after the space moved: (f) flat in the size of
// the space, (g) near git merging the same tree.
func (r report) movedVerdicts(small, large sizeResult) []verdictLine {
	known := len(large.movedMerges) > 0 && len(small.movedMerges) > 0
	growth := verdictLine{name: fmt.Sprintf("(f) merge after the space moved, median at %d pages / at %d", large.pages, small.pages),
		target: fmt.Sprintf("<= %.1fx", movedGrowthMax), known: known && len(r.results) > 1}
	git := verdictLine{name: fmt.Sprintf("(g) merge after the space moved at %d pages / git merge-tree --write-tree (process included)", large.pages),
		target: fmt.Sprintf("<= %.1fx", movedGitMax), known: known && len(large.gitMerges) > 0}
	if growth.known {
		ratio := float64(median(large.movedMerges)) / float64(median(small.movedMerges))
		growth.measured = fmt.Sprintf("%.2fx (%s ms / %s ms)", ratio, ms(median(large.movedMerges)), ms(median(small.movedMerges)))
		growth.ok = ratio <= movedGrowthMax
	}
	if git.known {
		ratio := float64(median(large.movedMerges)) / float64(median(large.gitMerges))
		git.measured = fmt.Sprintf("%.2fx (%s ms / %s ms)", ratio, ms(median(large.movedMerges)), ms(median(large.gitMerges)))
		git.ok = ratio <= movedGitMax
	}
	return []verdictLine{growth, git}
}
