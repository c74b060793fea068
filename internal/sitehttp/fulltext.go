package sitehttp

import (
	"context"

	"docsd/internal/content"
	"docsd/internal/search"
	"docsd/internal/sitepub"
)

// FullText is the search box over the database's full-text index (the one behind the API's
// space search), ranked by relevance. Hidden pages are left out, as the site's navigation
// leaves them out.
type FullText struct {
	Index   *search.Service
	Content *content.Service
}

// Search finds the pages of the site spaces' spaces matching query, best first. A space that
// two site spaces publish is answered under the first of them.
func (f FullText) Search(ctx context.Context, spaces []sitepub.SiteSpace, query string, limit int) ([]Hit, error) {
	siteSpaceOf := map[string]string{}
	var spaceIDs []string
	for _, ss := range spaces {
		if _, seen := siteSpaceOf[ss.SpaceID]; !seen {
			siteSpaceOf[ss.SpaceID] = ss.ID
			spaceIDs = append(spaceIDs, ss.SpaceID)
		}
	}
	found, err := f.Index.Search(ctx, spaceIDs, query)
	if err != nil {
		return nil, err
	}
	var hits []Hit
	for _, sr := range found {
		_, snap, err := f.Content.PublishedHead(ctx, sr.ID)
		if err != nil {
			if isNotFound(err) {
				continue
			}
			return nil, err
		}
		for _, p := range sr.Pages {
			if page, ok := snap.Tree.Pages[p.ID]; !ok || page.Hidden {
				continue
			}
			excerpt := ""
			if len(p.Sections) > 0 {
				excerpt = p.Sections[0].Excerpt()
			}
			hits = append(hits, Hit{SiteSpaceID: siteSpaceOf[sr.ID], PageID: p.ID, Title: p.Title, Context: excerpt})
			if len(hits) == limit {
				return hits, nil
			}
		}
	}
	return hits, nil
}
