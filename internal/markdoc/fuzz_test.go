package markdoc_test

import (
	"os"
	"testing"

	"docsd/internal/markdoc"
)

// FuzzMarkdown checks that any input converts without panicking to a document that passes
// validation and has a key on every node, and that the other readers accept it too.
func FuzzMarkdown(f *testing.F) {
	seed, _ := os.ReadFile("testdata/gitbook-page.md")
	for _, s := range []string{
		string(seed), "", "# x", "- [ ] a\n  - b", "| a |\n|---|\n| b |", "{% hint %}\n{% hint %}\n{% endhint %}",
		"{% tabs %}\nstray\n{% tab %}\n{% endtabs %}\n{% endtab %}", "<details>\n\n<details>\n\nx\n\n</details>",
		"$$\n$$\n$$", "[^a]: [^a]\n\nx[^a]", "> - {% code %}\n> ```\n> {% endcode %}", "<kbd><sup>x</kbd>",
		"---\ndescription: x\n---\n# T", "![a](<b c> \"d\")", "{% embed url=\"x\" %}\n{% embed url=\"y\" %}\n{% endembed %}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		doc := markdoc.ToDocument(md)
		checkStructure(t, doc)
		for _, k := range allKeys(doc) {
			if k == "" {
				t.Fatalf("a node without a key")
			}
		}
		markdoc.ToHTML(md)
		markdoc.Sections(md)
		for _, l := range markdoc.Links(md) {
			l.Resolve("a/b.md")
		}
		markdoc.ParseFrontMatter(md)
	})
}
