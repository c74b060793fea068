package search

import (
	"context"
	"sort"
)

// candidateWindow bounds how many matching sections one ranked lookup scores. A query whose
// matches are fewer is ranked exactly; one made only of words found nearly everywhere
// ("the", "and") would otherwise score every section of the index, so it ranks the most
// recently indexed candidateWindow of its matches instead, after its title matches, which
// are ranked the same way. Words that rare carry little relevance by themselves: whenever a
// query holds one less common word, the intersection is small and the ranking exact.
const candidateWindow = 4000

// MaxSections is the most sections one search considers, best first, before grouping them by
// page and space.
const MaxSections = 500

// SectionResult is a section that matched.
type SectionResult struct {
	Anchor string // the heading's anchor; "" for the page's opening section
	Title  string
	Body   string // an excerpt of the section's text around the first match
}

// PageResult is a page with its matching sections, best first.
type PageResult struct {
	ID       string
	Title    string
	Path     string
	Sections []SectionResult
}

// SpaceResult is a space with its matching pages, best first.
type SpaceResult struct {
	ID    string
	Pages []PageResult
}

// Search finds the sections of the given spaces that match query, best first, and groups
// them by page and by space, each in the order of its best section. Spaces that do not exist
// or are in the trash are left out, as are pages that the index holds but the space's current
// content no longer has (an update not indexed yet). It fails with a 400 for an empty or too
// long query.
func (s *Service) Search(ctx context.Context, spaceIDs []string, query string) ([]SpaceResult, error) {
	q, err := Parse(query)
	if err != nil || len(q.Terms) == 0 || len(spaceIDs) == 0 {
		return []SpaceResult{}, err
	}
	heads, err := s.store.LiveHeads(ctx, spaceIDs)
	if err != nil || len(heads) == 0 {
		return []SpaceResult{}, err
	}
	live := make([]string, 0, len(heads))
	for id := range heads {
		live = append(live, id)
	}
	sort.Strings(live)
	m := Match{SpaceIDs: live, Query: q, TitleOnly: true, Limit: MaxSections}
	hits, err := s.rank(ctx, m)
	if err != nil {
		return nil, err
	}
	m.TitleOnly = false
	rest, err := s.rank(ctx, m)
	if err != nil {
		return nil, err
	}
	seen := make(map[[2]string]bool, len(hits))
	for _, h := range hits {
		seen[[2]string{h.PageID, h.SectionID}] = true
	}
	for _, h := range rest {
		if len(hits) >= MaxSections {
			break
		}
		if !seen[[2]string{h.PageID, h.SectionID}] {
			hits = append(hits, h)
		}
	}
	return s.group(ctx, q, heads, hits)
}

// rank runs a lookup, over a bounded window of candidates when the query matches too many.
func (s *Service) rank(ctx context.Context, m Match) ([]Hit, error) {
	floor, many, err := s.store.NthMatch(ctx, m, candidateWindow)
	if err != nil {
		return nil, err
	}
	if many {
		m.Floor = floor
	}
	return s.store.Search(ctx, m)
}

// group orders hits into spaces and pages, resolving each page's title and path at the
// space's head.
func (s *Service) group(ctx context.Context, q Query, heads map[string]string, hits []Hit) ([]SpaceResult, error) {
	out := []SpaceResult{}
	spaceAt := map[string]int{}
	pageAt := map[[2]string]int{}
	marks := q.highlights()
	for _, h := range hits {
		snap, err := s.content.Snapshot(ctx, heads[h.SpaceID])
		if err != nil {
			return nil, err
		}
		page, ok := snap.Tree.Pages[h.PageID]
		if !ok {
			continue
		}
		si, ok := spaceAt[h.SpaceID]
		if !ok {
			si = len(out)
			spaceAt[h.SpaceID] = si
			out = append(out, SpaceResult{ID: h.SpaceID})
		}
		key := [2]string{h.SpaceID, h.PageID}
		pi, ok := pageAt[key]
		if !ok {
			pi = len(out[si].Pages)
			pageAt[key] = pi
			out[si].Pages = append(out[si].Pages, PageResult{ID: page.ID, Title: page.Title, Path: snap.Paths[page.ID]})
		}
		title := h.Title
		if h.SectionID == "" {
			title = page.Title
		}
		out[si].Pages[pi].Sections = append(out[si].Pages[pi].Sections, SectionResult{
			Anchor: h.SectionID, Title: title, Body: Excerpt(h.Body, marks)})
	}
	return out, nil
}
