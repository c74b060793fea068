package markdoc_test

import (
	"strings"
	"testing"
	"time"

	"docsd/internal/markdoc"
)

// TestPathologicalInputs converts inputs shaped to make a naive converter slow (each once took
// minutes: cost growing with the square or the cube of their nesting) and checks that they
// finish, within a bound far above their normal time, to a valid document.
func TestPathologicalInputs(t *testing.T) {
	t.Parallel()
	deepList := func(n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(strings.Repeat("  ", i) + "- x\n")
		}
		return b.String()
	}
	cases := map[string]string{
		"deeply nested quotes":         strings.Repeat(">", 2000) + " x",
		"deeply nested lists":          deepList(200),
		"tags opened and never closed": strings.Repeat("{% hint style=\"info\" %}\n", 3000) + "{% endhint %}\n",
		"deeply nested tags":           strings.Repeat("{% tabs %}\n", 1000) + strings.Repeat("{% endtabs %}\n", 1000),
		"unclosed details":             strings.Repeat("<details>\n\nx\n\n", 1000),
		"nested details":               strings.Repeat("<details>\n\nx\n\n", 500) + strings.Repeat("</details>\n\n", 500),
		"unclosed inline HTML marks":   strings.Repeat("<kbd>x ", 3000),
		"one repeated heading":         strings.Repeat("## a\n\n", 3000),
		"many math fences":             strings.Repeat("$$\n", 3000),
		"many embeds, one end":         strings.Repeat("{% embed url=\"x\" %}\n", 3000) + "{% endembed %}\n",
	}
	for name, md := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			doc := markdoc.ToDocument(md)
			markdoc.ToHTML(md)
			markdoc.Links(md)
			markdoc.Sections(md)
			elapsed := time.Since(start)
			t.Logf("%d bytes in %v", len(md), elapsed)
			// A guard against runaway (exponential) parsing only, so far above the 0.1-0.9s these
			// take on an idle machine that a machine load of 30 (which took one to 11s) passes.
			if elapsed > time.Minute {
				t.Errorf("took %v", elapsed)
			}
			checkStructure(t, doc)
		})
	}
}
