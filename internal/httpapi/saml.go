package httpapi

import (
	"net/http"
	"net/url"

	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/org"
)

func (s *Server) samlRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/saml", s.listSAMLProviders)
	s.handle("POST /v1/orgs/{organizationId}/saml", s.createSAMLProvider)
	s.handle("GET /v1/orgs/{organizationId}/saml/{samlProviderId}", s.getSAMLProvider)
	s.handle("PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}", s.patchSAMLProvider)
	s.handle("DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}", s.deleteSAMLProvider)
	s.handle("GET /v1/orgs/{organizationId}/sso", s.listSSOLogins)
}

// samlBody is the body of a provider's create and update.
type samlBody struct {
	Label       opt.Field[string] `json:"label"`
	EntityID    opt.Field[string] `json:"entityID"`
	Certificate opt.Field[string] `json:"certificate"`
	SSOURL      opt.Field[string] `json:"ssoURL"`
	DefaultTeam opt.Field[string] `json:"defaultTeam"`
	DefaultRole opt.Field[string] `json:"defaultRole"`
}

func (b samlBody) input() org.SAMLInput {
	return org.SAMLInput{Label: b.Label, EntityID: b.EntityID, Certificate: b.Certificate, SSOURL: b.SSOURL,
		DefaultTeam: b.DefaultTeam, DefaultRole: b.DefaultRole}
}

func (s *Server) listSAMLProviders(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	list := "saml/" + url.PathEscape(orgID)
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.ListSAMLProviders(r.Context(), c, orgID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromSAMLProvider)
}

func (s *Server) createSAMLProvider(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body samlBody
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Orgs.CreateSAMLProvider(r.Context(), c, r.PathValue("organizationId"), body.input())
	if err != nil {
		return err
	}
	p := s.urls.FromSAMLProvider(v)
	return created(w, p.URLs.Location, p)
}

func (s *Server) getSAMLProvider(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Orgs.GetSAMLProvider(r.Context(), c, r.PathValue("organizationId"), r.PathValue("samlProviderId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromSAMLProvider(v))
}

func (s *Server) patchSAMLProvider(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body samlBody
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Orgs.UpdateSAMLProvider(r.Context(), c, r.PathValue("organizationId"), r.PathValue("samlProviderId"), body.input())
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromSAMLProvider(v))
}

func (s *Server) deleteSAMLProvider(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Orgs.DeleteSAMLProvider(r.Context(), c, r.PathValue("organizationId"), r.PathValue("samlProviderId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listSSOLogins(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	ps, err := s.Orgs.SSOLogins(r.Context(), c, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromSSOLogins(ps))
}
