package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/paging"
	"docsd/internal/search"
	"docsd/internal/wire"
)

// Search within one space (its pages) or across an organization (its spaces, each with its
// pages), over what the caller may read. The service ranks a bounded number of sections
// (search.MaxSections); the list pages over the grouped results with an offset cursor bound
// to the query.
func (s *Server) searchRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/search", s.searchSpace)
	s.handle("GET /v1/orgs/{organizationId}/search", s.searchOrganization)
}

func (s *Server) searchSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID := r.PathValue("spaceId")
	if _, err := s.Spaces.RoleOn(r.Context(), c, spaceID); err != nil {
		return err
	}
	query := r.URL.Query().Get("query")
	list := "search:space:" + spaceID + ":" + query
	page, err := s.searchPage(r, list, query)
	if err != nil {
		return err
	}
	found, err := s.Search.Search(r.Context(), []string{spaceID}, query)
	if err != nil {
		return err
	}
	var pages []search.PageResult
	if len(found) > 0 {
		pages = found[0].Pages
	}
	return writeList(s, w, list, offsetPage(pages, page), func(p search.PageResult) wire.SearchPage {
		return s.urls.FromSearchPage(spaceID, p)
	})
}

func (s *Server) searchOrganization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	views, err := s.Spaces.Readable(r.Context(), c, orgID)
	if err != nil {
		return err
	}
	query := r.URL.Query().Get("query")
	list := "search:org:" + orgID + ":" + query
	page, err := s.searchPage(r, list, query)
	if err != nil {
		return err
	}
	ids := make([]string, len(views))
	titles := make(map[string]string, len(views))
	for i, v := range views {
		ids[i], titles[v.ID] = v.ID, v.Title
	}
	found, err := s.Search.Search(r.Context(), ids, query)
	if err != nil {
		return err
	}
	return writeList(s, w, list, offsetPage(found, page), func(sp search.SpaceResult) wire.SearchSpace {
		out := wire.SearchSpace{Type: "space", ID: sp.ID, Title: titles[sp.ID], Score: sp.Score, Pages: make([]wire.SearchPage, 0, len(sp.Pages))}
		for _, p := range sp.Pages {
			out.Pages = append(out.Pages, s.urls.FromSearchPage(sp.ID, p))
		}
		return out
	})
}

// searchPage validates the query and reads the page request of a search list.
func (s *Server) searchPage(r *http.Request, list, query string) (paging.Request, error) {
	if _, err := search.Parse(query); err != nil {
		return paging.Request{}, err
	}
	return s.pageRequest(r, list)
}

// offsetPage cuts one page out of a ranked list; its cursor holds the offset of the next item.
func offsetPage[T any](items []T, req paging.Request) paging.Result[T] {
	start := 0
	if len(req.After) == 1 {
		if n, ok := req.After[0].(int64); ok && n >= 0 {
			start = int(min(n, int64(len(items))))
		}
	}
	end := min(start+req.Limit, len(items))
	res := paging.Result[T]{Items: items[start:end], Count: len(items)}
	if end < len(items) {
		res.Next = []any{end}
	}
	return res
}
