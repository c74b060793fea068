// Package spacelinks resolves the relative links a page's markdown holds to the pages and
// files of its space. Imports write links in the layout GitBook's Git Sync gives a space (see
// gitbookimport.SpaceLocation): a page at its path plus ".md", or plus "/README.md" when pages
// sit under it; files under ".gitbook/assets/". Link checks and renderers resolve them here.
package spacelinks

import (
	"strings"

	"docsd/internal/contenttree"
	"docsd/internal/gitbookimport"
	"docsd/internal/markdoc"
)

// Resolver resolves links within one revision's tree.
type Resolver struct {
	tree     *contenttree.Tree
	paths    map[string]string // page id → path
	byPath   map[string]string // path → page id
	parents  map[string]bool   // ids of pages with pages under them
	fileName map[string]string // file name → file id; "" when two files share it
	home     string            // the home page's id, "" for none: found once, not per link
}

// New indexes a tree.
func New(t *contenttree.Tree) *Resolver {
	r := &Resolver{tree: t, paths: t.Paths(), byPath: map[string]string{}, parents: map[string]bool{},
		fileName: map[string]string{}}
	for id, p := range r.paths {
		r.byPath[p] = id
	}
	for _, p := range t.Pages {
		if p.ParentID != "" {
			r.parents[p.ParentID] = true
		}
	}
	if home, ok := t.Home(); ok {
		r.home = home.ID
	}
	for id, f := range t.Files {
		if _, dup := r.fileName[f.Name]; dup {
			r.fileName[f.Name] = ""
		} else {
			r.fileName[f.Name] = id
		}
	}
	return r
}

// Location is where a page lives in the space's file layout; ok is false for pages without a
// path (links, unreachable pages).
func (r *Resolver) Location(pageID string) (string, bool) {
	p, ok := r.paths[pageID]
	if !ok {
		return "", false
	}
	return gitbookimport.SpaceLocation(p, r.parents[pageID]), true
}

// Resolve maps dest, written in page pageID, to a page ({kind: page} or, with a fragment,
// {kind: anchor, page}) or a file ({kind: file}). ok is false for URLs, same-page anchors and
// relative links that point at nothing in the space.
func (r *Resolver) Resolve(pageID, dest string) (markdoc.Ref, bool) {
	l, ok := markdoc.ParseLink(dest)
	if !ok || (l.Kind != markdoc.LinkPage && l.Kind != markdoc.LinkFile) {
		return markdoc.Ref{}, false
	}
	from, ok := r.Location(pageID)
	if !ok {
		return markdoc.Ref{}, false
	}
	target, ok := l.Resolve(from)
	if !ok {
		return markdoc.Ref{}, false
	}
	if name, isAsset := strings.CutPrefix(target, ".gitbook/assets/"); isAsset {
		if id := r.fileName[name]; id != "" {
			return markdoc.Ref{Kind: "file", File: id}, true
		}
		return markdoc.Ref{}, false
	}
	id, found := r.pageAt(target)
	if !found {
		return markdoc.Ref{}, false
	}
	if l.Anchor != "" {
		return markdoc.Ref{Kind: "anchor", Page: id, Anchor: l.Anchor}, true
	}
	return markdoc.Ref{Kind: "page", Page: id}, true
}

// pageAt finds the page a location names: "a/b.md" or "a/b/README.md" is the page at a/b, and
// "README.md" the space's home.
func (r *Resolver) pageAt(loc string) (string, bool) {
	if loc == "README.md" {
		return r.home, r.home != ""
	}
	p, isReadme := strings.CutSuffix(loc, "/README.md")
	if !isReadme {
		var isMD bool
		if p, isMD = strings.CutSuffix(loc, ".md"); !isMD {
			p = strings.TrimSuffix(loc, "/")
		}
	}
	id, ok := r.byPath[p]
	return id, ok
}
