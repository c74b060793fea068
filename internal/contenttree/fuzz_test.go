package contenttree

import (
	"reflect"
	"testing"
)

// FuzzMerge merges two edits of one generated tree and checks what must hold of any merge.
func FuzzMerge(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{8, 0, 0, 0, 1, 2, 3, 1, 1, 2, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 5, 5, 5, 3, 2, 1, 2, 3, 3})
	f.Add([]byte{6, 1, 2, 0, 0, 3, 3, 1, 4, 2, 2, 0, 1, 2, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 6, 2, 2, 2, 2, 4, 1, 5, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &choices{data}
		base := genTree(c)
		ours := genEdit(c, base)
		theirs := genEdit(c, base)
		for name, tree := range map[string]*Tree{"base": base, "ours": ours, "theirs": theirs} {
			if err := tree.Validate(); err != nil {
				t.Fatalf("generated %s is invalid: %v", name, err)
			}
		}
		checkTreeMerge(t, base, ours, theirs)
	})
}

func checkTreeMerge(t *testing.T, base, ours, theirs *Tree) {
	t.Helper()
	for _, x := range []*Tree{ours, theirs} {
		expectMerged(t, "merge(base, x, base)", x)(Merge(base, x, base))
		expectMerged(t, "merge(base, base, x)", x)(Merge(base, base, x))
		expectMerged(t, "merge(base, x, x)", x)(Merge(base, x, x))
		if Diff(base, x).Empty() != base.Equal(x) {
			t.Fatalf("Diff(base, x) is empty: %v, but base equals x: %v", Diff(base, x).Empty(), base.Equal(x))
		}
	}

	got, conflicts := Merge(base, ours, theirs)
	again, againConflicts := Merge(base, ours, theirs)
	if !reflect.DeepEqual(conflicts, againConflicts) || !got.Equal(again) {
		t.Fatal("two merges of the same trees differ")
	}
	swapped, swappedConflicts := Merge(base, theirs, ours)
	if (len(conflicts) == 0) != (len(swappedConflicts) == 0) {
		t.Fatalf("conflicts %v, but with the sides swapped %v", conflicts, swappedConflicts)
	}
	if len(conflicts) > 0 {
		checkConflicts(t, conflicts, base, ours, theirs)
		if got != nil {
			t.Fatal("a merge with conflicts returned a tree")
		}
		return
	}
	if !got.Equal(swapped) {
		t.Fatalf("merged %+v, but with the sides swapped %+v", got, swapped)
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("merged tree is invalid: %v\nbase %+v\nours %+v\ntheirs %+v", err, base.Pages, ours.Pages, theirs.Pages)
	}
	checkNoPageLost(t, got, base, ours, theirs)
	checkNoValueInvented(t, got, base, ours, theirs)
}

func expectMerged(t *testing.T, what string, want *Tree) func(*Tree, []Conflict) {
	return func(got *Tree, conflicts []Conflict) {
		t.Helper()
		if len(conflicts) > 0 || !got.Equal(want) {
			t.Fatalf("%s: conflicts %v, diff from x %+v", what, conflicts, Diff(want, got))
		}
	}
}

// checkNoPageLost: every page of the result comes from a side; a page both sides kept is kept; a
// page one side deleted is gone; a page one side added is there.
func checkNoPageLost(t *testing.T, got, base, ours, theirs *Tree) {
	t.Helper()
	for id := range got.Pages {
		if _, inOurs := ours.Pages[id]; !inOurs {
			if _, inTheirs := theirs.Pages[id]; !inTheirs {
				t.Fatalf("page %s appeared from nowhere", id)
			}
		}
	}
	for _, id := range unionKeys(base.Pages, ours.Pages, theirs.Pages) {
		_, inBase := base.Pages[id]
		_, inOurs := ours.Pages[id]
		_, inTheirs := theirs.Pages[id]
		_, inResult := got.Pages[id]
		want := inOurs && inTheirs || !inBase && (inOurs || inTheirs)
		if inResult != want {
			t.Fatalf("page %s (base %v, ours %v, theirs %v): in the result %v, want %v",
				id, inBase, inOurs, inTheirs, inResult, want)
		}
	}
}

// checkNoValueInvented: each field of each merged page holds a value one of the three versions had,
// except markdown and variables, which merge within themselves.
func checkNoValueInvented(t *testing.T, got, base, ours, theirs *Tree) {
	t.Helper()
	for id, p := range got.Pages {
		var versions []Page
		for _, tree := range []*Tree{base, ours, theirs} {
			if v, ok := tree.Pages[id]; ok {
				versions = append(versions, v)
			}
		}
		from := func(same func(v *Page) bool) bool {
			for i := range versions {
				if same(&versions[i]) {
					return true
				}
			}
			return false
		}
		if !from(func(v *Page) bool { return v.ParentID == p.ParentID && v.Order == p.Order }) {
			t.Fatalf("page %s: position (%q, %q) is from no side", id, p.ParentID, p.Order)
		}
		for _, f := range valueFields {
			if !from(func(v *Page) bool { return f.equal(v, &p) }) {
				t.Fatalf("page %s: %s is from no side", id, f.name)
			}
		}
	}
}

func checkConflicts(t *testing.T, conflicts []Conflict, trees ...*Tree) {
	t.Helper()
	known := func(id string, files bool) bool {
		for _, tree := range trees {
			if _, ok := tree.Pages[id]; ok && !files {
				return true
			}
			if _, ok := tree.Files[id]; ok && files {
				return true
			}
		}
		return false
	}
	for _, c := range conflicts {
		if len(c.PageIDs) == 0 && c.FileID == "" && c.Variable == "" {
			t.Fatalf("conflict %+v names nothing", c)
		}
		for _, id := range c.PageIDs {
			if !known(id, false) {
				t.Fatalf("conflict %+v names unknown page %s", c, id)
			}
		}
		if c.FileID != "" && !known(c.FileID, true) {
			t.Fatalf("conflict %+v names unknown file", c)
		}
		if c.String() == "" {
			t.Fatalf("conflict %+v has no description", c)
		}
	}
}
