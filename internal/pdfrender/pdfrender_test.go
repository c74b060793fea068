package pdfrender_test

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/pdfrender"
)

var fixedDate = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func mustRender(t *testing.T, doc pdfrender.Document, opts pdfrender.Options) []byte {
	t.Helper()
	if opts.Date.IsZero() {
		opts.Date = fixedDate
	}
	var buf bytes.Buffer
	if err := pdfrender.Render(&buf, doc, opts); err != nil {
		t.Fatalf("Render: %v", err)
	}
	out := buf.Bytes()
	if !bytes.HasPrefix(out, []byte("%PDF-")) {
		t.Fatalf("output starts with %q, want %%PDF-", out[:min(len(out), 10)])
	}
	if !bytes.HasSuffix(bytes.TrimRight(out, "\r\n"), []byte("%%EOF")) {
		t.Fatalf("output does not end with %%%%EOF")
	}
	return out
}

var pageObj = regexp.MustCompile(`/Type /Page\b[^s]`)

func pageCount(pdf []byte) int { return len(pageObj.FindAll(pdf, -1)) }

// pdfText extracts the text with poppler's pdftotext, skipping the test where it is not
// installed (apt-get install poppler-utils).
func pdfText(t *testing.T, pdf []byte) string {
	t.Helper()
	bin, err := exec.LookPath("pdftotext")
	if err != nil {
		t.Skip("pdftotext not installed")
	}
	path := filepath.Join(t.TempDir(), "doc.pdf")
	if err := os.WriteFile(path, pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "-enc", "UTF-8", path, "-").CombinedOutput()
	if err != nil {
		t.Fatalf("pdftotext: %v: %s", err, out)
	}
	return string(out)
}

// squash joins the text into single-spaced words, so assertions do not depend on where
// lines broke.
func squash(s string) string { return strings.Join(strings.Fields(s), " ") }

func TestRenderSample(t *testing.T) {
	t.Parallel()
	out := mustRender(t, sampleDoc(), pdfrender.Options{Images: sampleImages(t)})
	// Title page, contents, and one page for each of the four document pages.
	if n := pageCount(out); n != 6 {
		t.Fatalf("pages = %d, want 6", n)
	}
	if n := bytes.Count(out, []byte("/Subtype /Image")); n != 2 {
		t.Errorf("embedded images = %d, want 2 (the PNG and the JPEG; the missing one left out)", n)
	}
	if !bytes.Contains(out, []byte("/URI (https://example.com/docs)")) {
		t.Error("external link has no URI annotation")
	}
	if !bytes.Contains(out, []byte("/Type /Outlines")) {
		t.Error("no outline (bookmarks)")
	}

	text := squash(pdfText(t, out))
	for _, want := range []string{
		"Acme Handbook", "21 November 2026",
		"Contents", "Welcome 3", "Installing 4", "Reference tables 5", "Around the world 6",
		"This handbook explains how we work, with emphasis, both at once, inline code and struck text.",
		"visit our website (https://example.com/docs) and https://example.org.",
		"Hints keep their text while the liquid tags go.",
		"First bullet", "Deeper bullet", "1. Step one", "2. Sub-step B", "Done task", "Open task",
		"A block quote, with bold words inside it.",
		"And a missing one: [Missing diagram]",
		"A footnote reference[1].", "1. The footnote text.",
		"curl -fsSL https://example.com/install.sh | sh", "indented with a tab",
		"Configuration", "Set DOCSD_DATA_DIR before starting.",
		"Name", "Default", "Description", "127.0.0.1:8080", "./docsd-data", "debug, info, warn or error",
		"Ελληνικά, русский текст, Français, Čeština, Türkçe — “quotes” … ﬁ ligature.",
		"Chinese \uFFFD\uFFFD and emoji √ done.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q", want)
		}
	}
	for _, unwanted := range []string{"{%", "%}", "🚀", "Welcome Welcome"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("text contains %q", unwanted)
		}
	}
}

func TestPageCountGrowsWithContent(t *testing.T) {
	t.Parallel()
	empty := mustRender(t, pdfrender.Document{Title: "Empty"}, pdfrender.Options{})
	if n := pageCount(empty); n != 1 {
		t.Fatalf("document without pages: %d PDF pages, want the title page only", n)
	}
	one := mustRender(t, pdfrender.Document{Title: "One", Pages: []pdfrender.Page{{Title: "Only", Markdown: "Short."}}}, pdfrender.Options{})
	if n := pageCount(one); n != 3 {
		t.Fatalf("one short page: %d PDF pages, want 3 (title, contents, page)", n)
	}
	long := strings.Repeat("A paragraph of filler text that takes a line or two of the page, no more than that.\n\n", 300)
	many := mustRender(t, pdfrender.Document{Title: "Long", Pages: []pdfrender.Page{{Title: "Long", Markdown: long}}}, pdfrender.Options{})
	if n := pageCount(many); n < 10 {
		t.Fatalf("300 paragraphs: %d PDF pages, want at least 10", n)
	}
	two := mustRender(t, pdfrender.Document{Title: "Two", Pages: []pdfrender.Page{{Title: "A", Markdown: "a"}, {Title: "B", Markdown: "b"}}}, pdfrender.Options{})
	if n := pageCount(two); n != 4 {
		t.Fatalf("two short pages: %d PDF pages, want 4: each page starts a new one", n)
	}
}

func TestInternalLinks(t *testing.T) {
	t.Parallel()
	pages := []pdfrender.Page{
		{Title: "Home", Path: "README.md", Markdown: "See [setup](guides/setup.md), [setup again](guides/setup/), [elsewhere](other.md) and [web](https://example.com)."},
		{Title: "Setup", Path: "guides/setup.md", Markdown: "Back [home](../README.md)."},
	}
	linked := mustRender(t, pdfrender.Document{Title: "Links", Pages: pages}, pdfrender.Options{})
	unlinked := append([]pdfrender.Page(nil), pages...)
	unlinked[0].Path, unlinked[1].Path = "", ""
	plainPDF := mustRender(t, pdfrender.Document{Title: "Links", Pages: unlinked}, pdfrender.Options{})

	// fpdf writes an internal link as /Dest and a web link as /URI. Contents entries and
	// bookmarks jump to pages either way; with paths, the words "setup", "setup again" and
	// "home" jump too (one link per word), and "elsewhere" names no page of the document.
	dests := func(pdf []byte) int { return bytes.Count(pdf, []byte("/Dest [")) }
	if got, base := dests(linked), dests(plainPDF); got-base != 4 {
		t.Errorf("internal links in text = %d (%d with paths, %d without), want 4", got-base, got, base)
	}
	for _, pdf := range [][]byte{linked, plainPDF} {
		if !bytes.Contains(pdf, []byte("/URI (https://example.com)")) {
			t.Error("web link missing")
		}
	}
}

func TestImages(t *testing.T) {
	t.Parallel()
	deep := image.NewNRGBA64(image.Rect(0, 0, 40, 30)) // 16 bits per channel: fpdf cannot read it as is
	for y := 0; y < 30; y++ {
		for x := 0; x < 40; x++ {
			deep.Set(x, y, color.NRGBA64{R: 0xffff, G: 0x8000, A: 0x8000})
		}
	}
	var deepPNG bytes.Buffer
	if err := png.Encode(&deepPNG, deep); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	calls := map[string]int{}
	resolve := func(p pdfrender.Page, src string) ([]byte, error) {
		mu.Lock()
		calls[p.Path+"|"+src]++
		mu.Unlock()
		switch src {
		case "deep.png", "again.png":
			return deepPNG.Bytes(), nil
		case "garbage.png":
			return []byte("not an image at all"), nil
		case "empty.png":
			return nil, nil
		}
		return nil, errors.New("not found")
	}
	doc := pdfrender.Document{Title: "Images", Pages: []pdfrender.Page{{Title: "Pictures", Path: "pics.md", Markdown: `
![Deep](deep.png)

![Same bytes](again.png)

![Broken](garbage.png) ![Nothing](empty.png) ![Gone](gone.png) ![](gone.png)
`}}}
	out := mustRender(t, doc, pdfrender.Options{Images: resolve})
	// The 16-bit image is embedded once, though used twice (with its alpha as a soft mask).
	if n := bytes.Count(out, []byte("/Subtype /Image")); n != 2 {
		t.Errorf("image objects = %d, want 2 (one image and its mask)", n)
	}
	for key, n := range calls {
		if n != 1 {
			t.Errorf("resolver called %d times for %s, want once", n, key)
		}
	}
	if calls["pics.md|deep.png"] != 1 {
		t.Errorf("resolver not given the page: calls %v", calls)
	}
	text := squash(pdfText(t, out))
	for _, want := range []string{"[Broken]", "[Nothing]", "[Gone]", "[image]"} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks the stand-in %q: %s", want, text)
		}
	}
	if strings.Contains(text, "[Deep]") {
		t.Error("a drawn image also shows its alt text")
	}
}

func TestWithoutResolverImagesShowAltText(t *testing.T) {
	t.Parallel()
	out := mustRender(t, pdfrender.Document{Title: "T", Pages: []pdfrender.Page{{Title: "P", Markdown: "![A diagram](d.png)"}}}, pdfrender.Options{})
	if bytes.Contains(out, []byte("/Subtype /Image")) {
		t.Error("image embedded without a resolver")
	}
	if text := squash(pdfText(t, out)); !strings.Contains(text, "[A diagram]") {
		t.Errorf("text lacks the alt text: %s", text)
	}
}

func TestOptions(t *testing.T) {
	t.Parallel()
	doc := pdfrender.Document{Title: "Sizes", Pages: []pdfrender.Page{{Title: "P", Markdown: "Text."}}}
	if a4 := mustRender(t, doc, pdfrender.Options{}); !bytes.Contains(a4, []byte("/MediaBox [0 0 595.28 841.89]")) {
		t.Error("default page size is not A4")
	}
	if letter := mustRender(t, doc, pdfrender.Options{PageSize: "Letter"}); !bytes.Contains(letter, []byte("/MediaBox [0 0 612.00 792.00]")) {
		t.Error("Letter page size not applied")
	}
	err := pdfrender.Render(&bytes.Buffer{}, doc, pdfrender.Options{PageSize: "A3"})
	if err == nil || !strings.Contains(err.Error(), "A3") {
		t.Errorf("unknown page size: err = %v", err)
	}
	first, second := mustRender(t, doc, pdfrender.Options{}), mustRender(t, doc, pdfrender.Options{})
	if !bytes.Equal(first, second) {
		t.Error("the same document and date rendered to different bytes")
	}
	if !bytes.Contains(first, []byte("D:20261121120000")) {
		t.Error("creation date not recorded")
	}
}

func TestHostileInput(t *testing.T) {
	t.Parallel()
	var nested strings.Builder
	for i := range 60 {
		nested.WriteString(strings.Repeat("  ", i) + "- level\n")
	}
	cases := map[string]string{
		"deeply nested lists":             nested.String(),
		"deeply nested quotes":            strings.Repeat(">", 80) + " deep quote",
		"a word longer than a line":       strings.Repeat("x", 3000) + "\n\n[" + strings.Repeat("y", 500) + "](https://example.com/" + strings.Repeat("z", 500) + ")",
		"a table cell taller than a page": "| a | b |\n|---|---|\n| " + strings.Repeat("word ", 8000) + " | short |",
		"a table of many columns":         "|" + strings.Repeat(" c |", 60) + "\n|" + strings.Repeat("---|", 60) + "\n|" + strings.Repeat(" value |", 60),
		"a code line longer than a page":  "```\n" + strings.Repeat("0123456789", 2000) + "\n```",
		"characters outside the fonts":    "# 🚀 Emoji title 👩‍👩‍👧\n\n𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \x01\x02 control \u200b\ufeff zero-width, 한국어, العربية, עברית\n\n```\n🙂 in code\n```\n\n| 🚀 | 中 |\n|---|---|\n| x | y |",
		"a long paragraph":                strings.Repeat("Many words in one paragraph. ", 4000),
		"raw html":                        "<div><p>Hidden</p><img src=\"nowhere.png\"></div>\n\nText <span>inline</span> <br> after",
		"empty markdown":                  "",
		"only liquid tags":                "{% tabs %}\n{% tab title=\"One\" %}\n{% endtab %}\n{% endtabs %}\n\n{% embed url=\"https://example.com/video\" %}",
	}
	for name, md := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			doc := pdfrender.Document{Title: name + " 🚀", Pages: []pdfrender.Page{{Title: name + " 中", Markdown: md, Depth: 5}}}
			start := time.Now()
			mustRender(t, doc, pdfrender.Options{})
			if d := time.Since(start); d > 20*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func FuzzRender(f *testing.F) {
	for _, seed := range []string{welcomeMD, installMD, referenceMD, unicodeMD, "", "* a\n  > b\n  > ```\n  > c", "| a |\n|---|\n| `b` |"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, md string) {
		var buf bytes.Buffer
		doc := pdfrender.Document{Title: "Fuzz", Pages: []pdfrender.Page{{Title: "Page", Markdown: md}}}
		if err := pdfrender.Render(&buf, doc, pdfrender.Options{Date: fixedDate}); err != nil {
			t.Fatalf("Render: %v", err)
		}
		if !bytes.HasPrefix(buf.Bytes(), []byte("%PDF-")) {
			t.Fatal("not a PDF")
		}
	})
}
