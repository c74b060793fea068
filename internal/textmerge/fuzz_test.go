package textmerge

import (
	"strings"
	"testing"
)

// FuzzMerge merges arbitrary texts.
func FuzzMerge(f *testing.F) {
	for _, tc := range mergeCases {
		f.Add(tc.base, tc.ours, tc.theirs)
	}
	f.Fuzz(func(t *testing.T, base, ours, theirs string) {
		checkMerge(t, base, ours, theirs)
	})
}

// FuzzMergeEdits merges two edits of one text, made from the fuzzer's bytes with lines that repeat:
// texts that share most of their lines, where merging has real work to do.
func FuzzMergeEdits(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{5, 0, 1, 2, 3, 4, 2, 1, 0, 3, 2, 1, 1, 2, 3, 3, 2, 1, 0, 1})
	f.Add([]byte{12, 3, 3, 3, 0, 0, 1, 1, 2, 2, 4, 5, 6, 1, 0, 4, 1, 2, 0, 5, 3, 3, 0, 4, 2, 1, 1, 7, 2})
	f.Fuzz(func(t *testing.T, data []byte) {
		base, ours, theirs := genCase(&byteChoices{data}, repeatedLines)
		checkMerge(t, base, ours, theirs)
	})
}

// checkMerge checks what must hold for any three texts.
func checkMerge(t *testing.T, base, ours, theirs string) {
	t.Helper()
	for _, x := range []string{ours, theirs} {
		// A side that changed nothing leaves the other's text as it is, and the same change on
		// both sides is the change.
		expectClean(t, "merge(base, x, base)", x)(Merge(base, x, base))
		expectClean(t, "merge(base, base, x)", x)(Merge(base, base, x))
		expectClean(t, "merge(base, x, x)", x)(Merge(base, x, x))
	}

	merged, conflicts := Merge(base, ours, theirs)
	swapped, swappedConflicts := Merge(base, theirs, ours)
	if len(conflicts) != len(swappedConflicts) {
		t.Fatalf("%d conflicts, but %d with the sides swapped", len(conflicts), len(swappedConflicts))
	}
	if len(conflicts) == 0 && merged != swapped {
		t.Fatalf("merged %q, but %q with the sides swapped", merged, swapped)
	}
	b, o, th := splitLines(base), splitLines(ours), splitLines(theirs)
	for i, c := range conflicts {
		s := swappedConflicts[i]
		if s.Base != c.Base || s.Ours != c.Theirs || s.Theirs != c.Ours {
			t.Fatalf("conflict %+v, but %+v with the sides swapped", c, s)
		}
		checkRange(t, "base", b, c.Base, c.BaseText)
		checkRange(t, "ours", o, c.Ours, c.OursText)
		checkRange(t, "theirs", th, c.Theirs, c.TheirsText)
		if c.OursText == c.TheirsText {
			t.Fatalf("conflict %+v: both sides made the same change", c)
		}
		if i > 0 && c.Base.Start <= conflicts[i-1].Base.End {
			t.Fatalf("conflicts %+v and %+v touch: they should be one", conflicts[i-1], c)
		}
	}
	if len(conflicts) == 0 && strings.Contains(merged, MarkerOurs) &&
		!strings.Contains(base+ours+theirs, MarkerOurs) {
		t.Fatalf("clean merge %q has conflict markers", merged)
	}
}

func expectClean(t *testing.T, what, want string) func(string, []Conflict) {
	return func(got string, conflicts []Conflict) {
		t.Helper()
		if len(conflicts) > 0 || got != want {
			t.Fatalf("%s = %q with %d conflicts, want %q", what, got, len(conflicts), want)
		}
	}
}

func checkRange(t *testing.T, side string, lines []string, r Range, text string) {
	t.Helper()
	if r.Start < 0 || r.Start > r.End || r.End > len(lines) {
		t.Fatalf("%s range %+v outside %d lines", side, r, len(lines))
	}
	if got := strings.Join(lines[r.Start:r.End], ""); got != text {
		t.Fatalf("%s text %q, but its range %+v holds %q", side, text, r, got)
	}
}
