package contenttree

import (
	"slices"
	"strings"
	"testing"
)

// matrixBase is the tree every cell of the matrix starts from; the operations act on "install".
func matrixBase() *Tree {
	t := sample()
	setPage(t, "install", func(p *Page) { p.Markdown = "# Install\n\nStep one.\n\nStep two.\n" })
	return t
}

func replaceLine(text string, i int, line string) string {
	lines := strings.SplitAfter(text, "\n")
	lines[i] = line
	return strings.Join(lines, "")
}

// matrixOps are the operations of the matrix, in the order of its rows and columns. Each is
// idempotent, so applying one twice is applying it once.
var matrixOps = []struct {
	name  string
	apply func(t *Tree)
}{
	{"none", func(*Tree) {}},
	{"add", func(t *Tree) { t.Pages["child"] = doc("child", "install", "a", "child") }},
	{"addOther", func(t *Tree) { t.Pages["other"] = doc("other", "install", "b", "other") }},
	{"addSameSlug", func(t *Tree) { t.Pages["dup"] = doc("dup", "install", "c", "child") }},
	{"remove", func(t *Tree) { removeSubtree(t, "install") }},
	{"moveA", func(t *Tree) { setPage(t, "install", func(p *Page) { p.ParentID, p.Order = "api", "b" }) }},
	{"moveB", func(t *Tree) { setPage(t, "install", func(p *Page) { p.ParentID, p.Order = "", "d" }) }},
	{"reorder", func(t *Tree) { setPage(t, "install", func(p *Page) { p.Order = "c" }) }},
	{"renameA", func(t *Tree) { setPage(t, "install", func(p *Page) { p.Title, p.Slug = "Setup", "setup" }) }},
	{"renameB", func(t *Tree) { setPage(t, "install", func(p *Page) { p.Title, p.Slug = "Installing", "installing" }) }},
	{"editTop", func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Markdown = replaceLine(p.Markdown, 0, "# Installation\n") })
	}},
	{"editTop2", func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Markdown = replaceLine(p.Markdown, 0, "# Install it\n") })
	}},
	{"editBottom", func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Markdown = replaceLine(p.Markdown, 4, "Step two, then three.\n") })
	}},
	{"emojiA", func(t *Tree) { setPage(t, "install", func(p *Page) { p.Emoji = "🚀" }) }},
	{"emojiB", func(t *Tree) { setPage(t, "install", func(p *Page) { p.Emoji = "📦" }) }},
	{"hide", func(t *Tree) { setPage(t, "install", func(p *Page) { p.Hidden = true }) }},
}

// matrix gives the outcome of every pair of operations, ours by row and theirs by column:
// "." merges cleanly, F field conflict, M markdown conflict, D delete-edit, P parent deleted,
// S duplicate slug.
var matrix = []string{
	//          none add  other dup  rm   movA movB reor renA renB edT  edT2 edB  emA  emB  hide
	/* none  */ ".    .    .    .    .    .    .    .    .    .    .    .    .    .    .    .",
	/* add   */ ".    .    .    S    P    .    .    .    .    .    .    .    .    .    .    .",
	/* other */ ".    .    .    .    P    .    .    .    .    .    .    .    .    .    .    .",
	/* dup   */ ".    S    .    .    P    .    .    .    .    .    .    .    .    .    .    .",
	/* rm    */ ".    P    P    P    .    D    D    D    D    D    D    D    D    D    D    D",
	/* movA  */ ".    .    .    .    D    .    F    F    .    .    .    .    .    .    .    .",
	/* movB  */ ".    .    .    .    D    F    .    F    .    .    .    .    .    .    .    .",
	/* reor  */ ".    .    .    .    D    F    F    .    .    .    .    .    .    .    .    .",
	/* renA  */ ".    .    .    .    D    .    .    .    .    F    .    .    .    .    .    .",
	/* renB  */ ".    .    .    .    D    .    .    .    F    .    .    .    .    .    .    .",
	/* edT   */ ".    .    .    .    D    .    .    .    .    .    .    M    .    .    .    .",
	/* edT2  */ ".    .    .    .    D    .    .    .    .    .    M    .    .    .    .    .",
	/* edB   */ ".    .    .    .    D    .    .    .    .    .    .    .    .    .    .    .",
	/* emA   */ ".    .    .    .    D    .    .    .    .    .    .    .    .    .    F    .",
	/* emB   */ ".    .    .    .    D    .    .    .    .    .    .    .    .    F    .    .",
	/* hide  */ ".    .    .    .    D    .    .    .    .    .    .    .    .    .    .    .",
}

var matrixKinds = map[string]ConflictKind{
	"F": ConflictField, "M": ConflictMarkdown, "D": ConflictDeleteEdit, "P": ConflictParentDeleted, "S": ConflictDuplicateSlug,
}

// TestMergeMatrix merges every pair of operations on one page. A clean merge must equal applying
// both operations one after the other (in either order); a conflict must be of the expected kind
// and name the pages involved.
func TestMergeMatrix(t *testing.T) {
	t.Parallel()
	base := matrixBase()
	mustValid(t, base)
	if len(matrix) != len(matrixOps) {
		t.Fatalf("matrix has %d rows for %d operations", len(matrix), len(matrixOps))
	}
	for i, ours := range matrixOps {
		row := strings.Fields(matrix[i])
		if len(row) != len(matrixOps) {
			t.Fatalf("row %s has %d cells", ours.name, len(row))
		}
		for j, theirs := range matrixOps {
			want := row[j]
			if mirror := strings.Fields(matrix[j])[i]; mirror != want {
				t.Fatalf("the matrix should be symmetric: %s/%s is %s, %s/%s is %s",
					ours.name, theirs.name, want, theirs.name, ours.name, mirror)
			}
			t.Run(ours.name+"/"+theirs.name, func(t *testing.T) {
				t.Parallel()
				oursTree, theirsTree := edit(base, ours.apply), edit(base, theirs.apply)
				mustValid(t, oursTree)
				mustValid(t, theirsTree)
				got, conflicts := Merge(base, oursTree, theirsTree)
				if want == "." {
					if len(conflicts) > 0 {
						t.Fatalf("conflicts %v, want a clean merge", conflicts)
					}
					wantTree := edit(base, ours.apply, theirs.apply)
					if !got.Equal(wantTree) || !got.Equal(edit(base, theirs.apply, ours.apply)) {
						t.Fatalf("merged %+v\nwant %+v", got.Pages, wantTree.Pages)
					}
					mustValid(t, got)
					return
				}
				if got != nil || len(conflicts) == 0 {
					t.Fatalf("merged cleanly, want a %s conflict", want)
				}
				for _, c := range conflicts {
					checkMatrixConflict(t, c, matrixKinds[want], ours.name == "remove", theirs.name == "remove")
				}
			})
		}
	}
}

func checkMatrixConflict(t *testing.T, c Conflict, kind ConflictKind, oursRemoved, theirsRemoved bool) {
	t.Helper()
	if c.Kind != kind {
		t.Fatalf("conflict %v (%s), want kind %s", c, c.Kind, kind)
	}
	deletedBy := Side("")
	if oursRemoved {
		deletedBy = Ours
	} else if theirsRemoved {
		deletedBy = Theirs
	}
	switch kind {
	case ConflictDeleteEdit:
		if !slices.Equal(c.PageIDs, []string{"install"}) || c.DeletedBy != deletedBy {
			t.Fatalf("conflict %+v, want install deleted by %s", c, deletedBy)
		}
	case ConflictParentDeleted:
		if len(c.PageIDs) != 2 || c.PageIDs[1] != "install" || c.DeletedBy != deletedBy {
			t.Fatalf("conflict %+v, want a page under install, deleted by %s", c, deletedBy)
		}
	case ConflictDuplicateSlug:
		if !slices.Equal(c.PageIDs, []string{"child", "dup"}) {
			t.Fatalf("conflict %+v, want child and dup", c)
		}
	default:
		if !slices.Equal(c.PageIDs, []string{"install"}) || c.Field == "" {
			t.Fatalf("conflict %+v, want one about a field of install", c)
		}
	}
	if c.String() == "" {
		t.Fatal("conflict without a description")
	}
}
