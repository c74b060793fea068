package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/org"
)

// People around content: who changed a change request, who commented in it or in a space.
func (s *Server) peopleRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/contributors", s.listContributors)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/commenters", s.listChangeRequestCommenters)
	s.handle("GET /v1/spaces/{spaceId}/commenters", s.listSpaceCommenters)
}

func (s *Server) listContributors(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID, ref := r.PathValue("spaceId"), r.PathValue("changeRequestId")
	list := "contributors/" + spaceID + "/" + ref
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.ChangeRequests.Contributors(r.Context(), c, spaceID, ref, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromContributor)
}

func (s *Server) listChangeRequestCommenters(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID, ref := r.PathValue("spaceId"), r.PathValue("changeRequestId")
	list := "commenters/" + spaceID + "/" + ref
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	cr, err := s.ChangeRequests.Get(r.Context(), c, spaceID, ref)
	if err != nil {
		return err
	}
	res, err := s.Orgs.Commenters(r.Context(), cr.OrganizationID, org.CommentScope{SpaceID: spaceID, ChangeRequestID: cr.ID}, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromMember)
}

func (s *Server) listSpaceCommenters(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID := r.PathValue("spaceId")
	list := "commenters/" + spaceID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	v, err := s.Spaces.Get(r.Context(), c, spaceID)
	if err != nil {
		return err
	}
	res, err := s.Orgs.Commenters(r.Context(), v.OrganizationID, org.CommentScope{SpaceID: spaceID}, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromMember)
}
