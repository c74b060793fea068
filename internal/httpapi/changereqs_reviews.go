package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/wire"
)

func (s *Server) changeRequestReviewRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", s.listReviews)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews", s.submitReview)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reviews/{reviewId}", s.getReview)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", s.listRequestedReviewers)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers", s.requestReviewers)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/requested-reviewers/{userId}", s.removeRequestedReviewer)
}

func (s *Server) listReviews(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	// format applies to review comments, which reviews here do not carry; it is still checked.
	if _, err := queryEnum(r, "format", "document", "document", "markdown"); err != nil {
		return err
	}
	outdated, err := queryBool(r, "outdated")
	if err != nil {
		return err
	}
	spaceID, ref := r.PathValue("spaceId"), r.PathValue("changeRequestId")
	cr, err := s.ChangeRequests.Get(r.Context(), c, spaceID, ref)
	if err != nil {
		return err
	}
	key := filterKey{"reviews", cr.ID, "all"}
	if outdated != nil {
		key[2] = map[bool]string{true: "outdated", false: "current"}[*outdated]
	}
	page, err := s.pageRequest(r, key.String())
	if err != nil {
		return err
	}
	res, err := s.ChangeRequests.ReviewsOf(r.Context(), c, spaceID, cr.ID, outdated, page)
	if err != nil {
		return err
	}
	return writeList(s, w, key.String(), res, s.urls.ReviewConverter(spaceID, cr.ID))
}

type submitReviewBody struct {
	Status  string          `json:"status"`
	Comment json.RawMessage `json:"comment"`
}

func (s *Server) submitReview(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body submitReviewBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := checkReviewComment(body.Comment); err != nil {
		return err
	}
	spaceID := r.PathValue("spaceId")
	rv, err := s.ChangeRequests.SubmitReview(r.Context(), c, spaceID, r.PathValue("changeRequestId"), body.Status)
	if err != nil {
		return err
	}
	out := s.urls.ReviewConverter(spaceID, rv.ChangeRequestID)(rv)
	return created(w, out.URLs.Location, out)
}

func (s *Server) getReview(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID := r.PathValue("spaceId")
	rv, err := s.ChangeRequests.ReviewOf(r.Context(), c, spaceID, r.PathValue("changeRequestId"), r.PathValue("reviewId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.ReviewConverter(spaceID, rv.ChangeRequestID)(rv))
}

func (s *Server) listRequestedReviewers(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	spaceID := r.PathValue("spaceId")
	cr, err := s.ChangeRequests.Get(r.Context(), c, spaceID, r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	key := filterKey{"requested-reviewers", cr.ID}.String()
	page, err := s.pageRequest(r, key)
	if err != nil {
		return err
	}
	res, err := s.ChangeRequests.RequestedReviewersOf(r.Context(), c, spaceID, cr.ID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, key, res, s.urls.FromRequestedReviewer)
}

type requestReviewersBody struct {
	Users       []string        `json:"users"`
	Subject     *string         `json:"subject"`
	Description json.RawMessage `json:"description"`
}

type requestedReviewersResult struct {
	Users []wire.ChangeRequestRequestedReviewer `json:"users"`
}

func (s *Server) requestReviewers(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body requestReviewersBody
	if err := decode(r, &body); err != nil {
		return err
	}
	res, err := s.ChangeRequests.RequestReviewers(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		changereq.ReviewRequest{Users: body.Users, Subject: body.Subject, Description: body.Description})
	if err != nil {
		return err
	}
	out := requestedReviewersResult{Users: make([]wire.ChangeRequestRequestedReviewer, 0, len(res))}
	for _, rr := range res {
		out.Users = append(out.Users, s.urls.FromRequestedReviewer(rr))
	}
	return ok(w, out)
}

// removeRequestedReviewer answers as the public spec does: 205 when a request was withdrawn,
// 204 when there was none.
func (s *Server) removeRequestedReviewer(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	removed, err := s.ChangeRequests.RemoveRequestedReviewer(r.Context(), c, r.PathValue("spaceId"),
		r.PathValue("changeRequestId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	if removed {
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
	return noContent(w)
}

// checkReviewComment accepts an absent or empty comment. Review comments would be comments of
// the change request, with their own thread; reviews here carry only their verdict, so a
// comment is refused rather than dropped.
func checkReviewComment(raw json.RawMessage) error {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return apperr.Invalidf("comment: must be an object ({markdown} or {document})")
	}
	if len(m) == 0 {
		return nil
	}
	return apperr.Invalidf("comment: review comments are not supported; post the comment on the change request instead")
}
