package contenttree

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestCheckFindsEachProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		tree  *Tree
		kind  ProblemKind
		pages []string
	}{
		{"missing parent", treeOf(doc("a", "gone", "a", "a")), ProblemMissingParent, []string{"a", "gone"}},
		{"cycle of two", treeOf(doc("b", "a", "a", "b"), doc("a", "b", "a", "a")), ProblemCycle, []string{"a", "b"}},
		{"page under itself", treeOf(doc("a", "a", "a", "a")), ProblemCycle, []string{"a"}},
		{"cycle of three, named from its smallest id", treeOf(doc("c", "b", "a", "c"), doc("a", "c", "a", "a"),
			doc("b", "a", "a", "b"), doc("d", "c", "a", "d")), ProblemCycle, []string{"a", "c", "b"}},
		{"sibling slugs", treeOf(doc("b", "", "a", "same"), doc("a", "", "b", "same"), doc("c", "a", "a", "same")),
			ProblemDuplicateSlug, []string{"a", "b"}},
		{"group below the top level", treeOf(doc("a", "", "a", "a"), Page{ID: "g", ParentID: "a", Kind: KindGroup, Slug: "g", Title: "G"}),
			ProblemNesting, []string{"g", "a"}},
		{"page under a link", treeOf(link("l", "", "a", "https://example.com"), doc("a", "l", "a", "a")),
			ProblemNesting, []string{"a", "l"}},
		{"id differs from key", &Tree{Pages: map[string]Page{"a": doc("b", "", "a", "b")}}, ProblemInvalidPage, []string{"a"}},
		{"empty slug", treeOf(doc("a", "", "a", "a"), Page{ID: "b", Kind: KindDocument, Title: "B"}), ProblemInvalidPage, []string{"b"}},
		{"slug with a slash", treeOf(doc("a", "", "a", "a/b")), ProblemInvalidPage, []string{"a"}},
		{"unknown type", treeOf(Page{ID: "a", Kind: "sheet", Slug: "a"}), ProblemInvalidPage, []string{"a"}},
		{"file id differs from key", &Tree{Files: map[string]File{"f": {ID: "g"}}}, ProblemInvalidFile, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			problems := tc.tree.Check()
			if len(problems) != 1 || problems[0].Kind != tc.kind || !slices.Equal(problems[0].PageIDs, tc.pages) {
				t.Fatalf("problems %+v, want one %s about %v", problems, tc.kind, tc.pages)
			}
			var invalid *InvalidError
			if err := tc.tree.Validate(); !errors.As(err, &invalid) || !strings.Contains(err.Error(), problems[0].Detail) {
				t.Fatalf("Validate() = %v", err)
			}
		})
	}
}

func TestCheckAcceptsValidTrees(t *testing.T) {
	t.Parallel()
	tree := sample()
	// Links have no slug, so several may share an empty one; equal order keys are allowed.
	tree.Pages["l2"] = link("l2", "", "c", "https://example.org")
	tree.Pages["l3"] = link("l3", "", "c", "https://example.net")
	tree.Files["f"] = File{ID: "f", Name: "a.png"}
	if err := tree.Validate(); err != nil {
		t.Fatal(err)
	}
	if problems := New().Check(); len(problems) != 0 {
		t.Fatal(problems)
	}
}

func TestValidateListsAFewProblems(t *testing.T) {
	t.Parallel()
	tree := New()
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		tree.Pages[id] = doc(id, "gone", "a", id)
	}
	err := tree.Validate()
	if err == nil || !strings.Contains(err.Error(), `page "a"`) || !strings.HasSuffix(err.Error(), "(and 2 more)") {
		t.Fatalf("Validate() = %v", err)
	}
}
