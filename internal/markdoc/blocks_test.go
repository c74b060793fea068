package markdoc_test

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

// everyBlock is the fixture page holding every block of GitBook's markdown; the import tests
// read the same tree.
func everyBlock(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../gitbookimport/testdata/blocks/README.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// rawTag finds tag text outside <pre> blocks of HTML.
var (
	preBlock = regexp.MustCompile(`(?s)<pre.*?</pre>`)
	rawTag   = regexp.MustCompile(`\{%`)
)

func TestEveryBlockDocument(t *testing.T) {
	t.Parallel()
	md := everyBlock(t)
	opts := markdoc.Options{ReusableContent: func(p string) string {
		if p == ".gitbook/includes/shared-note.md" {
			return "rc1"
		}
		return ""
	}}
	doc := opts.ToDocument(md)
	checkValid(t, doc)
	out := outline(doc)
	for _, want := range []string{
		`hint {"style":"warning"}`, "tabs\n", "tabs-item {\"title\":\"Shell\"}", "stepper\n", "stepper-step",
		`code {"lineNumbers":true,"syntax":"go","title":"main.go"}`, `embed {"url":"https://example.com/video"}`,
		`reusable-content {"ref":{"kind":"reusable-content","reusableContent":"rc1"}}`,
		`openapi-operation {"method":"get","path":"/pets","ref":{"kind":"openapi","spec":"petstore"}}`,
		`openapi-schemas {"grouped":true,"ref":{"kind":"openapi","spec":"petstore"},"schemas":["Pet","Tag"]}`,
		`openapi-webhook {"method":"post","name":"newPet","ref":{"kind":"openapi","spec":"petstore"}}`,
		`swagger {"method":"post","path":"/pets","ref":{"kind":"url","url":"https://example.com/openapi.json"}}`,
		`text "Left column."`, `text "For pro readers."`, `text "Ask the assistant about pets."`, `text "Inside an unknown tag."`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("document lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(strings.ReplaceAll(out, "// {% hint %} in code stays", ""), "{%") {
		t.Errorf("a raw tag leaked into the document:\n%s", out)
	}
}

func TestEveryBlockHTML(t *testing.T) {
	t.Parallel()
	md := markdoc.ExpandIncludes(everyBlock(t), func(p string) (string, bool) {
		if p == ".gitbook/includes/shared-note.md" {
			return "---\ntitle: Shared note\n---\n\n{% hint style=\"info\" %}\nWritten once, shown everywhere.\n{% endhint %}\n", true
		}
		return "", false
	})
	html := markdoc.ToHTML(md)
	if loc := rawTag.FindStringIndex(preBlock.ReplaceAllString(html, "")); loc != nil {
		t.Errorf("raw tag text outside code: %q", html[max(0, loc[0]-80):min(len(html), loc[1]+80)])
	}
	for _, want := range []string{
		`<div class="hint hint-warning">`, `<div class="columns">`, `<div class="column">`, "<p>Left column.</p>",
		`<div class="hint hint-info">`, "Written once, shown everywhere.", `<div class="openapi">`, "<code>GET /pets</code>",
		`<div class="prompt">`, "<p>Inside an unknown tag.</p>", "For pro readers.", "{% hint %} in code stays",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %s:\n%s", want, html)
		}
	}
	if strings.Contains(html, "title: Shared note") {
		t.Error("the included content's front matter shows")
	}
}

func TestChangelogUpdatesHTML(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../gitbookimport/testdata/blocks/changelog.md")
	if err != nil {
		t.Fatal(err)
	}
	html := markdoc.ToHTML(string(b))
	for _, want := range []string{`<div class="updates">`, `<p class="update-date">2024-05-01</p>`, `<p class="update-tags">api,new</p>`, "First beta."} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %s:\n%s", want, html)
		}
	}
	if strings.Contains(html, "{%") {
		t.Errorf("raw tag in %s", html)
	}
	checkValid(t, markdoc.ToDocument(string(b)))
}

func TestUnknownTagsAndIncludes(t *testing.T) {
	t.Parallel()
	md := everyBlock(t)
	if got := markdoc.UnknownTags(md); !slices.Equal(got, []string{"sparkle"}) {
		t.Errorf("UnknownTags = %q, want [sparkle]", got)
	}
	if got := markdoc.Includes(md); !slices.Equal(got, []string{".gitbook/includes/shared-note.md"}) {
		t.Errorf("Includes = %q", got)
	}
}

func TestExpandIncludesEnds(t *testing.T) {
	t.Parallel()
	self := "Loop:\n\n{% include \"a.md\" %}\n"
	got := markdoc.ExpandIncludes(self, func(string) (string, bool) { return self, true })
	if n := strings.Count(got, "Loop:"); n != 5 {
		t.Errorf("a self-including content expanded %d times, want 5 (the page and 4 levels)", n)
	}
	if strings.Contains(got, "{%") {
		t.Errorf("the include line at the depth limit leaked: %q", got)
	}
}
