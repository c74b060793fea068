package httpapi

import (
	"encoding/json"
	"net/http"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/opt"
	"docsd/internal/wire"
)

func (s *Server) changeRequestRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/change-requests", s.listChangeRequests)
	s.handle("POST /v1/spaces/{spaceId}/change-requests", s.createChangeRequest)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}", s.getChangeRequest)
	s.handle("PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}", s.updateChangeRequest)
	s.changeRequestEditRoutes()
	s.changeRequestReviewRoutes()
	s.handle("GET /v1/orgs/{organizationId}/change-requests", s.listOrganizationChangeRequests)
}

// changeRequestFilter reads the list filters. Ids are bounded so a filter cannot carry an
// arbitrarily long string into the cursor key.
func changeRequestFilter(r *http.Request) (changereq.Filter, error) {
	var f changereq.Filter
	var err error
	if f.Status, err = queryEnum(r, "status", changereq.Open, changereq.Statuses...); err != nil {
		return f, err
	}
	for name, dst := range map[string]*string{"creator": &f.Creator, "contributor": &f.Contributor,
		"requestedReviewer": &f.RequestedReviewer, "conversationsIssuesCluster": &f.ConversationsIssuesCluster} {
		if *dst, err = queryString(r, name, 100); err != nil {
			return f, err
		}
	}
	return f, nil
}

// filterKey identifies a list and its filters, for its cursors.
type filterKey []string

func (f filterKey) String() string { return strings.Join(f, "/") }

func (s *Server) listChangeRequests(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	f, err := changeRequestFilter(r)
	if err != nil {
		return err
	}
	spaceID := r.PathValue("spaceId")
	list := filterKey{"change-requests", spaceID, f.Status, f.Creator, f.Contributor, f.RequestedReviewer,
		f.ConversationsIssuesCluster}.String()
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.ChangeRequests.List(r.Context(), c, spaceID, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromChangeRequest)
}

func (s *Server) listOrganizationChangeRequests(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	f, err := changeRequestFilter(r)
	if err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	list := filterKey{"org-change-requests", orgID, f.Status, f.Creator, f.Contributor, f.RequestedReviewer,
		f.ConversationsIssuesCluster}.String()
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.ChangeRequests.ListInOrganization(r.Context(), c, orgID, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromChangeRequest)
}

type createChangeRequestBody struct {
	Subject     *string         `json:"subject"`
	Description json.RawMessage `json:"description"`
	AgentTaskID *string         `json:"agentTaskId"`
	newerChangeRequestCreate
}

func (s *Server) createChangeRequest(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body createChangeRequestBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	if body.Subject == nil {
		return apperr.Invalidf("subject: is required (a string of at most %d characters)", changereq.SubjectMax)
	}
	if body.AgentTaskID != nil {
		// The spec lets a change request implement an agent task; docsd has none to name.
		return apperr.Invalidf("agentTaskId: agent task %q not found (this server has no agent tasks)", *body.AgentTaskID)
	}
	in := changereq.Create{Subject: *body.Subject, Description: body.Description}
	v, err := s.ChangeRequests.Create(r.Context(), c, r.PathValue("spaceId"), in)
	if err != nil {
		return err
	}
	out := s.urls.FromChangeRequest(v)
	return created(w, out.URLs.Location, out)
}

func (s *Server) getChangeRequest(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.ChangeRequests.Get(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromChangeRequest(v))
}

type updateChangeRequestBody struct {
	Subject     opt.Field[string]          `json:"subject"`
	Description opt.Field[json.RawMessage] `json:"description"`
	Status      opt.Field[string]          `json:"status"`
	newerChangeRequestPatch
}

func (s *Server) updateChangeRequest(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body updateChangeRequestBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	v, err := s.ChangeRequests.Update(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		changereq.Patch{Subject: body.Subject, Description: body.Description, Status: body.Status})
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromChangeRequest(v))
}

func (s *Server) changeRequestEditRoutes() {
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/update", s.updateChangeRequestFromHead)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/merge", s.mergeChangeRequest)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pages", s.createChangeRequestPage)
	s.handle("PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pages/{pageId}", s.updateChangeRequestPage)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pages/{pageId}", s.deleteChangeRequestPage)
}

type mergeResult struct {
	Revision string `json:"revision"`
	Result   string `json:"result"`
}

func (s *Server) updateChangeRequestFromHead(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	rev, err := s.ChangeRequests.UpdateFromHead(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	return ok(w, mergeResult{Revision: rev, Result: changereq.ResultUpdate})
}

func (s *Server) mergeChangeRequest(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	rev, err := s.ChangeRequests.Merge(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"))
	if err != nil {
		return err
	}
	return ok(w, mergeResult{Revision: rev, Result: changereq.ResultMerge})
}

type pageEditBody struct {
	Kind        string            `json:"kind"`
	Title       opt.Field[string] `json:"title"`
	Slug        opt.Field[string] `json:"slug"`
	Description opt.Field[string] `json:"description"`
	Emoji       opt.Field[string] `json:"emoji"`
	Markdown    opt.Field[string] `json:"markdown"`
	Parent      opt.Field[string] `json:"parent"`
	Position    opt.Field[int]    `json:"position"`
	Layout      json.RawMessage   `json:"layout"`
}

func (b pageEditBody) edit() changereq.PageEdit {
	return changereq.PageEdit{Kind: b.Kind, Title: b.Title, Slug: b.Slug, Description: b.Description, Emoji: b.Emoji,
		Markdown: b.Markdown, Parent: b.Parent, Position: b.Position, Layout: b.Layout}
}

// pageEditResult answers a page edit: the page and the change request's new revision.
type pageEditResult struct {
	Page     string `json:"page"`
	Revision string `json:"revision"`
}

func (s *Server) createChangeRequestPage(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body pageEditBody
	if err := decode(r, &body); err != nil {
		return err
	}
	spaceID := r.PathValue("spaceId")
	res, err := s.ChangeRequests.CreatePage(r.Context(), c, spaceID, r.PathValue("changeRequestId"), body.edit())
	if err != nil {
		return err
	}
	return created(w, s.urls.API("/spaces/"+wire.Esc(spaceID)+"/revisions/"+wire.Esc(res.Revision)+"/page/"+wire.Esc(res.PageID)),
		pageEditResult{Page: res.PageID, Revision: res.Revision})
}

func (s *Server) updateChangeRequestPage(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body pageEditBody
	if err := decode(r, &body); err != nil {
		return err
	}
	res, err := s.ChangeRequests.UpdatePage(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("pageId"), body.edit())
	if err != nil {
		return err
	}
	return ok(w, pageEditResult{Page: res.PageID, Revision: res.Revision})
}

func (s *Server) deleteChangeRequestPage(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, err := s.ChangeRequests.DeletePage(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("pageId"))
	if err != nil {
		return err
	}
	return noContent(w)
}
