package wire

import "docsd/internal/search"

// SearchSection is SearchSectionResult: a section of a page that matched.
type SearchSection struct {
	ID    string       `json:"id"`
	Title string       `json:"title"`
	Path  string       `json:"path"`
	Body  string       `json:"body"`
	URLs  SearchAppURL `json:"urls"`
}

// SearchPage is SearchPageResult: a page with its matching sections.
type SearchPage struct {
	ID       string          `json:"id"`
	Title    string          `json:"title"`
	Path     string          `json:"path"`
	Sections []SearchSection `json:"sections"`
	URLs     SearchAppURL    `json:"urls"`
}

// SearchSpace is SearchSpaceResult: a space with its matching pages.
type SearchSpace struct {
	ID    string       `json:"id"`
	Title string       `json:"title"`
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
	out := SearchPage{ID: p.ID, Title: p.Title, Path: p.Path, Sections: make([]SearchSection, 0, len(p.Sections)),
		URLs: SearchAppURL{App: pageURL}}
	for _, sec := range p.Sections {
		id, path, url := p.ID, p.Path, pageURL
		if sec.Anchor != "" {
			id, path, url = id+"#"+sec.Anchor, path+"#"+sec.Anchor, url+"#"+sec.Anchor
		}
		out.Sections = append(out.Sections, SearchSection{ID: id, Title: sec.Title, Path: path, Body: sec.Excerpt(),
			URLs: SearchAppURL{App: url}})
	}
	return out
}
