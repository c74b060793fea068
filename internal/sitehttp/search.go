package sitehttp

import (
	"context"
	"net/http"
	"strings"
	"unicode/utf8"

	"docsd/internal/apperr"
	"docsd/internal/sitehtml"
	"docsd/internal/sitepub"
)

// Searcher finds pages of the given site spaces matching a query. The search box needs only
// this; the full-text index plugs in here.
type Searcher interface {
	Search(ctx context.Context, spaces []sitepub.SiteSpace, query string, limit int) ([]Hit, error)
}

// Hit is a page found by a search.
type Hit struct {
	SiteSpaceID string
	PageID      string
	Title       string
	Context     string
}

// Search limits.
const (
	maxQueryRunes = 200
	maxHits       = 50
)

// search renders the search page for ?q=, over the site spaces the reader sees.
func (v *visit) search(w http.ResponseWriter, r *http.Request) error {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if n := utf8.RuneCountInString(q); n > maxQueryRunes {
		return apperr.Invalidf("q: must be at most %d characters, got %d", maxQueryRunes, n)
	}
	loc, _ := sitepub.Locate(v.st, "")
	p := v.frame(loc)
	p.IsSearch, p.SearchQuery = true, q
	if q != "" && v.h.Search != nil {
		hits, err := v.h.Search.Search(r.Context(), allSpaces(v.st), q, maxHits)
		if err != nil {
			return err
		}
		for _, hit := range hits {
			if u, ok := v.pageURL(r.Context(), hit.SiteSpaceID, hit.PageID); ok {
				p.Results = append(p.Results, sitehtml.Result{Title: hit.Title, URL: u, Context: hit.Context})
			}
		}
	}
	p.NoIndex = true // result pages are not for search engines
	return v.write(w, r, p)
}

// pageURL is the URL of a page of a visible site space.
func (v *visit) pageURL(ctx context.Context, siteSpaceID, pageID string) (string, bool) {
	sections := sitepub.Sections(v.st)
	find := func(section *sitepub.Section, spaces []sitepub.SiteSpace) (string, bool) {
		for _, ss := range spaces {
			if ss.ID != siteSpaceID {
				continue
			}
			_, snap, err := v.h.Content.PublishedHead(ctx, ss.SpaceID)
			if err != nil {
				return "", false
			}
			p, ok := snap.Paths[pageID]
			return v.base + sitepub.Prefix(section, ss) + p, ok
		}
		return "", false
	}
	if u, ok := find(nil, v.st.SiteSpaces); ok {
		return u, true
	}
	for _, s := range sections {
		if u, ok := find(s, s.SiteSpaces); ok {
			return u, true
		}
	}
	return "", false
}
