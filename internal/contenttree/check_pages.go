package contenttree

import (
	"fmt"
	"slices"
	"strings"
)

// CheckPages is Check for a tree made from a valid one by upserting or removing the pages
// named in changed: it looks only where such a change can break something, so its cost
// follows the size of the change rather than the size of the tree. It checks each changed
// page that is still there on its own and against its parent, the children of every changed
// page (whose parent may be gone, or have become a link or moved under one), cycles through
// changed pages, and slugs among the siblings of changed pages. children lists a page's
// children in t ("" for the top level). Problems are in a stable order, without duplicates.
func (t *Tree) CheckPages(changed []string, children func(parentID string) []string) []Problem {
	t = orEmpty(t)
	seen := map[string]bool{}
	var problems []Problem
	add := func(ps ...Problem) {
		for _, p := range ps {
			k := string(p.Kind) + "\x00" + strings.Join(p.PageIDs, "\x00") + "\x00" + p.Detail
			if !seen[k] {
				seen[k] = true
				problems = append(problems, p)
			}
		}
	}
	checked := map[string]bool{}
	check := func(id string) {
		if !checked[id] {
			checked[id] = true
			add(t.pageProblems(id)...)
		}
	}
	slugsChecked := map[string]bool{}
	for _, id := range changed {
		for _, child := range children(id) {
			if _, ok := t.Pages[child]; ok {
				check(child)
			}
		}
		p, ok := t.Pages[id]
		if !ok {
			continue
		}
		check(id)
		add(t.cycleThrough(id)...)
		if !slugsChecked[p.ParentID] {
			slugsChecked[p.ParentID] = true
			add(t.siblingSlugs(children(p.ParentID))...)
		}
	}
	slices.SortFunc(problems, func(a, b Problem) int {
		if c := strings.Compare(string(a.Kind), string(b.Kind)); c != 0 {
			return c
		}
		return strings.Compare(strings.Join(a.PageIDs, ","), strings.Join(b.PageIDs, ","))
	})
	return problems
}

// cycleThrough reports a cycle of parents that id's ancestry runs into, if any.
func (t *Tree) cycleThrough(id string) []Problem {
	var path []string
	onPath := map[string]bool{}
	for cur := id; cur != ""; {
		p, ok := t.Pages[cur]
		if !ok {
			return nil
		}
		if onPath[cur] {
			cycle := path[slices.Index(path, cur):]
			first := slices.Index(cycle, slices.Min(cycle))
			cycle = append(slices.Clone(cycle[first:]), cycle[:first]...)
			return []Problem{{Kind: ProblemCycle, PageIDs: cycle, Detail: "each is an ancestor of the other"}}
		}
		onPath[cur] = true
		path = append(path, cur)
		cur = p.ParentID
	}
	return nil
}

// siblingSlugs finds documents and groups among ids that share a slug.
func (t *Tree) siblingSlugs(ids []string) []Problem {
	bySlug := map[string][]string{}
	for _, id := range ids {
		if p, ok := t.Pages[id]; ok && p.Kind != KindLink && p.Slug != "" {
			bySlug[p.Slug] = append(bySlug[p.Slug], id)
		}
	}
	var problems []Problem
	for slug, same := range bySlug {
		if len(same) > 1 {
			slices.Sort(same)
			problems = append(problems, Problem{Kind: ProblemDuplicateSlug, PageIDs: same,
				Detail: fmt.Sprintf("siblings share the slug %q", slug)})
		}
	}
	return problems
}
