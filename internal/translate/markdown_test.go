package translate

import (
	"strings"
	"testing"
)

// upper "translates" by upper-casing text outside placeholders, as a provider that keeps
// markup would.
func upper(segs []string) []string {
	out := make([]string, len(segs))
	for i, s := range segs {
		var b strings.Builder
		last := 0
		for _, m := range placeholderRe.FindAllStringIndex(s, -1) {
			b.WriteString(strings.ToUpper(s[last:m[0]]))
			b.WriteString(s[m[0]:m[1]])
			last = m[1]
		}
		b.WriteString(strings.ToUpper(s[last:]))
		out[i] = b.String()
	}
	return out
}

func TestMarkdownKeepsWhatMustNotBeTranslated(t *testing.T) {
	src := "---\ntitle: keep me\n---\n# Intro to {{ vars.product }}\n\nSee [the docs](https://x.test/a_b) and `code here` & <span class=\"note\">this</span>.\n\n" +
		"```go\nfmt.Println(\"hi\")\n```\n\n{% hint style=\"info\" %}\nA hint with https://x.test/raw link.\n{% endhint %}\n\n| Col | Other |\n|---|---|\n| a cell | b cell |\n\n> - [x] quoted task with Widget\n"
	p := prepareMarkdown(src, []glossaryTerm{{source: "widget", target: "Gadget"}})
	got, kept := p.assemble(upper(p.texts()))
	want := "---\ntitle: keep me\n---\n# INTRO TO {{ vars.product }}\n\nSEE [THE DOCS](https://x.test/a_b) AND `code here` & <span class=\"note\">THIS</span>.\n\n" +
		"```go\nfmt.Println(\"hi\")\n```\n\n{% hint style=\"info\" %}\nA HINT WITH https://x.test/raw LINK.\n{% endhint %}\n\n| COL | OTHER |\n|---|---|\n| A CELL | B CELL |\n\n> - [x] QUOTED TASK WITH Gadget\n"
	if got != want || kept != 0 {
		t.Fatalf("got (kept %d):\n%s\nwant:\n%s", kept, got, want)
	}
}

func TestLostPlaceholderKeepsTheSource(t *testing.T) {
	p := prepareText("Run `make` now", nil)
	got, kept := p.assemble([]string{"Lance maintenant"})
	if got != "Run `make` now" || kept != 1 {
		t.Fatalf("got %q kept %d", got, kept)
	}
}
