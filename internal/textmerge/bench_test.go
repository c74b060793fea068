package textmerge

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkMergeLargePage merges two small edits of a 5,000-line page.
func BenchmarkMergeLargePage(b *testing.B) {
	var base strings.Builder
	for i := range 5000 {
		if i%10 == 0 {
			fmt.Fprintf(&base, "## Section %d\n\n", i)
		}
		fmt.Fprintf(&base, "Sentence number %d of the page.\n", i)
	}
	ours := strings.Replace(base.String(), "Sentence number 100 ", "Sentence 100, edited, ", 1)
	theirs := strings.Replace(base.String(), "Sentence number 4000 ", "Sentence 4000, edited, ", 1) + "A new last line.\n"
	for b.Loop() {
		if _, conflicts := Merge(base.String(), ours, theirs); len(conflicts) > 0 {
			b.Fatal(conflicts)
		}
	}
}
