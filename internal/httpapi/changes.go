package httpapi

import (
	"net/http"
	"strconv"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/wire"
)

// What changed: the semantic changes a revision made over its first parent, and those a
// change request makes over its merge base.
func (s *Server) changeRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/changes", s.revisionChanges)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/changes", s.changeRequestChanges)
}

// changesLimitMax bounds `limit`; the spec's default is 10 and it states no maximum.
const changesLimitMax = 1000

func changesLimit(r *http.Request) (int, error) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return 10, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > changesLimitMax {
		return 0, apperr.Invalidf("limit: must be an integer from 0 to %d (got %q)", changesLimitMax, v)
	}
	return n, nil
}

func (s *Server) revisionChanges(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	for _, flag := range []string{"metadata", "computed"} {
		if _, err := queryBool(r, flag); err != nil {
			return err
		}
	}
	limit, err := changesLimit(r)
	if err != nil {
		return err
	}
	spaceID := r.PathValue("spaceId")
	v, rev, err := s.Content.RevisionIn(r.Context(), c, spaceID, r.PathValue("revisionId"))
	if err != nil {
		return err
	}
	from := ""
	if len(rev.Parents) > 0 {
		from = rev.Parents[0]
	}
	pages, files, err := s.Content.Diff(r.Context(), from, rev.ID)
	if err != nil {
		return err
	}
	out := s.urls.FromDiff(wire.DiffRange{SpaceID: spaceID, From: from, To: rev.ID}, pages, files, limit)
	cr, merged, err := s.ChangeRequests.MergedAs(r.Context(), rev.SpaceID, rev.ID, v.Revision)
	if err != nil {
		return err
	}
	if merged {
		w := s.urls.FromChangeRequest(cr)
		out.MergedFrom = &w
	}
	return ok(w, out)
}

func (s *Server) changeRequestChanges(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	limit, err := changesLimit(r)
	if err != nil {
		return err
	}
	spaceID := r.PathValue("spaceId")
	cr, err := s.ChangeRequests.Get(r.Context(), c, spaceID, r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	from := cr.MergeBase()
	pages, files, err := s.Content.Diff(r.Context(), from, cr.Revision)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromDiff(wire.DiffRange{SpaceID: spaceID, From: from, To: cr.Revision}, pages, files, limit))
}
