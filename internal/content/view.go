package content

import (
	"context"
	"encoding/json"
	"errors"
	"maps"

	"docsd/internal/apperr"
	"docsd/internal/contenttree"
)

// A View reads one revision's pages without its snapshot having to exist: it is a derived
// snapshot, or a revision committed in this process whose changes sit on top of its base's
// view. Edits and commits read through views, so a run of commits (edit, merge, edit...)
// derives a full snapshot once every maxChain commits rather than at each one; the cost of a
// commit then follows the size of its change. Reads that need the whole tree derive it.
type View struct {
	snap  *Snapshot        // a derived snapshot; or
	ps    *pendingSnapshot // changes on top of
	base  *View
	depth int // pending levels down to a derived snapshot
}

// maxChain bounds how many pending revisions a view stacks before a commit derives its base.
const maxChain = 16

// Revision is the revision the view shows.
func (v *View) Revision() Revision {
	if v.snap != nil {
		return v.snap.Revision
	}
	return v.ps.rev
}

// Page returns a page without its markdown.
func (v *View) Page(id string) (contenttree.Page, bool) {
	for ; v.snap == nil; v = v.base {
		if p, ok := v.ps.upserted[id]; ok {
			return p, true
		}
		if v.ps.removed[id] {
			return contenttree.Page{}, false
		}
	}
	p, ok := v.snap.Tree.Pages[id]
	return p, ok
}

// file returns a file of the view.
func (v *View) file(id string) (contenttree.File, bool) {
	return throughLevels(v, id, func(ps *pendingSnapshot) (map[string]string, []contenttree.File) {
		return ps.fileChanges, ps.changes.UpsertFiles
	}, func(f contenttree.File) bool { return f.ID == id }, func(s *Snapshot) (contenttree.File, bool) {
		f, ok := s.Tree.Files[id]
		return f, ok
	})
}

// reusable returns a reusable content of the view, without its markdown.
func (v *View) reusable(id string) (contenttree.ReusableContent, bool) {
	return throughLevels(v, reusableKey(id), func(ps *pendingSnapshot) (map[string]string, []contenttree.ReusableContent) {
		return ps.pageChanges, ps.changes.UpsertReusable
	}, func(r contenttree.ReusableContent) bool { return r.ID == id }, func(s *Snapshot) (contenttree.ReusableContent, bool) {
		r, ok := s.Tree.ReusableContents[id]
		return r, ok
	})
}

// throughLevels looks a value up through the view's pending levels: the first level whose
// hashes name key decides, with the upsert that is (matches) it, or its removal when the hash
// is ""; a key no level names is final's, the derived snapshot's.
func throughLevels[T any](v *View, key string, level func(*pendingSnapshot) (map[string]string, []T), matches func(T) bool,
	final func(*Snapshot) (T, bool)) (T, bool) {
	for ; v.snap == nil; v = v.base {
		hashes, upserts := level(v.ps)
		if h, ok := hashes[key]; ok {
			if h != "" {
				for _, x := range upserts {
					if matches(x) {
						return x, true
					}
				}
			}
			var none T
			return none, false
		}
	}
	return final(v.snap)
}

// Children returns the ids of the pages under parentID ("" for the top level), in order.
func (v *View) Children(parentID string) []string { return v.childMap()[parentID] }

// ChildPages returns the pages under parentID, in order, without markdown.
func (v *View) ChildPages(parentID string) []contenttree.Page {
	ids := v.Children(parentID)
	out := make([]contenttree.Page, 0, len(ids))
	for _, id := range ids {
		if p, ok := v.Page(id); ok {
			out = append(out, p)
		}
	}
	return out
}

func (v *View) childMap() map[string][]string {
	if v.snap != nil {
		return v.snap.children
	}
	return v.ps.children
}

func (v *View) variables() map[string]json.RawMessage {
	if v.snap != nil {
		return v.snap.Tree.Variables
	}
	return v.ps.rev.Variables
}

// lookup finds a key's hash through the levels; "" when absent.
func (v *View) lookup(level func(*pendingSnapshot) map[string]string, final func(*Snapshot) map[string]string, id string) string {
	for ; v.snap == nil; v = v.base {
		if h, ok := level(v.ps)[id]; ok {
			return h // "" when the change removed it
		}
	}
	return final(v.snap)[id]
}

func (v *View) pageHash(id string) string {
	return v.lookup(func(ps *pendingSnapshot) map[string]string { return ps.pageChanges },
		func(s *Snapshot) map[string]string { return s.pageHashes }, id)
}

func (v *View) fileHash(id string) string {
	return v.lookup(func(ps *pendingSnapshot) map[string]string { return ps.fileChanges },
		func(s *Snapshot) map[string]string { return s.fileHashes }, id)
}

func (v *View) markdownHash(id string) string {
	return v.lookup(func(ps *pendingSnapshot) map[string]string { return ps.markdownHashes },
		func(s *Snapshot) map[string]string { return s.markdownHashes }, id)
}

// derive builds the view's snapshot: the derived snapshot at the bottom, copied once, with
// every level's changes applied in order.
func (v *View) derive() *Snapshot {
	if v.snap != nil {
		return v.snap
	}
	var levels []*pendingSnapshot
	root := v
	for ; root.snap == nil; root = root.base {
		levels = append(levels, root.ps)
	}
	base := root.snap
	next := &contenttree.Tree{Pages: maps.Clone(base.Tree.Pages), Files: maps.Clone(base.Tree.Files),
		Variables: v.ps.rev.Variables, ReusableContents: maps.Clone(base.Tree.ReusableContents)}
	if next.ReusableContents == nil {
		next.ReusableContents = map[string]contenttree.ReusableContent{}
	}
	if next.Pages == nil {
		next.Pages = map[string]contenttree.Page{}
	}
	if next.Files == nil {
		next.Files = map[string]contenttree.File{}
	}
	if next.Variables == nil {
		next.Variables = map[string]json.RawMessage{}
	}
	snap := &Snapshot{Revision: v.ps.rev, Tree: next, children: v.ps.children,
		pageHashes: maps.Clone(base.pageHashes), fileHashes: maps.Clone(base.fileHashes),
		markdownHashes: maps.Clone(base.markdownHashes)}
	var changed []string
	for i := len(levels) - 1; i >= 0; i-- {
		ps := levels[i]
		for _, id := range ps.changes.RemovePages {
			delete(next.Pages, id)
		}
		for _, p := range ps.changes.UpsertPages {
			next.Pages[p.ID] = p // kept without markdown
		}
		for _, id := range ps.changes.RemoveFiles {
			delete(next.Files, id)
		}
		for _, f := range ps.changes.UpsertFiles {
			next.Files[f.ID] = f
		}
		for _, id := range ps.changes.RemoveReusable {
			delete(next.ReusableContents, id)
		}
		for _, r := range ps.changes.UpsertReusable {
			next.ReusableContents[r.ID] = r // kept without markdown
		}
		snap.pageHashes = patchInPlace(snap.pageHashes, ps.pageChanges)
		snap.fileHashes = patchInPlace(snap.fileHashes, ps.fileChanges)
		snap.markdownHashes = patchInPlace(snap.markdownHashes, ps.markdownHashes)
		changed = append(changed, ps.changed...)
	}
	snap.Paths = patchPaths(base, next, snap.children, changed)
	return snap
}

// patchInPlace applies changes to m ("" removes), making m when it is nil.
func patchInPlace(m, changes map[string]string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	for k, h := range changes {
		if h == "" {
			delete(m, k)
		} else {
			m[k] = h
		}
	}
	return m
}

// view returns a view of a revision: its snapshot when derived, else its pending changes on
// their base's view; a revision known neither way is decoded.
func (s *Service) view(ctx context.Context, tx Tx, id string) (*View, error) {
	if snap, ok := s.snapshots.get(id); ok {
		return &View{snap: snap}, nil
	}
	if ps, ok := s.pending.get(id); ok {
		base, err := s.view(ctx, tx, ps.baseID)
		if err != nil {
			return nil, err
		}
		return &View{ps: ps, base: base, depth: base.depth + 1}, nil
	}
	snap, err := s.snapshot(ctx, tx, id)
	if err != nil {
		return nil, err
	}
	return &View{snap: snap}, nil
}

// RevisionView returns a view of a revision without checking who asks (as RevisionByID);
// an unknown id is a 404.
func (s *Service) RevisionView(ctx context.Context, revisionID string) (*View, error) {
	v, err := s.view(ctx, s.store.Read(), revisionID)
	if errors.Is(err, ErrNotFound) {
		return nil, apperr.NotFoundf("revision %s not found", revisionID)
	}
	return v, err
}

// ViewMarkdown returns the markdown of one page of a view.
func (s *Service) ViewMarkdown(ctx context.Context, v *View, pageID string) (string, error) {
	if _, ok := v.Page(pageID); !ok {
		return "", apperr.NotFoundf("page %s not found in revision %s", pageID, v.Revision().ID)
	}
	return s.markdownText(ctx, s.store.Read(), v.markdownHash(pageID))
}
