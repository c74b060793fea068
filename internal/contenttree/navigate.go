package contenttree

import (
	"cmp"
	"slices"
)

// Paths follow GitBook's: a page's path is the slugs of its ancestors and its own, joined by "/",
// groups included ("getting-started/quickstart"). Links have no path. The first document of the
// space is also its home, which a reader reaches with the empty path; its own path stays its slugs.

// Children returns the pages under parentID ("" for the top level), in order.
func (t *Tree) Children(parentID string) []Page {
	var children []Page
	for _, p := range orEmpty(t).Pages {
		if p.ParentID == parentID {
			children = append(children, p)
		}
	}
	slices.SortFunc(children, comparePages)
	return children
}

func comparePages(a, b Page) int {
	return cmp.Or(cmp.Compare(a.Order, b.Order), cmp.Compare(a.ID, b.ID))
}

// childIndex lists the children of every parent, in order, in one pass.
func (t *Tree) childIndex() map[string][]Page {
	index := map[string][]Page{}
	for _, p := range t.Pages {
		index[p.ParentID] = append(index[p.ParentID], p)
	}
	for _, children := range index {
		slices.SortFunc(children, comparePages)
	}
	return index
}

// Walk calls fn for each page reachable from the top level, depth first and in order (a page before
// its children), with the page's depth (0 at the top level). Pages whose parent is missing, and
// pages on a cycle, are not reachable. When fn returns false, Walk skips the page's children.
func (t *Tree) Walk(fn func(p Page, depth int) bool) {
	index := orEmpty(t).childIndex()
	var walk func(parentID string, depth int)
	walk = func(parentID string, depth int) {
		for _, p := range index[parentID] {
			if fn(p, depth) {
				walk(p.ID, depth+1)
			}
		}
	}
	walk("", 0)
}

// walkPaths walks the pages that have a path, in order, with their paths.
func (t *Tree) walkPaths(fn func(p Page, path string) bool) {
	prefix := map[string]string{"": ""}
	t.Walk(func(p Page, _ int) bool {
		if p.Kind == KindLink {
			return false
		}
		path := prefix[p.ParentID] + p.Slug
		prefix[p.ID] = path + "/"
		return fn(p, path)
	})
}

// Paths returns the path of every page reachable from the top level that has one (links have none).
func (t *Tree) Paths() map[string]string {
	paths := map[string]string{}
	t.walkPaths(func(p Page, path string) bool {
		paths[p.ID] = path
		return true
	})
	return paths
}

// Path returns the path of one page; ok is false when the page is missing, is a link, or is not
// reachable from the top level.
func (t *Tree) Path(id string) (path string, ok bool) {
	t = orEmpty(t)
	if id == "" {
		return "", false
	}
	var slugs []string
	seen := map[string]bool{}
	for id != "" {
		p, found := t.Pages[id]
		if !found || seen[id] || p.Kind == KindLink && len(slugs) == 0 {
			return "", false
		}
		seen[id] = true
		slugs = append(slugs, p.Slug)
		id = p.ParentID
	}
	slices.Reverse(slugs)
	path = slugs[0]
	for _, s := range slugs[1:] {
		path += "/" + s
	}
	return path, true
}

// Home returns the space's first document: the first top-level page that is a document, or the
// first document of a group, whichever comes first. Links are skipped.
func (t *Tree) Home() (Page, bool) {
	var home Page
	found := false
	t.Walk(func(p Page, depth int) bool {
		if found {
			return false
		}
		switch {
		case p.Kind == KindDocument:
			home, found = p, true
			return false
		case p.Kind == KindGroup && depth == 0:
			return true
		default:
			return false
		}
	})
	return home, found
}

// PageByPath finds the document or group at path; the empty path is the home page.
func (t *Tree) PageByPath(path string) (Page, bool) {
	if path == "" {
		return t.Home()
	}
	var page Page
	found := false
	t.walkPaths(func(p Page, pagePath string) bool {
		if found {
			return false
		}
		if pagePath == path {
			page, found = p, true
			return false
		}
		// Only an ancestor's path can lead to this one.
		return len(path) > len(pagePath) && path[len(pagePath)] == '/' && path[:len(pagePath)] == pagePath
	})
	return page, found
}
