package contenttree

import (
	"encoding/json"
	"slices"
	"testing"
)

// sample is a small space: a home page, a guide with two pages, a group with a page and a link.
func sample() *Tree {
	return treeOf(
		doc("home", "", "a", "readme"),
		doc("guide", "", "b", "guide"),
		doc("install", "guide", "a", "install"),
		doc("usage", "guide", "b", "usage"),
		group("api", "c", "api"),
		doc("ref", "api", "a", "reference"),
		link("site", "api", "b", "https://example.com"),
	)
}

func TestChildrenAreInOrderThenByID(t *testing.T) {
	t.Parallel()
	tree := treeOf(doc("z", "", "b", "z"), doc("y", "", "a", "y"), doc("x", "", "b", "x"), doc("c", "x", "a", "c"))
	if got := ids(tree.Children("")); !slices.Equal(got, []string{"y", "x", "z"}) {
		t.Errorf("top level %v", got)
	}
	if got := ids(tree.Children("x")); !slices.Equal(got, []string{"c"}) {
		t.Errorf("children of x %v", got)
	}
	if got := tree.Children("missing"); len(got) != 0 {
		t.Errorf("children of a missing page %v", got)
	}
}

func TestWalkVisitsPagesDepthFirstInOrder(t *testing.T) {
	t.Parallel()
	tree := sample()
	tree.Pages["orphan"] = doc("orphan", "gone", "a", "orphan")
	var got []string
	var depths []int
	tree.Walk(func(p Page, depth int) bool {
		got = append(got, p.ID)
		depths = append(depths, depth)
		return p.ID != "api" // skip the group's children
	})
	if want := []string{"home", "guide", "install", "usage", "api"}; !slices.Equal(got, want) {
		t.Errorf("walked %v, want %v", got, want)
	}
	if want := []int{0, 0, 1, 1, 0}; !slices.Equal(depths, want) {
		t.Errorf("depths %v, want %v", depths, want)
	}
}

func TestPathsJoinSlugsIncludingGroups(t *testing.T) {
	t.Parallel()
	tree := sample()
	want := map[string]string{
		"home": "readme", "guide": "guide", "install": "guide/install", "usage": "guide/usage",
		"api": "api", "ref": "api/reference",
	}
	got := tree.Paths()
	if len(got) != len(want) {
		t.Errorf("paths %v, want %v", got, want)
	}
	for id, path := range want {
		if got[id] != path {
			t.Errorf("Paths()[%s] = %q, want %q", id, got[id], path)
		}
		if p, ok := tree.Path(id); !ok || p != path {
			t.Errorf("Path(%s) = %q, %v; want %q", id, p, ok, path)
		}
		if p, ok := tree.PageByPath(path); !ok || p.ID != id {
			t.Errorf("PageByPath(%q) = %q, %v; want %s", path, p.ID, ok, id)
		}
	}
	for _, id := range []string{"site", "missing", ""} {
		if p, ok := tree.Path(id); ok {
			t.Errorf("Path(%q) = %q, want none", id, p)
		}
	}
	for _, path := range []string{"guide/missing", "nope", "guide/install/x", "readme/"} {
		if p, ok := tree.PageByPath(path); ok {
			t.Errorf("PageByPath(%q) = %s, want none", path, p.ID)
		}
	}
}

func TestHomeIsTheFirstDocument(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		tree *Tree
		want string
	}{
		{"first top-level document", sample(), "home"},
		{"first document of a leading group", treeOf(
			link("l", "", "a", "https://example.com"), group("g", "b", "g"), doc("d", "g", "b", "d"),
			doc("e", "g", "a", "e"), doc("top", "", "c", "top")), "e"},
		{"an empty group is passed over", treeOf(group("g", "a", "g"), doc("d", "", "b", "d")), "d"},
		{"no documents", treeOf(link("l", "", "a", "https://example.com")), ""},
		{"empty tree", New(), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home, ok := tc.tree.Home()
			if ok != (tc.want != "") || home.ID != tc.want {
				t.Fatalf("Home() = %q, %v; want %q", home.ID, ok, tc.want)
			}
			byPath, ok := tc.tree.PageByPath("")
			if ok != (tc.want != "") || byPath.ID != tc.want {
				t.Fatalf(`PageByPath("") = %q, %v; want %q`, byPath.ID, ok, tc.want)
			}
		})
	}
}

func TestNilTreeIsEmpty(t *testing.T) {
	t.Parallel()
	var tree *Tree
	if len(tree.Children("")) != 0 || len(tree.Paths()) != 0 || len(tree.Check()) != 0 || !tree.Equal(New()) {
		t.Fatal("a nil tree should behave as an empty one")
	}
	if _, ok := tree.Home(); ok {
		t.Fatal("a nil tree has no home")
	}
}

func TestCloneIsIndependent(t *testing.T) {
	t.Parallel()
	tree := sample()
	setPage(tree, "home", func(p *Page) { p.Variables = map[string]json.RawMessage{"v": json.RawMessage(`1`)} })
	c := tree.Clone()
	setPage(c, "home", func(p *Page) { p.Title = "Changed"; p.Variables["v"] = json.RawMessage(`2`) })
	delete(c.Pages, "usage")
	c.Files["f"] = File{ID: "f"}
	c.Variables["x"] = json.RawMessage(`true`)
	if tree.Pages["home"].Title != "Readme" || string(tree.Pages["home"].Variables["v"]) != "1" ||
		len(tree.Pages) != 7 || len(tree.Files) != 0 || len(tree.Variables) != 0 {
		t.Fatal("changing the clone changed the original")
	}
}

func TestEqualComparesJSONByMeaning(t *testing.T) {
	t.Parallel()
	a := treeOf(doc("p", "", "a", "p"))
	b := a.Clone()
	setPage(a, "p", func(p *Page) { p.Layout = json.RawMessage(`{"width":"wide","cover":true}`) })
	setPage(b, "p", func(p *Page) { p.Layout = json.RawMessage(`{ "cover": true, "width": "wide" }`) })
	if !a.Equal(b) {
		t.Error("layouts with the same meaning should be equal")
	}
	setPage(b, "p", func(p *Page) { p.Layout = json.RawMessage(`{"cover":false,"width":"wide"}`) })
	if a.Equal(b) {
		t.Error("different layouts should differ")
	}
	c, d := treeOf(doc("p", "", "a", "p")), treeOf(doc("p", "", "a", "p"))
	setPage(c, "p", func(p *Page) { p.Cover = json.RawMessage(`null`); p.Variables = map[string]json.RawMessage{} })
	if !c.Equal(d) {
		t.Error("null and absent, empty and nil should be equal")
	}
}
