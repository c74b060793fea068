package contenttree

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDiff(t *testing.T) {
	t.Parallel()
	old := sample()
	old.Files["f1"] = File{ID: "f1", Name: "a.png", ContentType: "image/png", Hash: "h1", Size: 10}
	old.Files["f2"] = File{ID: "f2", Name: "b.png", ContentType: "image/png", Hash: "h2", Size: 20}
	old.Variables["kept"] = json.RawMessage(`"1"`)
	old.Variables["gone"] = json.RawMessage(`"x"`)
	old.Variables["changed"] = json.RawMessage(`1`)
	setPage(old, "ref", func(p *Page) { p.Layout = json.RawMessage(`{"width":"default","outline":true}`) })

	new := edit(old,
		func(t *Tree) { t.Pages["faq"] = doc("faq", "", "d", "faq") },
		func(t *Tree) { delete(t.Pages, "site") },
		func(t *Tree) { setPage(t, "guide", func(p *Page) { p.Slug = "guides"; p.Title = "Guides" }) },
		func(t *Tree) { setPage(t, "usage", func(p *Page) { p.Markdown = "# Usage\n"; p.Hidden = true }) },
		func(t *Tree) { setPage(t, "home", func(p *Page) { p.Order = "0V"; p.ParentID = "" }) },
		func(t *Tree) {
			// Same meaning, other spelling: not a change.
			setPage(t, "ref", func(p *Page) { p.Layout = json.RawMessage(`{"outline": true, "width": "default"}`) })
		},
		func(t *Tree) {
			setPage(t, "api", func(p *Page) { p.Variables = map[string]json.RawMessage{"v": json.RawMessage(`"x"`)} })
		},
		func(t *Tree) {
			t.Files["f1"] = File{ID: "f1", Name: "renamed.png", ContentType: "image/png", Hash: "h9", Size: 10}
		},
		func(t *Tree) { delete(t.Files, "f2"); t.Files["f3"] = File{ID: "f3"} },
		func(t *Tree) {
			delete(t.Variables, "gone")
			t.Variables["changed"] = json.RawMessage(`2`)
			t.Variables["new"] = json.RawMessage(`true`)
		},
	)
	want := Changes{
		Pages: []PageChange{
			{ID: "api", Type: Changed, Fields: []string{FieldVariables}},
			{ID: "faq", Type: Added},
			{ID: "guide", Type: Changed, Fields: []string{FieldTitle, FieldSlug, FieldPath}},
			{ID: "home", Type: Changed, Fields: []string{FieldOrder}},
			{ID: "install", Type: Changed, Fields: []string{FieldPath}},
			{ID: "site", Type: Removed},
			{ID: "usage", Type: Changed, Fields: []string{FieldHidden, FieldMarkdown, FieldPath}},
		},
		Files: []FileChange{
			{ID: "f1", Type: Changed, Fields: []string{FieldName, FieldContent}},
			{ID: "f2", Type: Removed},
			{ID: "f3", Type: Added},
		},
		Variables: []VariableChange{
			{Name: "changed", Type: Changed},
			{Name: "gone", Type: Removed},
			{Name: "new", Type: Added},
		},
	}
	if got := Diff(old, new); !reflect.DeepEqual(got, want) {
		t.Fatalf("Diff:\n got %+v\nwant %+v", got, want)
	}
}

func TestDiffOfAMove(t *testing.T) {
	t.Parallel()
	old := sample()
	new := edit(old, func(t *Tree) { setPage(t, "guide", func(p *Page) { p.ParentID = "home"; p.Order = "a" }) })
	want := []PageChange{
		{ID: "guide", Type: Changed, Fields: []string{FieldParent, FieldOrder, FieldPath}},
		{ID: "install", Type: Changed, Fields: []string{FieldPath}},
		{ID: "usage", Type: Changed, Fields: []string{FieldPath}},
	}
	if got := Diff(old, new).Pages; !reflect.DeepEqual(got, want) {
		t.Fatalf("Diff:\n got %+v\nwant %+v", got, want)
	}
}

func TestDiffOfEqualTreesIsEmpty(t *testing.T) {
	t.Parallel()
	if c := Diff(sample(), sample()); !c.Empty() {
		t.Fatalf("Diff of equal trees: %+v", c)
	}
	if c := Diff(nil, New()); !c.Empty() {
		t.Fatalf("Diff of empty trees: %+v", c)
	}
	if c := Diff(nil, sample()); len(c.Pages) != 7 || c.Pages[0].Type != Added {
		t.Fatalf("Diff from nothing: %+v", c)
	}
}
