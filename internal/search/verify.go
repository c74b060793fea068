package search

import (
	"context"
	"fmt"
	"maps"
	"slices"
)

// Verify compares the index of a space with the content of its head, as a full rebuild would
// make it, and returns one line per disagreement (none when they agree). A space that no
// longer exists has nothing to compare. An index built from an older revision whose pages
// index the same is not a disagreement (a new space's empty index, an edit that changed
// nothing indexed); one whose sections differ is, and its line says how far behind it is.
func (s *Service) Verify(ctx context.Context, spaceID string) ([]string, error) {
	head, ok, err := s.store.Head(ctx, spaceID)
	if err != nil || !ok {
		return nil, err
	}
	indexed, err := s.store.Indexed(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	var problems []string
	want, err := s.allRows(ctx, spaceID, head)
	if err != nil {
		return nil, err
	}
	got, err := s.store.Sections(ctx, spaceID)
	if err != nil {
		return nil, err
	}
	counts := map[Row]int{}
	for _, r := range want {
		counts[r]++
	}
	for _, r := range got {
		counts[r]--
	}
	var missing, extra int
	var example string
	for r, n := range counts {
		switch {
		case n > 0:
			missing += n
		case n < 0:
			extra -= n
		default:
			continue
		}
		if example == "" || r.PageID < example {
			example = r.PageID
		}
	}
	if missing+extra > 0 {
		behind := ""
		if indexed != head {
			behind = fmt.Sprintf(" (it was built from revision %q)", indexed)
		}
		problems = append(problems, fmt.Sprintf("space %s: search index disagrees with its head revision %s%s: %d sections missing or changed, %d not in the content (page %s among them)",
			spaceID, head, behind, missing, extra, example))
	}
	return problems, nil
}

// Rebuild replaces a space's whole index by the sections of its head.
func (s *Service) Rebuild(ctx context.Context, spaceID string) error {
	for range 5 {
		from, err := s.store.Indexed(ctx, spaceID)
		if err != nil {
			return err
		}
		to, ok, err := s.store.Head(ctx, spaceID)
		if err != nil || !ok {
			return err
		}
		snap, err := s.content.Snapshot(ctx, to)
		if err != nil {
			return err
		}
		pages := slices.Sorted(maps.Keys(snap.Tree.Pages))
		_, done, err := s.apply(ctx, spaceID, from, to, true, pages, nil)
		if err != nil {
			return err
		}
		if done {
			return s.PrepareRanking(ctx)
		}
	}
	return fmt.Errorf("search index of space %s: kept losing the race to other indexers", spaceID)
}

// allRows is every section of a revision's pages.
func (s *Service) allRows(ctx context.Context, spaceID, revisionID string) ([]Row, error) {
	tree, err := s.content.Tree(ctx, revisionID)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, p := range tree.Pages {
		rows = append(rows, PageRows(spaceID, p)...)
	}
	return rows, nil
}
