package wire

import "docsd/internal/search"

// SearchSection is SearchSectionResult: a section of a page that matched.
type SearchSection struct {
	ID    string       `json:"id"`
	Title string       `json:"title"`
	Path  string       `json:"path"`
	Score float64      `json:"score"`
	Body  string       `json:"body"`
	URLs  SearchAppURL `json:"urls"`
}

// SearchPage is SearchPageResult: a page with its matching sections.
type SearchPage struct {
	ID          string           `json:"id"`
	Title       string           `json:"title"`
	Description string           `json:"description"`
	Path        string           `json:"path"`
	Score       float64          `json:"score"`
	Rank        int              `json:"rank"`
	Ancestors   []SearchAncestor `json:"ancestors"`
	Sections    []SearchSection  `json:"sections"`
	URLs        SearchAppURL     `json:"urls"`
}

// SearchAncestor is a page above a page result.
type SearchAncestor struct {
	Title string `json:"title"`
}

// SearchSpace is SearchSpaceResult: a space with its matching pages.
type SearchSpace struct {
	Type  string       `json:"type"` // always "space"
	ID    string       `json:"id"`
	Title string       `json:"title"`
	Score float64      `json:"score"`
	Pages []SearchPage `json:"pages"`
}

// SearchAppURL is the `urls` object of search results.
type SearchAppURL struct {
	App string `json:"app"`
}

// FromSearchPage converts a page result of a space. A section's id is the page id followed by
// `#` and the heading's anchor (the page id alone for the page's opening section), so it is
// unique across results; its path is the page's path with the same anchor.
func (u URLs) FromSearchPage(spaceID string, p search.PageResult) SearchPage {
	pageURL := u.App("/s/" + Esc(spaceID) + "/" + p.Path)
	out := SearchPage{ID: p.ID, Title: p.Title, Description: p.Description, Path: p.Path, Score: p.Score, Rank: p.Rank,
		Ancestors: make([]SearchAncestor, len(p.Ancestors)), Sections: make([]SearchSection, 0, len(p.Sections)),
		URLs: SearchAppURL{App: pageURL}}
	for i, t := range p.Ancestors {
		out.Ancestors[i] = SearchAncestor{Title: t}
	}
	for _, sec := range p.Sections {
		id, path, url := p.ID, p.Path, pageURL
		if sec.Anchor != "" {
			id, path, url = id+"#"+sec.Anchor, path+"#"+sec.Anchor, url+"#"+sec.Anchor
		}
		out.Sections = append(out.Sections, SearchSection{ID: id, Title: sec.Title, Path: path, Score: sec.Score, Body: sec.Excerpt(),
			URLs: SearchAppURL{App: url}})
	}
	return out
}
