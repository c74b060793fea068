package contenttree

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// ProblemKind names what is wrong with a tree.
type ProblemKind string

// Problems Check finds.
const (
	ProblemMissingParent ProblemKind = "missing-parent" // the page's parent is not in the tree
	ProblemCycle         ProblemKind = "cycle"          // the pages are each other's ancestors
	ProblemDuplicateSlug ProblemKind = "duplicate-slug" // sibling pages share a slug, hence a path
	ProblemNesting       ProblemKind = "nesting"        // a group below the top level, or a page under a link
	ProblemInvalidPage   ProblemKind = "invalid-page"   // bad id, type or slug
	ProblemInvalidFile   ProblemKind = "invalid-file"   // bad id
)

// Problem is one thing wrong with a tree.
type Problem struct {
	Kind ProblemKind
	// PageIDs names the pages involved, the page at fault first: for a missing parent, the page and
	// the parent's id; for a cycle, its pages; for a duplicate slug, the pages sharing it.
	PageIDs []string
	FileID  string
	Detail  string // what is wrong, in words
}

func (p Problem) String() string {
	if p.FileID != "" {
		return fmt.Sprintf("file %q: %s", p.FileID, p.Detail)
	}
	pages := p.PageIDs
	if p.Kind != ProblemCycle && p.Kind != ProblemDuplicateSlug {
		pages = pages[:1] // the others are named in the detail
	}
	return fmt.Sprintf("%s: %s", pageList(pages), p.Detail)
}

func pageList(ids []string) string {
	quoted := make([]string, len(ids))
	for i, id := range ids {
		quoted[i] = fmt.Sprintf("%q", id)
	}
	if len(ids) == 1 {
		return "page " + quoted[0]
	}
	return "pages " + strings.Join(quoted, ", ")
}

// InvalidError is the error Validate returns.
type InvalidError struct{ Problems []Problem }

func (e *InvalidError) Error() string {
	const shown = 3
	msgs := make([]string, 0, shown)
	for _, p := range e.Problems[:min(shown, len(e.Problems))] {
		msgs = append(msgs, p.String())
	}
	msg := "invalid content tree: " + strings.Join(msgs, "; ")
	if n := len(e.Problems) - shown; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// Validate returns an *InvalidError listing the tree's problems, or nil when it has none.
func (t *Tree) Validate() error {
	if problems := t.Check(); len(problems) > 0 {
		return &InvalidError{problems}
	}
	return nil
}

// Check lists everything structurally wrong with the tree, in a stable order: ids that do not match
// their keys, unknown types, documents and groups without a usable slug, missing parents, cycles,
// groups below the top level, pages under links, and sibling pages sharing a slug. Field values
// (title lengths and the like) are the API's to check.
func (t *Tree) Check() []Problem {
	t = orEmpty(t)
	var problems []Problem
	ids := slices.Sorted(maps.Keys(t.Pages))
	for _, id := range ids {
		problems = append(problems, t.pageProblems(id)...)
	}
	problems = append(problems, t.cycles(ids)...)
	problems = append(problems, t.duplicateSlugs()...)
	for _, id := range slices.Sorted(maps.Keys(t.Files)) {
		if f := t.Files[id]; id == "" || f.ID != id {
			problems = append(problems, Problem{Kind: ProblemInvalidFile, FileID: id,
				Detail: fmt.Sprintf("is stored under a key that is not its id %q", f.ID)})
		}
	}
	return problems
}

// pageProblems checks one page on its own and against its parent.
func (t *Tree) pageProblems(id string) []Problem {
	p := t.Pages[id]
	invalid := func(format string, args ...any) Problem {
		return Problem{Kind: ProblemInvalidPage, PageIDs: []string{id}, Detail: fmt.Sprintf(format, args...)}
	}
	var problems []Problem
	if id == "" || p.ID != id {
		problems = append(problems, invalid("is stored under a key that is not its id %q", p.ID))
	}
	switch p.Kind {
	case KindDocument, KindGroup:
		if p.Slug == "" || strings.Contains(p.Slug, "/") {
			problems = append(problems, invalid("slug %q must be non-empty and without \"/\"", p.Slug))
		}
	case KindLink:
	default:
		problems = append(problems, invalid("unknown type %q", p.Kind))
	}
	if p.ParentID == "" {
		return problems
	}
	parent, ok := t.Pages[p.ParentID]
	switch {
	case !ok:
		problems = append(problems, Problem{Kind: ProblemMissingParent, PageIDs: []string{id, p.ParentID},
			Detail: fmt.Sprintf("its parent %q is not in the tree", p.ParentID)})
	case p.Kind == KindGroup:
		problems = append(problems, Problem{Kind: ProblemNesting, PageIDs: []string{id, p.ParentID},
			Detail: "a group must be at the top level"})
	case parent.Kind == KindLink:
		problems = append(problems, Problem{Kind: ProblemNesting, PageIDs: []string{id, p.ParentID},
			Detail: fmt.Sprintf("its parent %q is a link, which cannot hold pages", p.ParentID)})
	}
	return problems
}

// cycles finds each cycle of parents once, naming its pages from the smallest id, in parent order.
func (t *Tree) cycles(ids []string) []Problem {
	const (
		unseen = iota
		onPath
		done
	)
	state := map[string]int{}
	var problems []Problem
	for _, start := range ids {
		var path []string
		id := start
		for {
			p, ok := t.Pages[id]
			if !ok || state[id] == done {
				break
			}
			if state[id] == onPath {
				cycle := path[slices.Index(path, id):]
				first := slices.Index(cycle, slices.Min(cycle))
				cycle = append(slices.Clone(cycle[first:]), cycle[:first]...)
				problems = append(problems, Problem{Kind: ProblemCycle, PageIDs: cycle,
					Detail: "each is an ancestor of the other"})
				break
			}
			state[id] = onPath
			path = append(path, id)
			if p.ParentID == "" {
				break
			}
			id = p.ParentID
		}
		for _, id := range path {
			state[id] = done
		}
	}
	slices.SortFunc(problems, func(a, b Problem) int { return strings.Compare(a.PageIDs[0], b.PageIDs[0]) })
	return problems
}

// duplicateSlugs finds sibling documents and groups that share a slug, and so a path.
func (t *Tree) duplicateSlugs() []Problem {
	type key struct{ parent, slug string }
	bySlug := map[key][]string{}
	for id, p := range t.Pages {
		if p.Kind != KindLink && p.Slug != "" {
			k := key{p.ParentID, p.Slug}
			bySlug[k] = append(bySlug[k], id)
		}
	}
	var problems []Problem
	for k, ids := range bySlug {
		if len(ids) > 1 {
			slices.Sort(ids)
			problems = append(problems, Problem{Kind: ProblemDuplicateSlug, PageIDs: ids,
				Detail: fmt.Sprintf("siblings share the slug %q", k.slug)})
		}
	}
	slices.SortFunc(problems, func(a, b Problem) int { return strings.Compare(a.PageIDs[0], b.PageIDs[0]) })
	return problems
}
