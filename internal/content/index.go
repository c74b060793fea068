package content

import (
	"cmp"
	"maps"
	"slices"

	"docsd/internal/contenttree"
)

// A commit derives the new snapshot's children lists and paths from its base's, redoing only
// what the changed pages touch, so that committing one page of a large space does not walk
// the whole tree. Snapshot.index does the same from scratch, for a decoded revision.

// changedPages lists the ids of the pages a change upserts or removes, once each.
func changedPages(ch Changes) []string {
	ids := make([]string, 0, len(ch.UpsertPages)+len(ch.RemovePages))
	for _, p := range ch.UpsertPages {
		ids = append(ids, p.ID)
	}
	ids = append(ids, ch.RemovePages...)
	slices.Sort(ids)
	return slices.Compact(ids)
}

// patchChildren returns next's children lists: base's, with the lists of every parent a
// changed page left or joined rebuilt. Lists are shared with base, never changed in place.
func patchChildren(base *View, next *contenttree.Tree, changed []string) map[string][]string {
	children := maps.Clone(base.childMap())
	if children == nil {
		children = map[string][]string{}
	}
	isChanged := map[string]bool{}
	parents := map[string]bool{}
	for _, id := range changed {
		isChanged[id] = true
		if p, ok := base.Page(id); ok {
			parents[p.ParentID] = true
		}
		if p, ok := next.Pages[id]; ok {
			parents[p.ParentID] = true
		}
	}
	for parent := range parents {
		var list []string
		for _, id := range base.Children(parent) {
			if !isChanged[id] {
				list = append(list, id)
			}
		}
		for _, id := range changed {
			if p, ok := next.Pages[id]; ok && p.ParentID == parent {
				list = append(list, id)
			}
		}
		slices.SortFunc(list, func(a, b string) int {
			pa, pb := next.Pages[a], next.Pages[b]
			return cmp.Or(cmp.Compare(pa.Order, pb.Order), cmp.Compare(a, b))
		})
		if len(list) == 0 {
			delete(children, parent)
		} else {
			children[parent] = list
		}
	}
	return children
}

// patchPaths returns next's paths: base's, with those of the changed pages and of every page
// below one whose path changed computed again.
func patchPaths(base *Snapshot, next *contenttree.Tree, children map[string][]string, changed []string) map[string]string {
	paths := maps.Clone(base.Paths)
	if paths == nil {
		paths = map[string]string{}
	}
	var redo func(id string)
	redo = func(id string) {
		old, had := paths[id]
		p, ok := next.Pages[id]
		path, reachable := "", false
		if ok && p.Kind != contenttree.KindLink {
			if p.ParentID == "" {
				path, reachable = p.Slug, true
			} else if parentPath, has := paths[p.ParentID]; has {
				path, reachable = parentPath+"/"+p.Slug, true
			}
		}
		if reachable {
			paths[id] = path
		} else {
			delete(paths, id)
		}
		if had != reachable || old != path {
			for _, child := range children[id] {
				redo(child)
			}
		}
	}
	// Parents before children: a changed page's path depends on its parent's.
	ordered := slices.Clone(changed)
	depth := func(id string) int {
		n := 0
		for p, ok := next.Pages[id]; ok && p.ParentID != "" && n <= len(next.Pages); p, ok = next.Pages[p.ParentID] {
			n++
		}
		return n
	}
	slices.SortStableFunc(ordered, func(a, b string) int { return cmp.Compare(depth(a), depth(b)) })
	for _, id := range ordered {
		redo(id)
	}
	return paths
}

// neighbourhood returns the part of the changed tree that checking a change needs, and the
// changed tree's children lists: the changed pages, the siblings they leave or join, their
// ancestors, and their children.
func neighbourhood(base *View, ch Changes, changed []string) (*contenttree.Tree, map[string][]string) {
	upserted := make(map[string]contenttree.Page, len(ch.UpsertPages))
	for _, p := range ch.UpsertPages {
		upserted[p.ID] = p
	}
	removed := make(map[string]bool, len(ch.RemovePages))
	for _, id := range ch.RemovePages {
		removed[id] = true
	}
	near := contenttree.New()
	add := func(id string) bool {
		if _, done := near.Pages[id]; done {
			return false
		}
		p, ok := upserted[id]
		if !ok && !removed[id] {
			p, ok = base.Page(id)
		}
		if ok {
			near.Pages[id] = p
		}
		return ok
	}
	for _, id := range changed {
		add(id)
		if p, ok := base.Page(id); ok {
			for _, sib := range base.Children(p.ParentID) {
				add(sib)
			}
		}
		if p, ok := near.Pages[id]; ok {
			for _, sib := range base.Children(p.ParentID) {
				add(sib)
			}
			// Ancestors, up to the top, a missing parent, or a page already taken (a cycle).
			for parent := p.ParentID; parent != "" && add(parent); parent = near.Pages[parent].ParentID {
			}
		}
	}
	children := patchChildren(base, near, changed)
	for _, id := range changed {
		for _, child := range children[id] {
			add(child)
		}
	}
	return near, children
}

// pendingSnapshot is what a commit knows of its revision before its snapshot is derived:
// the changes on top of its base, without markdown, and the children lists (whole: they are
// small, one list per page that has pages under it).
type pendingSnapshot struct {
	rev                                      Revision
	baseID                                   string
	changes                                  Changes
	changed                                  []string
	upserted                                 map[string]contenttree.Page
	removed                                  map[string]bool
	children                                 map[string][]string
	pageChanges, fileChanges, markdownHashes map[string]string
}

func newPending(rev Revision, baseID string, ch Changes, changed []string, children map[string][]string,
	pageChanges, fileChanges, markdownHashes map[string]string) *pendingSnapshot {
	ps := &pendingSnapshot{rev: rev, baseID: baseID, changes: ch, changed: changed, children: children,
		upserted: make(map[string]contenttree.Page, len(ch.UpsertPages)), removed: make(map[string]bool, len(ch.RemovePages)),
		pageChanges: pageChanges, fileChanges: fileChanges, markdownHashes: markdownHashes}
	ps.changes.UpsertPages = make([]contenttree.Page, len(ch.UpsertPages))
	for i, p := range ch.UpsertPages {
		p.Markdown = "" // snapshots carry no markdown
		ps.changes.UpsertPages[i] = p
		ps.upserted[p.ID] = p
	}
	for _, id := range ch.RemovePages {
		ps.removed[id] = true
	}
	ps.changes.UpsertReusable = make([]contenttree.ReusableContent, len(ch.UpsertReusable))
	for i, r := range ch.UpsertReusable {
		r.Markdown = ""
		ps.changes.UpsertReusable[i] = r
	}
	return ps
}
