package httpapi

import (
	"net/http"
	"strconv"
	"strings"

	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/site"
	"docsd/internal/validate"
)

// siteRoutes registers the site API: sites, their structure (site spaces, sections, section
// groups), share links, adaptive schema, customization and visitor-auth settings.
func (s *Server) siteRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/sites", s.listSites)
	s.handle("POST /v1/orgs/{organizationId}/sites", s.createSite)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}", s.getSite)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}", s.patchSite)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}", s.deleteSite)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/publish", s.publishSite(true))
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/unpublish", s.publishSite(false))
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/published", s.getPublishedSite)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/structure", s.getSiteStructure)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/structure/sort", s.sortSiteStructure)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", s.listSiteSpaces)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces", s.addSiteSpace)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", s.patchSiteSpace)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}", s.deleteSiteSpace)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/move", s.moveSiteSpace)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/sections", s.listSiteSections)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/sections", s.addSiteSection)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", s.patchSiteSection)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}", s.deleteSiteSection)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/sections/{siteSectionId}/move", s.moveSiteSection)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/section-groups", s.listSiteSectionGroups)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups", s.addSiteSectionGroup)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", s.patchSiteSectionGroup)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}", s.deleteSiteSectionGroup)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections", s.addSectionToGroup)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/sections/{siteSectionId}", s.removeSectionFromGroup)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/section-groups/{siteSectionGroupId}/move", s.moveSiteSectionGroup)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/share-links", s.listShareLinks)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/share-links", s.createShareLink)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", s.patchShareLink)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}/share-links/{shareLinkId}", s.deleteShareLink)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", s.getAdaptiveSchema)
	s.handle("PUT /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema", s.putAdaptiveSchema)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema/template-conditions", s.listTemplateConditions)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/customization", s.getSiteCustomization)
	s.handle("PUT /v1/orgs/{organizationId}/sites/{siteId}/customization", s.putSiteCustomization)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", s.getSiteSpaceCustomization)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", s.patchSiteSpaceCustomization)
	s.handle("DELETE /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization", s.deleteSiteSpaceCustomization)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", s.getPublishingAuth)
	s.handle("PATCH /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth", s.patchPublishingAuth)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/publishing/auth/regenerate", s.regeneratePublishingAuth)

	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/agent-settings", s.getSiteAgentSettings)
	s.handle("PUT /v1/orgs/{organizationId}/sites/{siteId}/agent-settings", s.putSiteAgentSettings)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/agents/feedback", s.submitAgentFeedback)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/agents/feedback", s.listAgentFeedback)
	s.handle("POST /v1/orgs/{organizationId}/sites/{siteId}/agent-feedback", s.submitSiteContentFeedback)
}

// siteIDs are the organization and site of a request.
func siteIDs(r *http.Request) (string, string) {
	return r.PathValue("organizationId"), r.PathValue("siteId")
}

func (s *Server) listSites(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	published, err := queryBool(r, "published")
	if err != nil {
		return err
	}
	f := site.Filter{Space: r.URL.Query().Get("space"), Title: r.URL.Query().Get("title"), Published: published,
		Types: queryList(r, "type")}
	pub := ""
	if published != nil {
		pub = strconv.FormatBool(*published)
	}
	list := "sites/" + orgID + "/" + f.Space + "/" + f.Title + "/" + pub + "/" + strings.Join(f.Types, ",")
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Sites.List(r.Context(), c, orgID, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.siteWire)
}

func (s *Server) createSite(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Type       *string  `json:"type"`
		Title      *string  `json:"title"`
		Visibility *string  `json:"visibility"`
		Spaces     []string `json:"spaces"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	v, err := s.Sites.Create(r.Context(), c, orgID, site.NewSite{Type: body.Type, Title: body.Title,
		Visibility: body.Visibility, Spaces: body.Spaces})
	if err != nil {
		return err
	}
	return created(w, s.urls.SiteLocation(orgID, v.ID), s.siteWire(v))
}

func (s *Server) getSite(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	v, err := s.Sites.Get(r.Context(), c, orgID, id)
	if err != nil {
		return err
	}
	return ok(w, s.siteWire(v))
}

func (s *Server) patchSite(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		newerSitePatch
		Title           *string           `json:"title"`
		Visibility      *string           `json:"visibility"`
		Basename        *string           `json:"basename"`
		Hostname        opt.Field[string] `json:"hostname"`
		AdaptiveContent *struct {
			Enabled *bool `json:"enabled"`
		} `json:"adaptiveContent"`
		AgentsContext      *string           `json:"agentsContext"`
		DefaultSiteSpace   *string           `json:"defaultSiteSpace"`
		DefaultSiteSection *string           `json:"defaultSiteSection"`
		Proxy              opt.Field[string] `json:"proxy"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.check(); err != nil {
		return err
	}
	u := site.Update{Title: body.Title, Visibility: body.Visibility, Basename: body.Basename, Hostname: body.Hostname,
		AgentsContext: body.AgentsContext, DefaultSiteSpace: body.DefaultSiteSpace,
		DefaultSiteSection: body.DefaultSiteSection, Proxy: body.Proxy}
	if body.AdaptiveContent != nil {
		if body.AdaptiveContent.Enabled == nil {
			return validate.Required("adaptiveContent.enabled")
		}
		u.AdaptiveContent = body.AdaptiveContent.Enabled
	}
	orgID, id := siteIDs(r)
	v, err := s.Sites.Patch(r.Context(), c, orgID, id, u)
	if err != nil {
		return err
	}
	return ok(w, s.siteWire(v))
}

func (s *Server) deleteSite(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, id := siteIDs(r)
	if err := s.Sites.Delete(r.Context(), c, orgID, id); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) publishSite(published bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		orgID, id := siteIDs(r)
		v, err := s.Sites.SetPublished(r.Context(), c, orgID, id, published)
		if err != nil {
			return err
		}
		return ok(w, s.siteWire(v))
	}
}
