package spacelinks_test

import (
	"testing"
	"testing/fstest"

	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/markdoc"
	"docsd/internal/spacelinks"
)

// tree builds a space tree from an import, with page ids from slugs, as the content service
// would (ids differ there; the links do not depend on them).
func tree(t *testing.T, res *gitbookimport.Result) (*contenttree.Tree, []string) {
	t.Helper()
	tr := contenttree.New()
	ids := make([]string, len(res.Pages))
	order := map[int]string{}
	for i, p := range res.Pages {
		ids[i] = "p" + string(rune('a'+i))
		parent := ""
		if p.Parent >= 0 {
			parent = ids[p.Parent]
		}
		key, err := contenttree.OrderBetween(order[p.Parent], "")
		if err != nil {
			t.Fatal(err)
		}
		order[p.Parent] = key
		tr.Pages[ids[i]] = contenttree.Page{ID: ids[i], ParentID: parent, Order: key, Kind: contenttree.Kind(p.Kind),
			Title: p.Title, Slug: p.Slug, Markdown: p.Markdown}
	}
	for i, f := range res.Files {
		id := "f" + string(rune('a'+i))
		tr.Files[id] = contenttree.File{ID: id, Name: f.Name}
	}
	return tr, ids
}

func TestImportedLinksResolve(t *testing.T) {
	res, err := gitbookimport.Import(fstest.MapFS{
		"README.md":  {Data: []byte("# Home\n\n[Setup](docs/setup-guide.md#run)\n")},
		"SUMMARY.md": {Data: []byte("* [Home](README.md)\n* [Guides](guides.md)\n  * [Setup](docs/setup-guide.md)\n")},
		"guides.md":  {Data: []byte("# Guides\n")},
		"docs/setup-guide.md": {Data: []byte("# Setup\n\n[home](../README.md) [guides](../guides.md) " +
			"![logo](../.gitbook/assets/logo.png) [gone](../gone.md) [out](https://example.com) [self](#here)\n")},
		".gitbook/assets/logo.png": {Data: []byte("\x89PNG")},
	})
	if err != nil {
		t.Fatal(err)
	}
	tr, ids := tree(t, res)
	r := spacelinks.New(tr)
	home, guides, setup := ids[0], ids[1], ids[2]
	want := map[string]markdoc.Ref{}
	for _, l := range markdoc.Links(res.Pages[2].Markdown) {
		ref, ok := r.Resolve(setup, l.Dest)
		if ok {
			want[l.Text] = ref
		} else {
			want[l.Text] = markdoc.Ref{}
		}
	}
	expect := map[string]markdoc.Ref{
		"home": {Kind: "page", Page: home}, "guides": {Kind: "page", Page: guides},
		"logo": {Kind: "file", File: "fa"}, "gone": {}, "out": {}, "self": {},
	}
	for text, w := range expect {
		if got := want[text]; got != w {
			t.Errorf("%s: got %+v, want %+v", text, got, w)
		}
	}
	links := markdoc.Links(res.Pages[0].Markdown)
	if ref, ok := r.Resolve(home, links[0].Dest); !ok || ref != (markdoc.Ref{Kind: "anchor", Page: setup, Anchor: "run"}) {
		t.Errorf("home → setup: %+v %v (dest %q)", ref, ok, links[0].Dest)
	}
}
