package gitbookimport_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"docsd/internal/apperr"
	"docsd/internal/gitbookimport"
	"docsd/internal/markdoc"
)

var update = flag.Bool("update", false, "rewrite testdata/space.golden.json from the current output")

// render shows a result as indented JSON, files by size and hash rather than bytes.
func render(t *testing.T, r *gitbookimport.Result) []byte {
	t.Helper()
	type file struct {
		Path        string `json:"path"`
		Name        string `json:"name"`
		ContentType string `json:"contentType"`
		Size        int    `json:"size"`
		SHA256      string `json:"sha256"`
	}
	files := []file{}
	for _, f := range r.Files {
		sum := sha256.Sum256(f.Data)
		files = append(files, file{f.Path, f.Name, f.ContentType, len(f.Data), hex.EncodeToString(sum[:8])})
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(struct {
		Pages    []gitbookimport.Page `json:"pages"`
		Files    []file               `json:"files"`
		Warnings []string             `json:"warnings"`
	}{r.Pages, files, r.Warnings})
	if err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func TestImportGolden(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(os.DirFS("testdata/space"))
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, r)
	if *update {
		if err := os.WriteFile("testdata/space.golden.json", got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("testdata/space.golden.json")
	if err != nil {
		t.Fatalf("%v (run go test -update to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the import differs from testdata/space.golden.json (run go test -update and review the diff):\n%s", got)
	}
	// Every imported page converts to a document.
	for _, p := range r.Pages {
		if doc := markdoc.ToDocument(p.Markdown); p.Markdown != "" && len(doc.Nodes) == 0 {
			t.Errorf("%s: no blocks from its markdown", p.Path)
		}
	}
}

// tree builds an in-memory tree from path → content pairs.
func tree(files ...string) fstest.MapFS {
	m := fstest.MapFS{}
	for i := 0; i+1 < len(files); i += 2 {
		m[files[i]] = &fstest.MapFile{Data: []byte(files[i+1])}
	}
	return m
}

// outline shows pages one per line, indented under their parents, with kind, slug, title,
// path and hidden flag.
func outline(r *gitbookimport.Result) string {
	var b strings.Builder
	depth := map[int]int{-1: -1}
	for i, p := range r.Pages {
		depth[i] = depth[p.Parent] + 1
		hidden := ""
		if p.Hidden {
			hidden = " hidden"
		}
		target := p.Path
		if p.Kind == gitbookimport.KindLink {
			target = p.Href
		}
		b.WriteString(strings.Repeat("  ", depth[i]) + p.Kind + " " + p.Slug + " \"" + p.Title + "\" " + target + hidden + "\n")
	}
	return b.String()
}

func checkOutline(t *testing.T, r *gitbookimport.Result, want string) {
	t.Helper()
	if got := strings.TrimSpace(outline(r)); got != strings.TrimSpace(want) {
		t.Errorf("pages:\n%s\nwant:\n%s", got, strings.TrimSpace(want))
	}
	for i, p := range r.Pages {
		if p.Parent >= i {
			t.Errorf("page %d comes before its parent %d", i, p.Parent)
		}
	}
}

func TestImportWithoutSummaryNestsByDirectory(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(tree(
		"zeta.md", "# Zeta",
		"README.md", "# Home",
		"guide/b.md", "B body",
		"guide/README.md", "# The guide",
		"guide/a.md", "# A",
		"guide/deep/c.md", "# C",
		"other/d.md", "# D",
		".github/x.md", "# not a page",
		"notes.txt", "not markdown",
	))
	if err != nil {
		t.Fatal(err)
	}
	checkOutline(t, r, `
document home "Home" README.md
document guide "The guide" guide/README.md
  document a "A" guide/a.md
  document b "B" guide/b.md
  document c "C" guide/deep/c.md
document d "D" other/d.md
document zeta "Zeta" zeta.md`)
	if len(r.Warnings) != 0 {
		t.Errorf("warnings: %q", r.Warnings)
	}
}

func TestImportSummary(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(tree(
		"SUMMARY.md", "# Contents\n\n* [First](first.md)\n* [Home page](README.md)\n* [Section](section/)\n  * [Again](first.md)\n    * [Child of a repeat](child.md)\n  * Plain item\n* [Gone](gone.md)\n\n## Links\n\n* [Site](https://example.com)\n* [Guide PDF](.gitbook/assets/guide.pdf)\n* [**Bold** title](bold.md#part)\n",
		"README.md", "---\ndescription: Home\n---\n# Readme title\n\nHello.",
		"first.md", "# First heading\n\nText.",
		"section/README.md", "Section text.",
		"child.md", "# Child",
		"bold.md", "x",
		"extra.md", "# Extra",
		"section/extra.md", "# Section extra",
	))
	if err != nil {
		t.Fatal(err)
	}
	checkOutline(t, r, `
document home-page "Home page" README.md
document first "First" first.md
document section "Section" section/README.md
  document child "Child of a repeat" child.md
  document plain-item "Plain item" 
  document extra "Section extra" section/extra.md hidden
document gone "Gone" 
group links "Links" 
  link  "Site" https://example.com
  link  "Guide PDF" .gitbook/assets/guide.pdf
  document bold "Bold title" bold.md
document extra "Extra" extra.md hidden`)
	wantWarnings := []string{
		"SUMMARY.md:6: first.md: listed again; only its first entry is kept",
		"SUMMARY.md:9: gone.md: no such page; imported as an empty page",
		"SUMMARY.md: does not list 2 pages, imported hidden: extra.md, section/extra.md",
	}
	if strings.Join(r.Warnings, "\n") != strings.Join(wantWarnings, "\n") {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(r.Warnings, "\n"), strings.Join(wantWarnings, "\n"))
	}
	home := r.Pages[0]
	if home.Description != "Home" || home.Markdown != "Hello." {
		t.Errorf("home page: description %q, markdown %q", home.Description, home.Markdown)
	}
}

func TestImportSlugsAreUniqueAmongSiblings(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(tree(
		"SUMMARY.md", "* [Home](README.md)\n* [Setup](setup.md)\n* [Setup again](Setup.markdown)\n* [Setup third](set-up/README.md)\n* [Docs](a/setup.md)\n  * [Setup](a/b/setup.md)\n",
		"README.md", "", "setup.md", "", "Setup.markdown", "", "set-up/README.md", "", "a/setup.md", "", "a/b/setup.md", "",
	))
	if err != nil {
		t.Fatal(err)
	}
	checkOutline(t, r, `
document home "Home" README.md
document setup "Setup" setup.md
document setup-2 "Setup again" Setup.markdown
document set-up "Setup third" set-up/README.md
document setup-3 "Docs" a/setup.md
  document setup "Setup" a/b/setup.md`)
}

func TestImportTitles(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(tree(
		"README.md", "\n\n# Welcome *home* #\n\n\nBody.",
		"getting_started-now.md", "No title line.\n# Not first",
		"setext.md", "Title\n=====\n\nBody",
		"h2.md", "## Section\n\nBody",
	))
	if err != nil {
		t.Fatal(err)
	}
	checkOutline(t, r, `
document welcome-home "Welcome home" README.md
document getting_started-now "Getting started now" getting_started-now.md
document h2 "H2" h2.md
document setext "Setext" setext.md`)
	if got := r.Pages[0].Markdown; got != "Body." {
		t.Errorf("the title line stays in the markdown: %q", got)
	}
	if got := r.Pages[2].Markdown; got != "## Section\n\nBody" {
		t.Errorf("a page starting with a heading lost it: %q", got)
	}
}

func TestImportFrontMatter(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(tree(
		"README.md", "---\nicon: 🎉\ncover: https://img.example/c.png\n---\n# Home",
		"page.md", "---\ndescription: About it\nicon: gear\nhidden: true\ncover: img/c.png\ncoverY: 7\nlayout:\n  width: wide\n---\n# Page",
		"img/c.png", "\x89PNG\r\n\x1a\n",
		"broken.md", "---\ndescription: [\n---\n# Broken\nBody",
	))
	if err != nil {
		t.Fatal(err)
	}
	home, broken, page := r.Pages[0], r.Pages[1], r.Pages[2]
	if home.Emoji != "🎉" || home.Icon != "" || home.Cover != "https://img.example/c.png" {
		t.Errorf("home: %+v", home)
	}
	if page.Description != "About it" || page.Icon != "gear" || !page.Hidden || page.Cover != "img/c.png" || page.CoverY != 7 || page.Layout.Width != "wide" {
		t.Errorf("page: %+v", page)
	}
	if broken.Title != "Broken" || broken.Markdown != "Body" {
		t.Errorf("broken front matter: %+v", broken)
	}
	if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "broken.md: front matter: yaml:") {
		t.Errorf("warnings: %q", r.Warnings)
	}
	if len(r.Files) != 1 || r.Files[0].Path != "img/c.png" || r.Files[0].ContentType != "image/png" {
		t.Errorf("the cover is a file of the space: %+v", r.Files)
	}
}

func TestImportFiles(t *testing.T) {
	t.Parallel()
	r, err := gitbookimport.Import(tree(
		"README.md", "![a](.gitbook/assets/a.png) [doc](docs/spec.pdf) [csv](data.csv) [missing](gone.png) [page](other.md) ![up](../outside.png)",
		".gitbook/assets/a.png", "\x89PNG\r\n\x1a\nrest",
		".gitbook/assets/sub/b.svg", "<svg/>",
		".gitbook/assets/noext", "%PDF-1.7",
		".gitbook/assets/.DS_Store", "junk",
		"docs/spec.pdf", "%PDF-1.7",
		"data.csv", "a,b",
		"unlinked.png", "\x89PNG",
		"other.md", "",
	))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range r.Files {
		got = append(got, f.Path+" "+f.Name+" "+f.ContentType)
	}
	want := []string{
		".gitbook/assets/a.png a.png image/png",
		".gitbook/assets/noext noext application/pdf",
		".gitbook/assets/sub/b.svg b.svg image/svg+xml",
		"data.csv data.csv text/csv; charset=utf-8",
		"docs/spec.pdf spec.pdf application/pdf",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("files:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if string(r.Files[0].Data) != "\x89PNG\r\n\x1a\nrest" {
		t.Errorf("file bytes: %q", r.Files[0].Data)
	}
}

func TestImportRoot(t *testing.T) {
	t.Parallel()
	t.Run("an archive's single directory is the root", func(t *testing.T) {
		t.Parallel()
		r, err := gitbookimport.Import(tree("docs-main/README.md", "# Home", "docs-main/a.md", "# A", "__MACOSX/._README.md", "junk", ".DS_Store", "junk"))
		if err != nil {
			t.Fatal(err)
		}
		checkOutline(t, r, "document home \"Home\" README.md\ndocument a \"A\" a.md")
	})
	t.Run(".gitbook.yaml moves the root and renames README and SUMMARY", func(t *testing.T) {
		t.Parallel()
		r, err := gitbookimport.Import(tree(
			".gitbook.yaml", "root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc/contents.md\n",
			"README.md", "# The repository's readme, not the docs'",
			"docs/intro.md", "# Intro",
			"docs/toc/contents.md", "* [Intro](../intro.md)\n* [Usage](../usage.md)\n",
			"docs/usage.md", "# Usage",
		))
		if err != nil {
			t.Fatal(err)
		}
		checkOutline(t, r, "document intro \"Intro\" intro.md\ndocument usage \"Usage\" usage.md")
	})
	t.Run(".gitbook.yaml may not leave the repository", func(t *testing.T) {
		t.Parallel()
		_, err := gitbookimport.Import(tree(".gitbook.yaml", "root: ../../etc\n", "README.md", "# x"))
		expectError(t, err, apperr.Invalid, ".gitbook.yaml: root")
	})
	t.Run("invalid .gitbook.yaml is ignored with a warning", func(t *testing.T) {
		t.Parallel()
		r, err := gitbookimport.Import(tree(".gitbook.yaml", "root: [", "README.md", "# x"))
		if err != nil || len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], ".gitbook.yaml: not valid YAML") {
			t.Fatalf("err %v, warnings %q", err, r.Warnings)
		}
	})
	t.Run("a tree without markdown is refused", func(t *testing.T) {
		t.Parallel()
		_, err := gitbookimport.Import(tree("image.png", "x", ".gitbook/assets/a.png", "x"))
		expectError(t, err, apperr.Invalid, "no markdown page")
	})
}

func expectError(t *testing.T, err error, code apperr.Code, fragment string) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok {
		t.Fatalf("error %v is not an apperr error", err)
	}
	if e.Code != code || !strings.Contains(e.Message, fragment) {
		t.Fatalf("error %q (%s), want %s containing %q", e.Message, e.Code, code, fragment)
	}
}
