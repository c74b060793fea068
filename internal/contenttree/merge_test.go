package contenttree

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"
	"time"

	"docsd/internal/textmerge"
)

func TestMergeCases(t *testing.T) {
	t.Parallel()
	png := File{ID: "img", Name: "logo.png", ContentType: "image/png", Hash: "h1", Size: 100}
	withFile := func(t *Tree) { t.Files["img"] = png }
	withVars := func(t *Tree) {
		t.Variables["version"] = json.RawMessage(`"1.0"`)
		t.Variables["beta"] = json.RawMessage(`false`)
		setPage(t, "install", func(p *Page) { p.Variables = map[string]json.RawMessage{"os": json.RawMessage(`"linux"`)} })
	}
	setFile := func(change func(f *File)) func(*Tree) {
		return func(t *Tree) { f := t.Files["img"]; change(&f); t.Files["img"] = f }
	}
	setVar := func(name, value string) func(*Tree) {
		return func(t *Tree) {
			if value == "" {
				delete(t.Variables, name)
			} else {
				t.Variables[name] = json.RawMessage(value)
			}
		}
	}
	setPageVar := func(name, value string) func(*Tree) {
		return func(t *Tree) {
			setPage(t, "install", func(p *Page) {
				if value == "" {
					delete(p.Variables, name)
				} else {
					p.Variables[name] = json.RawMessage(value)
				}
			})
		}
	}
	change := func(id string, f func(p *Page)) func(*Tree) { return func(t *Tree) { setPage(t, id, f) } }
	add := func(p Page) func(*Tree) { return func(t *Tree) { t.Pages[p.ID] = p } }
	remove := func(id string) func(*Tree) { return func(t *Tree) { removeSubtree(t, id) } }

	tests := []struct {
		name         string
		base         []func(*Tree) // applied to matrixBase()
		ours, theirs []func(*Tree)
		want         []func(*Tree) // for a clean merge: applied to the base to get the result
		conflicts    []Conflict    // compared without Text and Detail
	}{
		{
			name:      "moves that together make a cycle",
			ours:      []func(*Tree){change("guide", func(p *Page) { p.ParentID = "home" })},
			theirs:    []func(*Tree){change("home", func(p *Page) { p.ParentID = "guide"; p.Order = "c" })},
			conflicts: []Conflict{{Kind: ConflictCycle, PageIDs: []string{"guide", "home"}}},
		},
		{
			name:      "rename into a slug the other side gave a new sibling",
			ours:      []func(*Tree){change("install", func(p *Page) { p.Slug = "setup" })},
			theirs:    []func(*Tree){add(doc("setup2", "guide", "c", "setup"))},
			conflicts: []Conflict{{Kind: ConflictDuplicateSlug, PageIDs: []string{"install", "setup2"}}},
		},
		{
			name:      "move next to a page the other side gave the same slug",
			ours:      []func(*Tree){change("install", func(p *Page) { p.ParentID, p.Order = "", "d" })},
			theirs:    []func(*Tree){add(doc("top", "", "e", "install"))},
			conflicts: []Conflict{{Kind: ConflictDuplicateSlug, PageIDs: []string{"install", "top"}}},
		},
		{
			name:      "move under a page the other side deleted",
			ours:      []func(*Tree){change("usage", func(p *Page) { p.ParentID = "install" })},
			theirs:    []func(*Tree){remove("install")},
			conflicts: []Conflict{{Kind: ConflictParentDeleted, PageIDs: []string{"usage", "install"}, DeletedBy: Theirs}},
		},
		{
			name:      "page added under a page the other side made a link",
			ours:      []func(*Tree){add(doc("child", "install", "a", "child"))},
			theirs:    []func(*Tree){add(link("install", "guide", "a", "https://example.com"))},
			conflicts: []Conflict{{Kind: ConflictStructure, PageIDs: []string{"child", "install"}}},
		},
		{
			name:   "the same page added on both sides",
			ours:   []func(*Tree){add(doc("new", "", "e", "new"))},
			theirs: []func(*Tree){add(doc("new", "", "e", "new"))},
			want:   []func(*Tree){add(doc("new", "", "e", "new"))},
		},
		{
			name:   "one id added differently on both sides",
			ours:   []func(*Tree){add(doc("new", "", "e", "new"))},
			theirs: []func(*Tree){add(doc("new", "", "e", "fresh"))},
			conflicts: []Conflict{
				{Kind: ConflictField, PageIDs: []string{"new"}, Field: FieldTitle},
				{Kind: ConflictField, PageIDs: []string{"new"}, Field: FieldSlug},
			},
		},
		{
			name:   "pages added on both sides at the same place",
			ours:   []func(*Tree){add(doc("n1", "guide", "c", "one"))},
			theirs: []func(*Tree){add(doc("n2", "guide", "c", "two"))},
			want:   []func(*Tree){add(doc("n1", "guide", "c", "one")), add(doc("n2", "guide", "c", "two"))},
		},
		{
			name:      "subtree deleted on one side, a page in it edited on the other",
			ours:      []func(*Tree){remove("guide")},
			theirs:    []func(*Tree){change("usage", func(p *Page) { p.Markdown = "# Usage\n" })},
			conflicts: []Conflict{{Kind: ConflictDeleteEdit, PageIDs: []string{"usage"}, DeletedBy: Ours}},
		},
		{
			name:      "subtree deleted on one side, a page moved out of it on the other",
			ours:      []func(*Tree){remove("guide")},
			theirs:    []func(*Tree){change("usage", func(p *Page) { p.ParentID, p.Order = "", "z" })},
			conflicts: []Conflict{{Kind: ConflictDeleteEdit, PageIDs: []string{"usage"}, DeletedBy: Ours}},
		},
		{
			name:   "subtree deleted on one side, pages elsewhere edited on the other",
			ours:   []func(*Tree){remove("guide")},
			theirs: []func(*Tree){change("ref", func(p *Page) { p.Title = "API reference" })},
			want:   []func(*Tree){remove("guide"), change("ref", func(p *Page) { p.Title = "API reference" })},
		},
		{
			name:   "a page deleted on both sides, with an edit elsewhere",
			ours:   []func(*Tree){remove("usage")},
			theirs: []func(*Tree){remove("usage"), change("home", func(p *Page) { p.Emoji = "👋" })},
			want:   []func(*Tree){remove("usage"), change("home", func(p *Page) { p.Emoji = "👋" })},
		},
		{
			name:   "moved and retitled on one side, edited on the other",
			ours:   []func(*Tree){change("install", func(p *Page) { p.ParentID, p.Order, p.Title = "api", "0V", "Setup" })},
			theirs: []func(*Tree){change("install", func(p *Page) { p.Markdown += "\nStep three.\n"; p.Icon = "gear" })},
			want: []func(*Tree){change("install", func(p *Page) {
				p.ParentID, p.Order, p.Title, p.Icon = "api", "0V", "Setup", "gear"
				p.Markdown += "\nStep three.\n"
			})},
		},
		{
			name:   "layout set on both sides with the same meaning",
			ours:   []func(*Tree){change("install", func(p *Page) { p.Layout = json.RawMessage(`{"width":"wide","cover":true}`) })},
			theirs: []func(*Tree){change("install", func(p *Page) { p.Layout = json.RawMessage(`{"cover":true,"width":"wide"}`) })},
			want:   []func(*Tree){change("install", func(p *Page) { p.Layout = json.RawMessage(`{"width":"wide","cover":true}`) })},
		},
		{
			name:      "layout set differently",
			ours:      []func(*Tree){change("install", func(p *Page) { p.Layout = json.RawMessage(`{"width":"wide"}`) })},
			theirs:    []func(*Tree){change("install", func(p *Page) { p.Layout = json.RawMessage(`{"width":"default"}`) })},
			conflicts: []Conflict{{Kind: ConflictField, PageIDs: []string{"install"}, Field: FieldLayout}},
		},
		{
			name:   "page variables set on both sides",
			base:   []func(*Tree){withVars},
			ours:   []func(*Tree){setPageVar("arch", `"arm64"`)},
			theirs: []func(*Tree){setPageVar("os", `"macos"`), setPageVar("shell", `"zsh"`)},
			want:   []func(*Tree){setPageVar("arch", `"arm64"`), setPageVar("os", `"macos"`), setPageVar("shell", `"zsh"`)},
		},
		{
			name:      "a page variable set differently",
			base:      []func(*Tree){withVars},
			ours:      []func(*Tree){setPageVar("os", `"windows"`)},
			theirs:    []func(*Tree){setPageVar("os", `"macos"`)},
			conflicts: []Conflict{{Kind: ConflictField, PageIDs: []string{"install"}, Field: FieldVariables, Variable: "os"}},
		},
		{
			name:   "a page variable removed on one side, changed on the other",
			base:   []func(*Tree){withVars},
			ours:   []func(*Tree){setPageVar("os", "")},
			theirs: []func(*Tree){setPageVar("os", `"macos"`)},
			conflicts: []Conflict{{Kind: ConflictDeleteEdit, PageIDs: []string{"install"}, Field: FieldVariables,
				Variable: "os", DeletedBy: Ours}},
		},
		{
			name:   "space variables changed on both sides",
			base:   []func(*Tree){withVars},
			ours:   []func(*Tree){setVar("version", `"2.0"`), setVar("beta", "")},
			theirs: []func(*Tree){setVar("channel", `"stable"`), setVar("beta", "")},
			want:   []func(*Tree){setVar("version", `"2.0"`), setVar("beta", ""), setVar("channel", `"stable"`)},
		},
		{
			name:      "a space variable set differently",
			base:      []func(*Tree){withVars},
			ours:      []func(*Tree){setVar("version", `"2.0"`)},
			theirs:    []func(*Tree){setVar("version", `2`)},
			conflicts: []Conflict{{Kind: ConflictField, Variable: "version"}},
		},
		{
			name:      "a space variable removed on one side, changed on the other",
			base:      []func(*Tree){withVars},
			ours:      []func(*Tree){setVar("beta", `true`)},
			theirs:    []func(*Tree){setVar("beta", "")},
			conflicts: []Conflict{{Kind: ConflictDeleteEdit, Variable: "beta", DeletedBy: Theirs}},
		},
		{
			name:   "a file renamed on one side, replaced on the other",
			base:   []func(*Tree){withFile},
			ours:   []func(*Tree){setFile(func(f *File) { f.Name = "brand.png" })},
			theirs: []func(*Tree){setFile(func(f *File) { f.Hash, f.Size = "h2", 200 })},
			want:   []func(*Tree){setFile(func(f *File) { f.Name, f.Hash, f.Size = "brand.png", "h2", 200 })},
		},
		{
			name:      "a file replaced differently",
			base:      []func(*Tree){withFile},
			ours:      []func(*Tree){setFile(func(f *File) { f.Hash = "h2" })},
			theirs:    []func(*Tree){setFile(func(f *File) { f.Hash = "h3" })},
			conflicts: []Conflict{{Kind: ConflictField, FileID: "img", Field: FieldContent}},
		},
		{
			name:      "a file deleted on one side, renamed on the other",
			base:      []func(*Tree){withFile},
			ours:      []func(*Tree){func(t *Tree) { delete(t.Files, "img") }},
			theirs:    []func(*Tree){setFile(func(f *File) { f.Name = "brand.png" })},
			conflicts: []Conflict{{Kind: ConflictDeleteEdit, FileID: "img", DeletedBy: Ours}},
		},
		{
			name:   "a file deleted on one side, left alone on the other",
			base:   []func(*Tree){withFile},
			ours:   []func(*Tree){func(t *Tree) { delete(t.Files, "img") }},
			theirs: []func(*Tree){func(t *Tree) { t.Files["other"] = File{ID: "other", Name: "a.pdf"} }},
			want:   []func(*Tree){func(t *Tree) { delete(t.Files, "img"); t.Files["other"] = File{ID: "other", Name: "a.pdf"} }},
		},
		{
			name:   "the same file added on both sides",
			ours:   []func(*Tree){withFile},
			theirs: []func(*Tree){withFile},
			want:   []func(*Tree){withFile},
		},
		{
			name: "conflicts come in a stable order",
			base: []func(*Tree){withFile, withVars},
			ours: []func(*Tree){
				change("usage", func(p *Page) { p.Title = "A" }), change("install", func(p *Page) { p.Title = "A" }),
				setFile(func(f *File) { f.Name = "a.png" }), setVar("version", `"a"`),
				change("guide", func(p *Page) { p.ParentID = "home" }),
			},
			theirs: []func(*Tree){
				change("usage", func(p *Page) { p.Title = "B" }), change("install", func(p *Page) { p.Title = "B" }),
				setFile(func(f *File) { f.Name = "b.png" }), setVar("version", `"b"`),
				change("home", func(p *Page) { p.ParentID, p.Order = "guide", "c" }),
			},
			conflicts: []Conflict{
				{Kind: ConflictField, PageIDs: []string{"install"}, Field: FieldTitle},
				{Kind: ConflictField, PageIDs: []string{"usage"}, Field: FieldTitle},
				{Kind: ConflictCycle, PageIDs: []string{"guide", "home"}},
				{Kind: ConflictField, FileID: "img", Field: FieldName},
				{Kind: ConflictField, Variable: "version"},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			base := edit(matrixBase(), tc.base...)
			ours, theirs := edit(base, tc.ours...), edit(base, tc.theirs...)
			for _, tree := range []*Tree{base, ours, theirs} {
				mustValid(t, tree)
			}
			got, conflicts := Merge(base, ours, theirs)
			for i := range conflicts {
				if conflicts[i].String() == "" {
					t.Errorf("conflict %+v has no description", conflicts[i])
				}
				conflicts[i].Text, conflicts[i].Detail = nil, ""
			}
			if tc.conflicts != nil {
				if got != nil || !reflect.DeepEqual(conflicts, tc.conflicts) {
					t.Fatalf("conflicts\n %+v\nwant\n %+v", conflicts, tc.conflicts)
				}
				return
			}
			if len(conflicts) > 0 {
				t.Fatalf("conflicts %v, want a clean merge", conflicts)
			}
			if want := edit(base, tc.want...); !got.Equal(want) {
				t.Fatalf("merged\n %+v\nwant\n %+v\ndiff %+v", got, want, Diff(want, got))
			}
			mustValid(t, got)
		})
	}
}

func TestMergeReportsMarkdownConflictRegions(t *testing.T) {
	t.Parallel()
	base := matrixBase()
	ours := edit(base, func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Markdown = replaceLine(p.Markdown, 2, "Step one, carefully.\n") })
	})
	theirs := edit(base, func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Markdown = replaceLine(p.Markdown, 2, "First step.\n") })
	})
	_, conflicts := Merge(base, ours, theirs)
	want := []textmerge.Conflict{{
		Base: textmerge.Range{Start: 2, End: 3}, Ours: textmerge.Range{Start: 2, End: 3}, Theirs: textmerge.Range{Start: 2, End: 3},
		BaseText: "Step one.\n", OursText: "Step one, carefully.\n", TheirsText: "First step.\n",
	}}
	if len(conflicts) != 1 || conflicts[0].Kind != ConflictMarkdown || !reflect.DeepEqual(conflicts[0].Text, want) {
		t.Fatalf("conflicts %+v", conflicts)
	}
	if s := conflicts[0].String(); s != `page "install": both sides changed the markdown at line 3` {
		t.Errorf("String() = %q", s)
	}
}

func TestConflictDescriptions(t *testing.T) {
	t.Parallel()
	tests := map[string]Conflict{
		`page "p": both sides changed title differently`:                            {Kind: ConflictField, PageIDs: []string{"p"}, Field: FieldTitle},
		`page "p": both sides changed variable "v" differently`:                     {Kind: ConflictField, PageIDs: []string{"p"}, Field: FieldVariables, Variable: "v"},
		`variable "v": both sides changed it differently`:                           {Kind: ConflictField, Variable: "v"},
		`file "f": both sides changed name differently`:                             {Kind: ConflictField, FileID: "f", Field: FieldName},
		`page "p": deleted by ours, changed by theirs`:                              {Kind: ConflictDeleteEdit, PageIDs: []string{"p"}, DeletedBy: Ours},
		`page "p": theirs deleted variable "v", which ours changed`:                 {Kind: ConflictDeleteEdit, PageIDs: []string{"p"}, Field: FieldVariables, Variable: "v", DeletedBy: Theirs},
		`variable "v": deleted by theirs, changed by ours`:                          {Kind: ConflictDeleteEdit, Variable: "v", DeletedBy: Theirs},
		`page "c": placed under page "p", which ours deleted`:                       {Kind: ConflictParentDeleted, PageIDs: []string{"c", "p"}, DeletedBy: Ours},
		`pages "a", "b": moves on the two sides make each an ancestor of the other`: {Kind: ConflictCycle, PageIDs: []string{"a", "b"}},
		`pages "a", "b": siblings share the slug "x"`:                               {Kind: ConflictDuplicateSlug, PageIDs: []string{"a", "b"}, Detail: `siblings share the slug "x"`},
		`page "c": its parent "l" is a link, which cannot hold pages`:               {Kind: ConflictStructure, PageIDs: []string{"c", "l"}, Detail: `its parent "l" is a link, which cannot hold pages`},
	}
	for want, c := range tests {
		if got := c.String(); got != want {
			t.Errorf("String() = %q, want %q", got, want)
		}
	}
}

func TestMergeTreatsNilAsEmpty(t *testing.T) {
	t.Parallel()
	x := sample()
	for _, tc := range []struct {
		name               string
		base, ours, theirs *Tree
	}{{"added on our side", nil, x, nil}, {"added on their side", nil, nil, x}, {"added on both sides", nil, x, x}} {
		got, conflicts := Merge(tc.base, tc.ours, tc.theirs)
		if len(conflicts) > 0 || !got.Equal(x) {
			t.Errorf("%s: got %v, %v", tc.name, got, conflicts)
		}
	}
	if got, conflicts := Merge(nil, nil, nil); len(conflicts) > 0 || !got.Equal(New()) || got.Variables == nil {
		t.Errorf("merging nothing: %v, %v", got, conflicts)
	}
}

func TestMergeDoesNotChangeItsInputs(t *testing.T) {
	t.Parallel()
	base := edit(matrixBase(), func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Variables = map[string]json.RawMessage{"a": json.RawMessage(`1`)} })
	})
	ours := edit(base, func(t *Tree) { setPage(t, "install", func(p *Page) { p.Variables["b"] = json.RawMessage(`2`) }) })
	theirs := edit(base, func(t *Tree) {
		setPage(t, "install", func(p *Page) { p.Variables["c"] = json.RawMessage(`3`) })
		added := doc("new", "", "e", "new")
		added.Variables = map[string]json.RawMessage{"x": json.RawMessage(`1`)}
		t.Pages["new"] = added
	})
	snapshots := []*Tree{base.Clone(), ours.Clone(), theirs.Clone()}
	got, conflicts := Merge(base, ours, theirs)
	if len(conflicts) > 0 {
		t.Fatal(conflicts)
	}
	setPage(got, "install", func(p *Page) { p.Variables["d"] = json.RawMessage(`4`) })
	setPage(got, "new", func(p *Page) { p.Variables["y"] = json.RawMessage(`2`) })
	for i, tree := range []*Tree{base, ours, theirs} {
		if !tree.Equal(snapshots[i]) {
			t.Fatalf("input %d changed", i)
		}
	}
	if keys := slices.Sorted(maps.Keys(got.Pages["install"].Variables)); !slices.Equal(keys, []string{"a", "b", "c", "d"}) {
		t.Fatalf("merged variables %v", keys)
	}
}

func TestMergeTimes(t *testing.T) {
	t.Parallel()
	at := func(minute int) time.Time { return time.Date(2026, 1, 1, 0, minute, 0, 0, time.UTC) }
	timed := func(created, updated int) func(*Page) {
		return func(p *Page) { p.CreatedAt, p.UpdatedAt = at(created), at(updated) }
	}
	base := treeOf(doc("a", "", "a0", "a"), doc("b", "", "a1", "b"), doc("c", "", "a2", "c"))
	setPage(base, "c", timed(1, 2))
	ours := edit(base, func(t *Tree) {
		setPage(t, "a", func(p *Page) { p.Title = "Ours"; timed(5, 5)(p) })
		setPage(t, "b", timed(6, 6)) // an edit that changed nothing but its time
		setPage(t, "c", func(p *Page) { p.Emoji = "1f600"; p.UpdatedAt = at(7) })
	})
	theirs := edit(base, func(t *Tree) {
		setPage(t, "a", func(p *Page) { p.Slug = "theirs"; timed(4, 8)(p) })
		setPage(t, "c", func(p *Page) { p.Description = "d"; p.UpdatedAt = at(3) })
	})
	merged, conflicts := Merge(base, ours, theirs)
	if len(conflicts) > 0 {
		t.Fatalf("conflicts: %v", conflicts)
	}
	for id, want := range map[string][2]time.Time{"a": {at(4), at(8)}, "b": {at(6), at(6)}, "c": {at(1), at(7)}} {
		p := merged.Pages[id]
		if !p.CreatedAt.Equal(want[0]) || !p.UpdatedAt.Equal(want[1]) {
			t.Errorf("%s: created %v, updated %v; want %v, %v", id, p.CreatedAt, p.UpdatedAt, want[0], want[1])
		}
	}
	if p := merged.Pages["a"]; p.Title != "Ours" || p.Slug != "theirs" {
		t.Errorf("a merged to %+v", p)
	}
}

// TestMergeGitBlobs checks that a page's Git blob follows the side that re-imported it.
func TestMergeGitBlobs(t *testing.T) {
	t.Parallel()
	blob := func(oid string) func(*Page) { return func(p *Page) { p.Git = GitBlob{OID: oid, Path: p.ID + ".md"} } }
	base := treeOf(doc("a", "", "a0", "a"), doc("b", "", "a1", "b"), doc("c", "", "a2", "c"))
	for _, id := range []string{"a", "b", "c"} {
		setPage(base, id, blob("base"))
	}
	ours := edit(base, func(t *Tree) {
		setPage(t, "a", func(p *Page) { p.Title = "Ours" })  // edited, not re-imported
		setPage(t, "c", func(p *Page) { blob("ours-c")(p) }) // both re-imported: ours wins
	})
	theirs := edit(base, func(t *Tree) {
		setPage(t, "a", blob("theirs-a")) // re-imported by theirs only
		setPage(t, "b", func(p *Page) { p.Title = "Theirs" })
		setPage(t, "c", blob("theirs-c"))
	})
	merged, conflicts := Merge(base, ours, theirs)
	if len(conflicts) > 0 {
		t.Fatalf("conflicts: %v", conflicts)
	}
	for id, want := range map[string]string{"a": "theirs-a", "b": "base", "c": "ours-c"} {
		if got := merged.Pages[id].Git.OID; got != want {
			t.Errorf("%s: Git blob %q, want %q", id, got, want)
		}
	}
	if merged.Pages["a"].Title != "Ours" || merged.Pages["b"].Title != "Theirs" {
		t.Errorf("titles %q, %q", merged.Pages["a"].Title, merged.Pages["b"].Title)
	}
}
