package textmerge

import (
	"slices"
	"strings"
	"testing"
)

// lines joins its arguments with "\n" and ends the text with one.
func lines(l ...string) string {
	if len(l) == 0 {
		return ""
	}
	return strings.Join(l, "\n") + "\n"
}

var mergeCases = []struct {
	name               string
	base, ours, theirs string
	want               string // merged text when clean
	conflicts          []Range
}{
	{name: "all empty"},
	{name: "only ours changed", base: lines("a", "b", "c"), ours: lines("a", "B", "c"), theirs: lines("a", "b", "c"),
		want: lines("a", "B", "c")},
	{name: "only theirs changed", base: lines("a", "b", "c"), ours: lines("a", "b", "c"), theirs: lines("a", "b", "C"),
		want: lines("a", "b", "C")},
	{name: "same change on both sides", base: lines("a", "b", "c"), ours: lines("a", "X", "c"), theirs: lines("a", "X", "c"),
		want: lines("a", "X", "c")},
	{name: "same change on both sides with other changes apart", base: lines("a", "b", "c", "d", "e"),
		ours: lines("A", "b", "X", "d", "e"), theirs: lines("a", "b", "X", "d", "E"),
		want: lines("A", "b", "X", "d", "E")},
	{name: "changes one line apart merge", base: lines("a", "b", "c", "d"), ours: lines("a", "B", "c", "d"), theirs: lines("a", "b", "c", "D"),
		want: lines("a", "B", "c", "D")},
	{name: "changes on touching lines conflict", base: lines("a", "b", "c", "d"), ours: lines("a", "B", "c", "d"), theirs: lines("a", "b", "C", "d"),
		conflicts: []Range{{1, 3}}},
	{name: "same line changed differently", base: lines("a", "b", "c"), ours: lines("a", "X", "c"), theirs: lines("a", "Y", "c"),
		conflicts: []Range{{1, 2}}},
	{name: "overlapping ranges", base: lines("a", "b", "c", "d", "e"), ours: lines("a", "X", "Y", "d", "e"), theirs: lines("a", "b", "Z", "W", "e"),
		conflicts: []Range{{1, 4}}},
	{name: "one side changes a superset of the other", base: lines("a", "b", "c", "d"), ours: lines("a", "X", "Y", "d"), theirs: lines("a", "X", "c", "d"),
		conflicts: []Range{{1, 3}}},
	{name: "two separate conflicts", base: lines("a", "b", "c", "d", "e"), ours: lines("1", "b", "c", "d", "2"), theirs: lines("3", "b", "c", "d", "4"),
		conflicts: []Range{{0, 1}, {4, 5}}},
	{name: "delete on one side, edit far away on the other", base: lines("a", "b", "c", "d", "e"), ours: lines("a", "c", "d", "e"), theirs: lines("a", "b", "c", "d", "E"),
		want: lines("a", "c", "d", "E")},
	{name: "delete and edit of the same line", base: lines("a", "b", "c"), ours: lines("a", "c"), theirs: lines("a", "B", "c"),
		conflicts: []Range{{1, 2}}},
	{name: "both delete the same line", base: lines("a", "b", "c"), ours: lines("a", "c"), theirs: lines("a", "c"),
		want: lines("a", "c")},
	{name: "both delete the same line, one edits elsewhere", base: lines("a", "b", "c", "d"), ours: lines("a", "c", "D"), theirs: lines("a", "c", "d"),
		want: lines("a", "c", "D")},
	{name: "insert at start and at end", base: lines("a", "b"), ours: lines("0", "a", "b"), theirs: lines("a", "b", "9"),
		want: lines("0", "a", "b", "9")},
	{name: "different inserts at the same point", base: lines("a", "b"), ours: lines("a", "x", "b"), theirs: lines("a", "y", "b"),
		conflicts: []Range{{1, 1}}},
	{name: "same insert at the same point", base: lines("a", "b"), ours: lines("a", "x", "b"), theirs: lines("a", "x", "b"),
		want: lines("a", "x", "b")},
	{name: "insert right after a line the other side changed", base: lines("a", "b", "c"), ours: lines("a", "B", "c"), theirs: lines("a", "b", "new", "c"),
		conflicts: []Range{{1, 2}}},
	{name: "both add to an empty base, differently", base: "", ours: lines("x"), theirs: lines("y"),
		conflicts: []Range{{0, 0}}},
	{name: "both add the same text to an empty base", base: "", ours: lines("x", "y"), theirs: lines("x", "y"),
		want: lines("x", "y")},
	{name: "one side empties the text", base: lines("a", "b"), ours: "", theirs: lines("a", "b"),
		want: ""},
	{name: "one side empties the text, the other edits it", base: lines("a", "b"), ours: "", theirs: lines("a", "B"),
		conflicts: []Range{{0, 2}}},
	{name: "no trailing newline kept", base: "a\nb\nc", ours: "A\nb\nc", theirs: "a\nb\nC",
		want: "A\nb\nC"},
	{name: "trailing newline added on one side", base: "a\nb\nc", ours: "A\nb\nc", theirs: "a\nb\nc\n",
		want: "A\nb\nc\n"},
	{name: "line appended after a last line without newline", base: "a\nb\nc", ours: "a\nb\nc\nd", theirs: "A\nb\nc",
		want: "A\nb\nc\nd"},
	{name: "appending to a last line without newline touches it", base: "a\nb", ours: "a\nb\nc", theirs: "a\nB",
		conflicts: []Range{{1, 2}}},
	{name: "CRLF kept as is", base: "a\r\nb\r\nc\r\nd\r\n", ours: "a\r\nB\r\nc\r\nd\r\n", theirs: "a\r\nb\r\nc\r\nd\r\ne\r\n",
		want: "a\r\nB\r\nc\r\nd\r\ne\r\n"},
	{name: "CRLF converted on one side conflicts with edits", base: "a\r\nb\r\n", ours: "a\nb\n", theirs: "a\r\nB\r\n",
		conflicts: []Range{{0, 2}}},
	{name: "markdown paragraphs edited apart", base: lines("# Title", "", "First paragraph.", "", "Second paragraph.", "", "Third."),
		ours:   lines("# Better title", "", "First paragraph.", "", "Second paragraph.", "", "Third."),
		theirs: lines("# Title", "", "First paragraph.", "", "Second paragraph, longer.", "", "Third.", "", "Fourth."),
		want:   lines("# Better title", "", "First paragraph.", "", "Second paragraph, longer.", "", "Third.", "", "Fourth.")},
}

func TestMerge(t *testing.T) {
	t.Parallel()
	for _, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, conflicts := Merge(tc.base, tc.ours, tc.theirs)
			var ranges []Range
			for _, c := range conflicts {
				ranges = append(ranges, c.Base)
			}
			if !slices.Equal(ranges, tc.conflicts) {
				t.Fatalf("conflicts at %v, want %v (merged %q)", ranges, tc.conflicts, got)
			}
			if len(tc.conflicts) == 0 && got != tc.want {
				t.Fatalf("merged %q, want %q", got, tc.want)
			}
		})
	}
}

// TestMergeMatchesGit checks the table against `git merge-file`: the same cases are clean, with the
// same text.
func TestMergeMatchesGit(t *testing.T) {
	t.Parallel()
	for _, tc := range mergeCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gitOut, gitClean := gitMergeFile(t, tc.base, tc.ours, tc.theirs)
			clean := len(tc.conflicts) == 0
			if gitClean != clean {
				t.Fatalf("git clean=%v, ours clean=%v; git wrote %q", gitClean, clean, gitOut)
			}
			if clean && gitOut != tc.want {
				t.Fatalf("git merged %q, want %q", gitOut, tc.want)
			}
		})
	}
}

func TestMergeConflictDetails(t *testing.T) {
	t.Parallel()
	base := lines("a", "b", "c", "d")
	ours := lines("a", "X", "c", "d")
	theirs := lines("a", "Y", "Z", "c", "d")
	got, conflicts := Merge(base, ours, theirs)
	want := Conflict{
		Base: Range{1, 2}, Ours: Range{1, 2}, Theirs: Range{1, 3},
		BaseText: "b\n", OursText: "X\n", TheirsText: "Y\nZ\n",
	}
	if len(conflicts) != 1 || conflicts[0] != want {
		t.Fatalf("conflicts %+v, want [%+v]", conflicts, want)
	}
	if s := conflicts[0].String(); s != "both sides changed line 2" {
		t.Errorf("String() = %q", s)
	}
	wantText := "a\n" + MarkerOurs + "X\n" + MarkerBase + "Y\nZ\n" + MarkerTheirs + "c\nd\n"
	if got != wantText {
		t.Errorf("merged %q, want %q", got, wantText)
	}
}

func TestMergeMarksConflictWithoutTrailingNewline(t *testing.T) {
	t.Parallel()
	got, conflicts := Merge("a\nb", "a\nX", "a\nY")
	if len(conflicts) != 1 {
		t.Fatalf("conflicts %+v, want one", conflicts)
	}
	if c := conflicts[0]; c.OursText != "X" || c.TheirsText != "Y" || c.BaseText != "b" {
		t.Errorf("conflict texts %q %q %q", c.BaseText, c.OursText, c.TheirsText)
	}
	want := "a\n" + MarkerOurs + "X\n" + MarkerBase + "Y\n" + MarkerTheirs
	if got != want {
		t.Errorf("merged %q, want %q", got, want)
	}
}

func TestRangeString(t *testing.T) {
	t.Parallel()
	for r, want := range map[Range]string{{2, 2}: "before line 3", {2, 3}: "line 3", {2, 5}: "lines 3-5"} {
		if got := r.String(); got != want {
			t.Errorf("%+v.String() = %q, want %q", r, got, want)
		}
	}
}
