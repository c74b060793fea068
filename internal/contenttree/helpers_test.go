package contenttree

import (
	"encoding/json"
	"strings"
	"testing"
)

func doc(id, parent, order, slug string) Page {
	return Page{ID: id, ParentID: parent, Order: order, Kind: KindDocument, Slug: slug,
		Title: strings.ToUpper(slug[:1]) + slug[1:]}
}

func group(id, order, slug string) Page {
	p := doc(id, "", order, slug)
	p.Kind = KindGroup
	return p
}

func link(id, parent, order, url string) Page {
	return Page{ID: id, ParentID: parent, Order: order, Kind: KindLink, Title: url,
		Target: json.RawMessage(`{"kind":"url","url":"` + url + `"}`)}
}

func treeOf(pages ...Page) *Tree {
	t := New()
	for _, p := range pages {
		t.Pages[p.ID] = p
	}
	return t
}

// edit returns a copy of t changed by each function in turn.
func edit(t *Tree, changes ...func(*Tree)) *Tree {
	c := t.Clone()
	for _, change := range changes {
		change(c)
	}
	return c
}

// setPage changes one page of a tree in place.
func setPage(t *Tree, id string, change func(p *Page)) {
	p := t.Pages[id]
	change(&p)
	t.Pages[id] = p
}

// removeSubtree deletes a page and everything below it.
func removeSubtree(t *Tree, id string) {
	delete(t.Pages, id)
	for _, p := range t.Pages {
		if p.ParentID == id {
			removeSubtree(t, p.ID)
		}
	}
}

func ids(pages []Page) []string {
	out := make([]string, len(pages))
	for i, p := range pages {
		out[i] = p.ID
	}
	return out
}

func mustValid(t *testing.T, tree *Tree) {
	t.Helper()
	if err := tree.Validate(); err != nil {
		t.Fatal(err)
	}
}
