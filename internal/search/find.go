package search

import (
	"context"
	"sort"
	"strings"

	"docsd/internal/contenttree"
	"docsd/internal/gencache"
)

// ExactBound bounds the work of one search (see Match). A query matching at most ExactBound
// sections (most queries: any with a word that is not everywhere) is ranked exactly. One
// matching more, made only of words found nearly everywhere ("the", "and"), ranks on SQLite
// its title matches and the sections where each of its words weighs most by BM25 (champion
// lists, see champions.go): a section outside every list could only rank first if none of the
// query's words stood out in it; the benchmark's recall@20 measures what this loses.
const ExactBound = 2000

// MaxSections is the most sections one search considers, best first, before grouping them by
// page and space.
const MaxSections = 300

// SectionResult is a section that matched.
type SectionResult struct {
	Anchor string // the heading's anchor; "" for the page's opening section
	Title  string
	Score  float64 // relevance, 0 or more; higher is better
	body   string
	marks  []Term
}

// Excerpt is the part of the section's text around its first match (see Excerpt). It is
// made only for the results an answer shows.
func (r SectionResult) Excerpt() string { return Excerpt(r.body, r.marks) }

// PageResult is a page with its matching sections, best first.
type PageResult struct {
	ID          string
	Title       string
	Description string
	Path        string
	Ancestors   []string // titles of the pages above it, top-level first
	Score       float64  // its best section's
	Rank        int      // 1-based position among every page found, in the order of their best sections
	Sections    []SectionResult
}

// SpaceResult is a space with its matching pages, best first.
type SpaceResult struct {
	ID    string
	Score float64 // its best page's
	Pages []PageResult
}

// Search finds the sections of the given spaces that match query, best first, and groups
// them by page and by space, each in the order of its best section. Spaces that do not exist
// or are in the trash are left out, as are pages that the index holds but the space's current
// content no longer has (a large update not indexed yet). A space whose index is behind its
// head by a small change is brought up to date first (see catchUp). It fails with a 400 for
// an empty or too long query.
func (s *Service) Search(ctx context.Context, spaceIDs []string, query string) ([]SpaceResult, error) {
	q, err := Parse(query)
	if err != nil || len(q.Terms) == 0 || len(spaceIDs) == 0 {
		return []SpaceResult{}, err
	}
	states, err := s.liveSpaces(ctx, spaceIDs)
	if err != nil || len(states) == 0 {
		return []SpaceResult{}, err
	}
	// Read your writes: a change that has answered is searchable, even if the update that
	// follows it failed and the outbox consumer has not come to it yet.
	caughtUp := true
	for _, st := range states {
		caughtUp = caughtUp && st.Indexed == st.Head
	}
	if err := s.catchUp(ctx, states); err != nil {
		return nil, err
	}
	heads := make(map[string]string, len(states))
	live := make([]string, 0, len(states))
	var sections int64
	for id, st := range states {
		heads[id] = st.Head
		live = append(live, id)
		sections += st.Sections
	}
	sort.Strings(live)
	// The section counts read with the spaces' state hold unless catchUp changed an index.
	hits, err := s.match(ctx, Match{SpaceIDs: live, Query: q, Limit: MaxSections, Exact: ExactBound,
		ScopeSections: sections, ScopeKnown: caughtUp})
	if err != nil {
		return nil, err
	}
	return s.group(ctx, q, heads, hits)
}

// liveSpaces is Store.LiveSpaces, answered from what a search at the same database generation
// read when the request carries one. The map is shared: callers only read it.
func (s *Service) liveSpaces(ctx context.Context, spaceIDs []string) (map[string]IndexState, error) {
	gen, ok := gencache.GenerationOf(ctx)
	if !ok {
		return s.store.LiveSpaces(ctx, spaceIDs)
	}
	key := strings.Join(spaceIDs, " ")
	if states, ok := s.states.Get(key, gen); ok {
		return states, nil
	}
	states, err := s.store.LiveSpaces(ctx, spaceIDs)
	if err == nil {
		s.states.Put(key, gen, states, 100*len(states))
	}
	return states, err
}

// match returns the best hits of m, best first: ranked here on an index that hands back its
// matches, by the engine otherwise.
func (s *Service) match(ctx context.Context, m Match) ([]Hit, error) {
	if s.rank != nil {
		return s.rank.search(ctx, m)
	}
	return s.store.RankedSearch(ctx, m)
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
		score := max(h.Score, 0)
		key := [2]string{h.SpaceID, h.PageID}
		pi, ok := pageAt[key]
		if !ok {
			pi = len(out[si].Pages)
			pageAt[key] = pi
			// Hits come best first, so a page's first hit is its best section, and pages
			// are ranked in the order they first appear.
			out[si].Pages = append(out[si].Pages, PageResult{ID: page.ID, Title: page.Title, Description: page.Description,
				Path: snap.Paths[page.ID], Ancestors: ancestors(snap.Tree, page), Score: score, Rank: len(pageAt)})
			out[si].Score = max(out[si].Score, score)
		}
		title := h.Title
		if h.SectionID == "" {
			title = page.Title
		}
		out[si].Pages[pi].Sections = append(out[si].Pages[pi].Sections, SectionResult{
			Anchor: h.SectionID, Title: title, Score: score, body: h.Body, marks: marks})
	}
	return out, nil
}

// ancestors returns the titles of the pages above page, top-level first.
func ancestors(t *contenttree.Tree, page contenttree.Page) []string {
	out := []string{}
	for id, depth := page.ParentID, 0; id != "" && depth < 1000; depth++ {
		p, ok := t.Pages[id]
		if !ok {
			break
		}
		out = append([]string{p.Title}, out...)
		id = p.ParentID
	}
	return out
}
