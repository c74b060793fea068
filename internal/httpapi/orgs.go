package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/mergerules"
	"docsd/internal/opt"
	"docsd/internal/org"
	"docsd/internal/wire"
)

func (s *Server) orgRoutes() {
	s.handle("GET /v1/orgs", s.listOrgs)
	s.handle("GET /v1/orgs/{organizationId}", s.getOrg)
	s.handle("PATCH /v1/orgs/{organizationId}", s.patchOrg)
	s.handle("GET /v1/email-domains/{emailDomain}/orgs", s.listOrgsForEmailDomain)
}

func (s *Server) listOrgs(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	const list = "orgs"
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.List(r.Context(), c, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromOrganization)
}

func (s *Server) getOrg(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Orgs.Get(r.Context(), c, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromOrganization(v))
}

func (s *Server) patchOrg(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title          *string                `json:"title"`
		EmailDomains   *[]string              `json:"emailDomains"`
		Hostname       *string                `json:"hostname"`
		DefaultRole    opt.Field[*string]     `json:"defaultRole"`
		DefaultContent opt.Field[sitePointer] `json:"defaultContent"`
		Logo           opt.Field[string]      `json:"logo"`
		SSO            *bool                  `json:"sso"`
		AI             *bool                  `json:"ai"`
		InviteLinks    *bool                  `json:"inviteLinks"`
		MergeRules     *mergerules.Config     `json:"mergeRules"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	upd := org.Update{Title: body.Title, EmailDomains: body.EmailDomains, Hostname: body.Hostname,
		DefaultRole: body.DefaultRole, Logo: body.Logo, SSO: body.SSO, AI: body.AI, InviteLinks: body.InviteLinks,
		MergeRules: body.MergeRules}
	if body.DefaultContent.Set {
		if body.DefaultContent.Null {
			upd.DefaultContentSite = opt.Null[string]()
		} else {
			if err := body.DefaultContent.Value.validate("defaultContent"); err != nil {
				return err
			}
			upd.DefaultContentSite = opt.Of(body.DefaultContent.Value.Site)
		}
	}
	v, err := s.Orgs.Patch(r.Context(), c, r.PathValue("organizationId"), upd)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromOrganization(v))
}

func (s *Server) listOrgsForEmailDomain(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	me, err := s.Accounts.Me(r.Context(), c)
	if err != nil {
		return err
	}
	views, err := s.Orgs.ForEmailDomain(r.Context(), c, me, r.PathValue("emailDomain"))
	if err != nil {
		return err
	}
	out := wire.DomainOrganizations{Organizations: make([]wire.Organization, len(views))}
	for i, v := range views {
		out.Organizations[i] = s.urls.FromOrganization(v)
	}
	return ok(w, out)
}
