package site

import (
	"slices"
	"strings"
	"testing"

	"docsd/internal/paging"
)

// tree builds: root [sec A (V), group G (W) [sec B (V), group H (V1) [sec C (V)]]], with
// site spaces a1, a2 in A and c1 in C.
func sampleTree() Tree {
	return Tree{
		Sections: []Section{
			{ID: "A", Position: "V", Path: "a", Default: true},
			{ID: "B", GroupID: "G", Position: "V", Path: "b"},
			{ID: "C", GroupID: "H", Position: "V", Path: "c"},
		},
		Groups: []SectionGroup{{ID: "G", Position: "W"}, {ID: "H", ParentID: "G", Position: "V1"}},
		SiteSpaces: []SiteSpace{
			{ID: "a2", SectionID: "A", Position: "W", Path: "two"},
			{ID: "a1", SectionID: "A", Position: "V", Path: "one", Default: true},
			{ID: "c1", SectionID: "C", Position: "V", Path: "cee", Default: true},
		},
	}
}

func TestStructureOrder(t *testing.T) {
	st := sampleTree().Structure()
	if !st.HasSections || len(st.Items) != 2 || st.Items[0].Section.ID != "A" || st.Items[1].Group.ID != "G" {
		t.Fatalf("root items: %+v", st.Items)
	}
	g := st.Items[1].Group
	if len(g.Children) != 2 || g.Children[0].Section.ID != "B" || g.Children[1].Group.ID != "H" ||
		g.Children[1].Group.Children[0].Section.ID != "C" {
		t.Fatalf("group children: %+v", g.Children)
	}
	var secs []string
	for _, s := range st.Sections() {
		secs = append(secs, s.ID)
	}
	if strings.Join(secs, ",") != "A,B,C" {
		t.Errorf("sections depth first: %v", secs)
	}
	var spaces []string
	for _, s := range st.AllSiteSpaces() {
		spaces = append(spaces, s.ID)
	}
	if strings.Join(spaces, ",") != "a1,a2,c1" {
		t.Errorf("site spaces in order: %v", spaces)
	}
	if d := st.DefaultSection(); d == nil || d.ID != "A" {
		t.Errorf("default section: %v", d)
	}
}

func TestOrderKeysSortDepthFirst(t *testing.T) {
	tr := sampleTree()
	keys := tr.OrderKeys()
	ids := []string{"c1", "H", "a2", "G", "C", "A", "B", "a1"}
	slices.SortFunc(ids, func(a, b string) int { return strings.Compare(keys[a], keys[b]) })
	if got := strings.Join(ids, ","); got != "A,a1,a2,G,B,H,C,c1" {
		t.Errorf("order: %s", got)
	}
	// A shorter position sorts before a longer one that extends it ("V" < "V1").
	if keys["B"] >= keys["H"] {
		t.Errorf("V must sort before V1: %q, %q", keys["B"], keys["H"])
	}
}

func TestSiteSpacePath(t *testing.T) {
	tr := sampleTree()
	want := map[string]string{"a1": "", "a2": "two", "c1": "c"}
	for _, ss := range tr.SiteSpaces {
		if got := tr.SiteSpacePath(ss); got != want[ss.ID] {
			t.Errorf("%s: %q, want %q", ss.ID, got, want[ss.ID])
		}
	}
}

func TestPageOf(t *testing.T) {
	items := []string{"d", "b", "a", "c", "e"}
	key := func(s string) string { return s }
	var got []string
	req := paging.Request{Limit: 2}
	for pages := 0; pages < 10; pages++ {
		res := PageOf(items, key, req)
		if res.Count != 5 {
			t.Fatalf("count %d", res.Count)
		}
		got = append(got, res.Items...)
		if res.Next == nil {
			break
		}
		req.After = res.Next
	}
	if strings.Join(got, "") != "abcde" {
		t.Errorf("walk: %v", got)
	}
	if res := PageOf(items, key, paging.Request{}); res.Count != 5 || len(res.Items) != 0 || res.Next != nil {
		t.Errorf("limit 0 answers the count alone: %+v", res)
	}
}

func TestSlugify(t *testing.T) {
	for in, want := range map[string]string{
		"User Guide":          "user-guide",
		"  API -- Reference ": "api-reference",
		"Ünïcode!":            "n-code",
		"!!!":                 "fallback",
	} {
		if got := slugify(in, "fallback"); got != want {
			t.Errorf("slugify(%q) = %q, want %q", in, got, want)
		}
	}
	if got := slugify(strings.Repeat("ab ", 60), ""); len(got) > PathMax || strings.HasSuffix(got, "-") {
		t.Errorf("long slug: %q", got)
	}
	if got := withSuffix(strings.Repeat("x", PathMax), 12, PathMax); len(got) != PathMax || !strings.HasSuffix(got, "-12") {
		t.Errorf("withSuffix: %q", got)
	}
}
