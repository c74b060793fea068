package content

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"docsd/internal/contenttree"
)

// applied returns t with ch applied, or nil when the result is not a valid tree.
func applied(t *contenttree.Tree, ch Changes) *contenttree.Tree {
	next := withChanges(t, ch)
	if next.Validate() != nil {
		return nil
	}
	return next
}

// changedIDs adds the pages whose values differ between two trees.
func changedIDs(a, b *contenttree.Tree, into map[string]bool) {
	for id, p := range a.Pages {
		if q, ok := b.Pages[id]; !ok || !reflect.DeepEqual(p, q) {
			into[id] = true
		}
	}
	for id := range b.Pages {
		if _, ok := a.Pages[id]; !ok {
			into[id] = true
		}
	}
}

func viewOf(t *contenttree.Tree) *View {
	s := &Snapshot{Tree: t}
	s.index()
	return &View{snap: s}
}

func conflictStrings(cs []contenttree.Conflict) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.String())
	}
	return out
}

// TestNeighbourhoodMergeMatchesAWholeMerge checks that merging only the part of the trees
// MergeTrees takes (the pages either side changed, their siblings, children and ancestors)
// finds the same conflicts as merging the whole trees, and otherwise changes ours into the
// same result.
func TestNeighbourhoodMergeMatchesAWholeMerge(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	clean, conflicted := 0, 0
	for round := range 10000 {
		// Small trees make both sides touch the same pages and slugs often.
		base := randomTree(r, 2+r.IntN([]int{6, 12, 40}[round%3]))
		if base.Validate() != nil {
			continue
		}
		ours, theirs := applied(base, randomChange(r, base)), applied(base, randomChange(r, base))
		if ours == nil || theirs == nil {
			continue
		}
		whole, wholeConflicts := contenttree.Merge(base, ours, theirs)

		changed := map[string]bool{}
		changedIDs(base, ours, changed)
		changedIDs(base, theirs, changed)
		trees := neighbourhoodTrees([3]*View{viewOf(base), viewOf(ours), viewOf(theirs)}, changed, map[string]bool{})
		for i := range trees {
			for id, p := range trees[i].Pages {
				p.Markdown = "" // randomTree writes none: the references stand for the empty text
				trees[i].Pages[id] = p
			}
		}
		part, partConflicts := contenttree.Merge(trees[0], trees[1], trees[2])
		if got, want := conflictStrings(partConflicts), conflictStrings(wholeConflicts); !slices.Equal(got, want) {
			t.Fatalf("round %d: conflicts %q, want %q", round, got, want)
		}
		if whole == nil {
			conflicted++
			continue
		}
		clean++
		result := ours.Clone()
		for id := range trees[1].Pages {
			if _, ok := part.Pages[id]; !ok {
				delete(result.Pages, id)
			}
		}
		maps.Copy(result.Pages, part.Pages)
		if !result.Equal(whole) {
			t.Fatalf("round %d: the neighbourhood merge differs from the whole merge", round)
		}
	}
	if clean < 200 || conflicted < 100 {
		t.Fatalf("only %d clean and %d conflicting merges were tried", clean, conflicted)
	}
	t.Logf("%d clean merges, %d with conflicts", clean, conflicted)
}

// TestViewFindsFilesAndReusableThroughLevels checks that a file or reusable content is read
// from the newest level that changed it, removed where that level removed it, and from the
// derived snapshot where no level did.
func TestViewFindsFilesAndReusableThroughLevels(t *testing.T) {
	tree := contenttree.New()
	tree.Files["f1"] = contenttree.File{ID: "f1", Name: "old.png"}
	tree.Files["f2"] = contenttree.File{ID: "f2", Name: "kept.png"}
	tree.ReusableContents["r1"] = contenttree.ReusableContent{ID: "r1", Title: "Old"}
	tree.ReusableContents["r2"] = contenttree.ReusableContent{ID: "r2", Title: "Kept"}
	view := viewOf(tree)
	levels := []Changes{
		{UpsertFiles: []contenttree.File{{ID: "f1", Name: "new.png"}}, RemoveReusable: []string{"r1"}},
		{UpsertFiles: []contenttree.File{{ID: "f3", Name: "added.png"}}, RemoveFiles: []string{"f1"},
			UpsertReusable: []contenttree.ReusableContent{{ID: "r3", Title: "Added"}}},
	}
	for i, ch := range levels {
		fileChanges, pageChanges := map[string]string{}, map[string]string{}
		for _, f := range ch.UpsertFiles {
			fileChanges[f.ID] = "h-" + f.Name
		}
		for _, id := range ch.RemoveFiles {
			fileChanges[id] = ""
		}
		for _, r := range ch.UpsertReusable {
			pageChanges[reusableKey(r.ID)] = "h-" + r.Title
		}
		for _, id := range ch.RemoveReusable {
			pageChanges[reusableKey(id)] = ""
		}
		ps := newPending(Revision{ID: fmt.Sprint(i)}, "", ch, nil, view.childMap(), pageChanges, fileChanges, nil)
		view = &View{ps: ps, base: view, depth: view.depth + 1}
	}
	for id, want := range map[string]string{"f1": "", "f2": "kept.png", "f3": "added.png", "f4": ""} {
		if f, ok := view.file(id); ok != (want != "") || f.Name != want {
			t.Errorf("file %s: %+v %v, want %q", id, f, ok, want)
		}
	}
	for id, want := range map[string]string{"r1": "", "r2": "Kept", "r3": "Added"} {
		if r, ok := view.reusable(id); ok != (want != "") || r.Title != want {
			t.Errorf("reusable %s: %+v %v, want %q", id, r, ok, want)
		}
	}
	// The first level alone still has f1, renamed.
	if f, ok := view.base.file("f1"); !ok || f.Name != "new.png" {
		t.Errorf("file f1 one level down: %+v %v", f, ok)
	}
}
