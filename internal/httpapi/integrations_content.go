package httpapi

import (
	"encoding/json"
	"net/http"
	"slices"

	"docsd/internal/auth"
	"docsd/internal/integration"
	"docsd/internal/wire"
)

// Installations on spaces and sites, and the integrations a space or site has.
func (s *Server) integrationContentRoutes() {
	s.handle("GET /v1/integrations/{integrationName}/spaces", s.listIntegrationContent(integration.SpaceKind))
	s.handle("GET /v1/integrations/{integrationName}/sites", s.listIntegrationContent(integration.SiteKind))
	s.handle("GET /v1/integrations/{integrationName}/installations/{installationId}/spaces", s.listInstallationContent(integration.SpaceKind))
	s.handle("POST /v1/integrations/{integrationName}/installations/{installationId}/spaces", s.installOnContent(integration.SpaceKind))
	s.handle("GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", s.getContentInstallation(integration.SpaceKind))
	s.handle("PATCH /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", s.updateContentInstallation(integration.SpaceKind))
	s.handle("DELETE /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}", s.uninstallFromContent(integration.SpaceKind))
	s.handle("GET /v1/integrations/{integrationName}/installations/{installationId}/sites", s.listInstallationContent(integration.SiteKind))
	s.handle("POST /v1/integrations/{integrationName}/installations/{installationId}/sites", s.installOnContent(integration.SiteKind))
	s.handle("GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", s.getContentInstallation(integration.SiteKind))
	s.handle("PATCH /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", s.updateContentInstallation(integration.SiteKind))
	s.handle("DELETE /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}", s.uninstallFromContent(integration.SiteKind))
	s.handle("GET /v1/spaces/{spaceId}/integrations", s.listSpaceIntegrations)
	s.handle("GET /v1/spaces/{spaceId}/integration-blocks", s.listSpaceIntegrationBlocks)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/integrations", s.listSiteIntegrations)
	s.handle("GET /v1/orgs/{organizationId}/sites/{siteId}/integration-scripts", s.listSiteIntegrationScripts)
}

func contentTargetParam(kind integration.Kind) string {
	if kind == integration.SpaceKind {
		return "spaceId"
	}
	return "siteId"
}

// contentWire converts a space or site installation; with extended, the space or site object as
// the caller sees it takes the place of its id.
func (s *Server) contentWire(r *http.Request, c auth.Caller, extended bool) func(integration.ContentInstallation) (wire.ContentInstallation, error) {
	return func(ci integration.ContentInstallation) (wire.ContentInstallation, error) {
		var target any = ci.TargetID
		if extended && c.Installation == nil {
			switch ci.Kind {
			case integration.SpaceKind:
				v, err := s.Spaces.Get(r.Context(), c, ci.TargetID)
				if err != nil {
					return wire.ContentInstallation{}, err
				}
				target = s.urls.FromSpace(v)
			case integration.SiteKind:
				v, err := s.Sites.Get(r.Context(), c, ci.OrgID, ci.TargetID)
				if err != nil {
					return wire.ContentInstallation{}, err
				}
				target = s.siteWire(v)
			}
		}
		return s.urls.FromContentInstallation(ci, target), nil
	}
}

func (s *Server) listIntegrationContent(kind integration.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		ext, err := queryString(r, "externalId", 256)
		if err != nil {
			return err
		}
		extended, err := queryBool(r, "extended")
		if err != nil {
			return err
		}
		name := r.PathValue("integrationName")
		list := "integration-" + string(kind) + "s/" + name + "/" + ext
		page, err := s.pageRequest(r, list)
		if err != nil {
			return err
		}
		res, err := s.Integrations.ListIntegrationContentInstallations(r.Context(), c, name, kind, ext, page)
		if err != nil {
			return err
		}
		return s.writeContentList(w, r, c, list, extended != nil && *extended, res.Items, res.Count, res.Next)
	}
}

func (s *Server) writeContentList(w http.ResponseWriter, r *http.Request, c auth.Caller, list string, extended bool,
	items []integration.ContentInstallation, count int, next []any) error {
	conv := s.contentWire(r, c, extended)
	out := wire.List[wire.ContentInstallation]{Count: count, Items: make([]wire.ContentInstallation, 0, len(items))}
	for _, ci := range items {
		v, err := conv(ci)
		if err != nil {
			return err
		}
		out.Items = append(out.Items, v)
	}
	if next != nil {
		out.Next = &wire.Next{Page: s.Cursors.Encode(list, next)}
	}
	return ok(w, out)
}

func (s *Server) listInstallationContent(kind integration.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		extended, err := queryBool(r, "extended")
		if err != nil {
			return err
		}
		name, id := installationIDs(r)
		list := "installation-" + string(kind) + "s/" + id
		page, err := s.pageRequest(r, list)
		if err != nil {
			return err
		}
		res, err := s.Integrations.ListContentInstallations(r.Context(), c, name, id, kind, page)
		if err != nil {
			return err
		}
		return s.writeContentList(w, r, c, list, extended != nil && *extended, res.Items, res.Count, res.Next)
	}
}

func (s *Server) installOnContent(kind integration.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		extended, err := queryBool(r, "extended")
		if err != nil {
			return err
		}
		var body struct {
			Space  string `json:"space"`
			SiteID string `json:"siteId"`
		}
		if err := decode(r, &body); err != nil {
			return err
		}
		target := body.Space
		if kind == integration.SiteKind {
			target = body.SiteID
		}
		name, id := installationIDs(r)
		ci, err := s.Integrations.InstallOn(r.Context(), c, name, id, kind, target)
		if err != nil {
			return err
		}
		out, err := s.contentWire(r, c, extended != nil && *extended)(ci)
		if err != nil {
			return err
		}
		return created(w, out.URLs.Location, out)
	}
}

func (s *Server) getContentInstallation(kind integration.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		extended, err := queryBool(r, "extended")
		if err != nil {
			return err
		}
		name, id := installationIDs(r)
		ci, err := s.Integrations.GetContentInstallation(r.Context(), c, name, id, kind, r.PathValue(contentTargetParam(kind)))
		if err != nil {
			return err
		}
		return s.writeContentInstallation(w, r, c, extended, ci)
	}
}

func (s *Server) updateContentInstallation(kind integration.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		extended, err := queryBool(r, "extended")
		if err != nil {
			return err
		}
		var body struct {
			ExternalIDs   *[]string       `json:"externalIds"`
			Configuration json.RawMessage `json:"configuration"`
		}
		if err := decode(r, &body); err != nil {
			return err
		}
		name, id := installationIDs(r)
		ci, err := s.Integrations.UpdateContentInstallation(r.Context(), c, name, id, kind, r.PathValue(contentTargetParam(kind)),
			integration.ContentUpdate{ExternalIDs: body.ExternalIDs, Configuration: body.Configuration})
		if err != nil {
			return err
		}
		return s.writeContentInstallation(w, r, c, extended, ci)
	}
}

// writeContentInstallation answers a space or site installation, extended when the request's
// `extended` (read and checked before anything was done) asks for it.
func (s *Server) writeContentInstallation(w http.ResponseWriter, r *http.Request, c auth.Caller, extended *bool, ci integration.ContentInstallation) error {
	out, err := s.contentWire(r, c, extended != nil && *extended)(ci)
	if err != nil {
		return err
	}
	return ok(w, out)
}

func (s *Server) uninstallFromContent(kind integration.Kind) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		name, id := installationIDs(r)
		deleted, err := s.Integrations.UninstallFrom(r.Context(), c, name, id, kind, r.PathValue(contentTargetParam(kind)))
		if err != nil {
			return err
		}
		return goneOrAbsent(w, deleted)
	}
}

func (s *Server) listSpaceIntegrations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	search, err := queryString(r, "search", 200)
	if err != nil {
		return err
	}
	vs, err := s.Integrations.SpaceIntegrations(r.Context(), c, r.PathValue("spaceId"), search)
	if err != nil {
		return err
	}
	return integrationList(w, vs, s.integrationWire)
}

type integrationBlocks struct {
	Name   string              `json:"name"`
	Blocks []integration.Block `json:"blocks"`
}

func (s *Server) listSpaceIntegrationBlocks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	vs, err := s.Integrations.SpaceIntegrations(r.Context(), c, r.PathValue("spaceId"), "")
	if err != nil {
		return err
	}
	out := []integrationBlocks{}
	for _, v := range vs {
		if len(v.Manifest.Blocks) > 0 {
			out = append(out, integrationBlocks{Name: v.Name, Blocks: v.Manifest.Blocks})
		}
	}
	return ok(w, out)
}

func (s *Server) listSiteIntegrations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	search, err := queryString(r, "search", 200)
	if err != nil {
		return err
	}
	vs, err := s.Integrations.SiteIntegrations(r.Context(), c, r.PathValue("organizationId"), r.PathValue("siteId"), search)
	if err != nil {
		return err
	}
	return integrationList(w, vs, s.integrationWire)
}

type siteIntegrationScript struct {
	Script                string `json:"script"`
	ContentSecurityPolicy string `json:"contentSecurityPolicy,omitempty"`
	Cookies               bool   `json:"cookies"`
}

// listSiteIntegrationScripts lists the scripts installations inject into a published site; each
// is served at its installation's public endpoint once the integration runtime runs them.
func (s *Server) listSiteIntegrationScripts(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	siteID := r.PathValue("siteId")
	scripts, err := s.Integrations.SiteScripts(r.Context(), c, r.PathValue("organizationId"), siteID)
	if err != nil {
		return err
	}
	out := []siteIntegrationScript{}
	for _, sc := range scripts {
		out = append(out, siteIntegrationScript{
			Script:                s.urls.InstallationLocation(sc.Integration.Name, sc.Installation.ID) + "/sites/" + wire.Esc(siteID) + "/script.js",
			ContentSecurityPolicy: integration.CSPHeader(sc.Integration.Manifest.CSP), Cookies: sc.Cookies})
	}
	slices.SortFunc(out, func(a, b siteIntegrationScript) int {
		if a.Script < b.Script {
			return -1
		}
		return 1
	})
	return ok(w, out)
}
