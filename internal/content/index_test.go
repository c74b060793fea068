package content

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"docsd/internal/contenttree"
)

// randomTree is a valid tree of n pages: groups and documents at the top, documents and
// links below, a few levels deep.
func randomTree(r *rand.Rand, n int) *contenttree.Tree {
	t := contenttree.New()
	var ids []string
	for i := range n {
		id := fmt.Sprintf("p%03d", i)
		p := contenttree.Page{ID: id, Kind: contenttree.KindDocument, Slug: fmt.Sprintf("s%d", i), Order: fmt.Sprintf("%03d", r.IntN(1000))}
		if len(ids) > 0 && r.IntN(3) > 0 {
			parent := t.Pages[ids[r.IntN(len(ids))]]
			if parent.Kind == contenttree.KindDocument {
				p.ParentID = parent.ID
				if r.IntN(6) == 0 {
					p.Kind = contenttree.KindLink
				}
			}
		} else if r.IntN(4) == 0 {
			p.Kind = contenttree.KindGroup
		}
		t.Pages[id] = p
		ids = append(ids, id)
	}
	return t
}

// randomChange upserts or removes a few pages, sometimes making the tree invalid.
func randomChange(r *rand.Rand, t *contenttree.Tree) Changes {
	var ch Changes
	ids := slices.Sorted(maps.Keys(t.Pages))
	for range 1 + r.IntN(3) {
		id := ids[r.IntN(len(ids))]
		p := t.Pages[id]
		switch r.IntN(6) {
		case 0:
			ch.RemovePages = append(ch.RemovePages, id) // its children, if any, lose their parent
		case 1:
			p.ParentID = ids[r.IntN(len(ids))] // a move, maybe under itself or a link
			ch.UpsertPages = append(ch.UpsertPages, p)
		case 2:
			p.Slug = fmt.Sprintf("s%d", r.IntN(len(ids))) // maybe a sibling's
			ch.UpsertPages = append(ch.UpsertPages, p)
		case 3:
			p.Order = fmt.Sprintf("%03d", r.IntN(1000))
			ch.UpsertPages = append(ch.UpsertPages, p)
		case 4:
			ch.UpsertPages = append(ch.UpsertPages, contenttree.Page{ID: fmt.Sprintf("n%d", r.IntN(1000)),
				ParentID: p.ParentID, Kind: contenttree.KindDocument, Slug: fmt.Sprintf("s%d", r.IntN(50)), Order: "500"})
		default:
			p.Kind = contenttree.KindLink // a document that becomes a link keeps its children
			ch.UpsertPages = append(ch.UpsertPages, p)
		}
	}
	return ch
}

// withChanges returns a copy of t with ch's page changes applied, valid or not.
func withChanges(t *contenttree.Tree, ch Changes) *contenttree.Tree {
	next := t.Clone()
	for _, id := range ch.RemovePages {
		delete(next.Pages, id)
	}
	for _, p := range ch.UpsertPages {
		next.Pages[p.ID] = p
	}
	return next
}

// TestCommitIndexMatchesAFullIndex checks that the validity a commit checks on the changed
// pages' neighbourhood, and the children lists, paths and tree it derives from its base's,
// agree with those computed from the whole new tree.
func TestCommitIndexMatchesAFullIndex(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	invalid := 0
	for round := range 3000 {
		base := &Snapshot{Tree: randomTree(r, 2+r.IntN(40))}
		if base.Tree.Validate() != nil {
			continue
		}
		base.index()
		ch := randomChange(r, base.Tree)
		next := withChanges(base.Tree, ch)
		changed := changedPages(ch)
		near, children := neighbourhood(&View{snap: base}, ch, changed)
		problems := near.CheckPages(changed, func(id string) []string { return children[id] })
		full := next.Check()
		if (len(problems) == 0) != (len(full) == 0) {
			t.Fatalf("round %d: incremental check %v, full check %v", round, problems, full)
		}
		if len(full) > 0 {
			invalid++
			continue
		}
		want := &Snapshot{Tree: next}
		want.index()
		for k, v := range want.children {
			if !slices.Equal(children[k], v) {
				t.Fatalf("round %d: children of %q = %v, want %v", round, k, children[k], v)
			}
		}
		if len(children) != len(want.children) {
			t.Fatalf("round %d: %d children lists, want %d", round, len(children), len(want.children))
		}
		got := (&View{ps: newPending(Revision{}, "", ch, changed, children, nil, nil, nil), base: &View{snap: base}, depth: 1}).derive()
		if !maps.Equal(got.Paths, want.Paths) {
			t.Fatalf("round %d: paths %v, want %v", round, got.Paths, want.Paths)
		}
		if !got.Tree.Equal(next) {
			t.Fatalf("round %d: derived tree differs", round)
		}
	}
	if invalid < 100 {
		t.Fatalf("only %d invalid changes were tried", invalid)
	}
}

// TestViewChainsDeriveTheirTree stacks several commits' changes as pending levels and checks
// that reading through the view, and deriving it, give the tree applying them one by one.
func TestViewChainsDeriveTheirTree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 500 {
		base := &Snapshot{Tree: randomTree(r, 2+r.IntN(40))}
		if base.Tree.Validate() != nil {
			continue
		}
		base.index()
		view := &View{snap: base}
		cur := base.Tree
		for level := range 1 + r.IntN(5) {
			ch := randomChange(r, cur)
			changed := changedPages(ch)
			near, children := neighbourhood(view, ch, changed)
			if len(near.CheckPages(changed, func(id string) []string { return children[id] })) > 0 {
				continue
			}
			next := withChanges(cur, ch)
			if err := next.Validate(); err != nil {
				t.Fatalf("round %d level %d: the neighbourhood check passed a tree with problems: %v", round, level, err)
			}
			ps := newPending(Revision{ID: fmt.Sprint(level)}, "", ch, changed, children, nil, nil, nil)
			view = &View{ps: ps, base: view, depth: view.depth + 1}
			cur = next
		}
		for id, p := range cur.Pages {
			if got, ok := view.Page(id); !ok || got.Slug != p.Slug || got.ParentID != p.ParentID {
				t.Fatalf("round %d: page %s through the view: %+v %v", round, id, got, ok)
			}
		}
		got := view.derive()
		want := &Snapshot{Tree: cur}
		want.index()
		if !got.Tree.Equal(cur) || !maps.Equal(got.Paths, want.Paths) {
			t.Fatalf("round %d: derived tree or paths differ: %v, want %v", round, got.Paths, want.Paths)
		}
		for k, v := range want.children {
			if !slices.Equal(got.children[k], v) {
				t.Fatalf("round %d: children of %q = %v, want %v", round, k, got.children[k], v)
			}
		}
	}
}
