package httpapi_test

import (
	"encoding/json"
	"maps"
	"testing"

	"docsd/internal/apitest"
)

// defaultLayout is GitBook's layout of a page nothing was said about: every option the API's
// RevisionPageLayoutOptions requires (0.146, and coverMask, tags, actions, anchors since).
func defaultLayout() map[string]any {
	return map[string]any{"width": "default", "cover": true, "coverSize": "hero", "coverMask": "none",
		"title": true, "description": true, "tableOfContents": true, "outline": true, "pagination": true,
		"metadata": true, "tags": true, "actions": true, "anchors": true}
}

// layoutWith is the default layout with some options changed.
func layoutWith(changes map[string]any) map[string]any {
	l := defaultLayout()
	maps.Copy(l, changes)
	return l
}

// layoutAt reads the layout object at path in an answer.
func layoutAt(t *testing.T, r *apitest.Resp, path string) map[string]any {
	t.Helper()
	v, ok := r.Get(path)
	if !ok {
		t.Fatalf("no %s in %s", path, r.Body)
	}
	m, _ := v.(map[string]any)
	return m
}

func checkLayout(t *testing.T, where string, got, want map[string]any) {
	t.Helper()
	if !maps.Equal(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Errorf("%s: layout %s, want %s", where, g, w)
	}
}

// Every read that answers a document page answers its complete layout, never {}.
func TestPageLayoutOnEveryRead(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	rev, _ := replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("p1", "", "One", "one", "First.\n").
		doc("p2", "", "Two", "two", "See [one](one.md).\n").tree)
	cr := newChangeRequest(t, e, e.Admin, sp, "layouts")
	base := "/v1/spaces/" + sp
	want := defaultLayout()
	for path, at := range map[string]string{
		base + "/content":                                   "pages.0.layout",
		base + "/content/pages":                             "pages.0.layout",
		base + "/content/page/p1":                           "layout",
		base + "/content/path/one":                          "layout",
		base + "/revisions/" + rev.ID:                       "pages.1.layout",
		base + "/revisions/" + rev.ID + "/pages":            "pages.1.layout",
		base + "/revisions/" + rev.ID + "/page/p1":          "layout",
		crPath(sp, cr) + "/content":                         "pages.0.layout",
		crPath(sp, cr) + "/content/pages":                   "pages.1.layout",
		crPath(sp, cr) + "/content/page/p2":                 "layout",
		crPath(sp, cr) + "/content/path/two":                "layout",
		base + "/content/page/p1/backlinks":                 "items.0.page.layout",
		crPath(sp, cr) + "/content/page/p1/backlinks":       "items.0.page.layout",
		base + "/content/page/p2/links":                     "items.0.targetReference.page.layout",
		crPath(sp, cr) + "/content/page/p2/links":           "items.0.targetReference.page.layout",
		base + "/links":                                     "items.0.targetReference.page.layout",
		base + "/content/page/p1?format=markdown":           "layout",
		crPath(sp, cr) + "/content/page/p1?format=document": "layout",
	} {
		checkLayout(t, path, layoutAt(t, e.Get(e.Admin, path).Expect(200), at), want)
	}
}

// Page edits in a change request set the layout: a preset, some options (the others kept), or
// null for the defaults; bad values are 400 naming the option.
func TestChangeRequestPageLayoutEdits(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	cr := newChangeRequest(t, e, e.Admin, sp, "layouts")
	read := func(rev, page string) map[string]any {
		t.Helper()
		return layoutAt(t, pageAt(e, sp, rev, page).Expect(200), "layout")
	}

	rev := editPage(t, e, sp, cr, "p1", map[string]any{"layout": map[string]any{"width": "wide", "outline": false}})
	checkLayout(t, "some options", read(rev, "p1"), layoutWith(map[string]any{"width": "wide", "outline": false}))
	rev = editPage(t, e, sp, cr, "p1", map[string]any{"layout": map[string]any{"title": false, "coverSize": "full", "coverMask": "radial"}})
	wide := layoutWith(map[string]any{"width": "wide", "outline": false, "title": false, "coverSize": "full", "coverMask": "radial"})
	checkLayout(t, "more options keep the earlier ones", read(rev, "p1"), wide)
	rev = editPage(t, e, sp, cr, "p1", map[string]any{"title": "Uno"})
	checkLayout(t, "an edit without layout keeps it", read(rev, "p1"), wide)
	rev = editPage(t, e, sp, cr, "p1", map[string]any{"layout": "landing"})
	landing := layoutWith(map[string]any{"width": "wide", "coverSize": "full", "tableOfContents": false, "outline": false,
		"pagination": false, "metadata": false})
	checkLayout(t, "the landing preset", read(rev, "p1"), landing)
	rev = editPage(t, e, sp, cr, "p1", map[string]any{"layout": nil})
	checkLayout(t, "null: the defaults", read(rev, "p1"), defaultLayout())

	created := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "Wide", "layout": map[string]any{"width": "wide"}}).Expect(201)
	checkLayout(t, "a new page", read(created.Str("revision"), created.Str("page")), layoutWith(map[string]any{"width": "wide"}))

	t.Run("merged, the head has the layouts", func(t *testing.T) {
		editPage(t, e, sp, cr, "p2", map[string]any{"layout": "editorial"})
		e.Post(e.Admin, crPath(sp, cr)+"/merge", nil).Expect(200)
		checkLayout(t, "head p2", read("", "p2"), layoutWith(map[string]any{"coverSize": "full", "outline": false, "pagination": false}))
		checkLayout(t, "head p1", read("", "p1"), defaultLayout())
	})

	cr2 := newChangeRequest(t, e, e.Admin, sp, "bad layouts")
	group := e.Post(e.Admin, crPath(sp, cr2)+"/pages", map[string]any{"title": "Group", "kind": "group"}).Expect(201).Str("page")
	for _, tc := range []struct {
		name   string
		page   string
		layout any
		msg    []string
	}{
		{"an unknown width", "p1", map[string]any{"width": "huge"}, []string{"layout.width", "default, wide"}},
		{"a cover size the reference spec lacks", "p1", map[string]any{"coverSize": "background"}, []string{"layout.coverSize", "hero, full"}},
		{"a flag that is not a boolean", "p1", map[string]any{"outline": "no"}, []string{"layout.outline", "true or false"}},
		{"an unknown option", "p1", map[string]any{"sidebar": true}, []string{"layout.sidebar", "unknown"}},
		{"an unknown preset", "p1", "blog", []string{"layout", "docs, editorial, landing"}},
		{"not a preset or an object", "p1", 3, []string{"layout"}},
		{"a group", group, map[string]any{"width": "wide"}, []string{"layout", "document"}},
	} {
		t.Run(tc.name+" is refused", func(t *testing.T) {
			before := e.Get(e.Admin, crPath(sp, cr2)).Expect(200).Str("revision")
			e.Patch(e.Admin, crPath(sp, cr2)+"/pages/"+tc.page, map[string]any{"layout": tc.layout}).Expect(400).ExpectMessage(tc.msg...)
			if e.Get(e.Admin, crPath(sp, cr2)).Expect(200).Str("revision") != before {
				t.Error("a refused edit made a revision")
			}
		})
	}
}

// An import takes each page's layout from its front matter, in GitBook's format, and gives
// the pages without one the defaults.
func TestImportedPageLayout(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	files := map[string]string{
		"README.md": "# Home\n\nNo front matter.\n",
		"wide.md": "---\nlayout:\n  width: wide\n  cover:\n    visible: false\n    size: full\n  title:\n    visible: true\n" +
			"  description:\n    visible: false\n  tableOfContents:\n    visible: true\n  outline:\n    visible: false\n" +
			"  pagination:\n    visible: true\n  metadata:\n    visible: false\n---\n# Wide\n",
		"landing.md": "---\nlayout: landing\n---\n# Landing\n",
		"SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Wide](wide.md)\n* [Landing](landing.md)\n",
	}
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, files)).Expect(201)
	r := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
	if r.Str("pages.0.title") != "Home" || r.Str("pages.1.title") != "Wide" || r.Str("pages.2.title") != "Landing" {
		t.Fatalf("pages %s", r.Body)
	}
	checkLayout(t, "no front matter", layoutAt(t, r, "pages.0.layout"), defaultLayout())
	checkLayout(t, "front matter options", layoutAt(t, r, "pages.1.layout"), layoutWith(map[string]any{"width": "wide", "cover": false,
		"coverSize": "full", "description": false, "outline": false, "metadata": false}))
	checkLayout(t, "front matter preset", layoutAt(t, r, "pages.2.layout"), layoutWith(map[string]any{"width": "wide", "coverSize": "full",
		"tableOfContents": false, "outline": false, "pagination": false, "metadata": false}))
}
