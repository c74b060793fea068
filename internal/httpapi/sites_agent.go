package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/site"
	"docsd/internal/wire"
)

// A site's agent settings, and the feedback AI agents submit to it.

func (s *Server) getSiteAgentSettings(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	_, a, err := s.Sites.AgentSettings(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromSiteAgentSettings(orgID, a))
}

func (s *Server) putSiteAgentSettings(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body site.AgentSettingsInput
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	_, a, err := s.Sites.PutAgentSettings(r.Context(), c, orgID, id, body)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromSiteAgentSettings(orgID, a))
}

func (s *Server) submitAgentFeedback(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body site.FeedbackInput
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	f, err := s.Sites.SubmitFeedback(r.Context(), c, orgID, id, body)
	if err != nil {
		return err
	}
	return created(w, "", wire.AgentFeedbackReceipt{ID: f.ID, Result: wire.AgentFeedbackReceived})
}

func (s *Server) submitSiteContentFeedback(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body site.SiteContentFeedbackInput
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID, id := siteIDs(r)
	if _, err := s.Sites.SubmitSiteContentFeedback(r.Context(), c, orgID, id, body); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listAgentFeedback(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	f := site.FeedbackFilter{Kind: r.URL.Query().Get("kind"), Category: r.URL.Query().Get("category")}
	list := "site-agent-feedback/" + id + "/" + f.Kind + "/" + f.Category
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Sites.ListFeedback(r.Context(), c, orgID, id, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, wire.FromFeedback)
}
