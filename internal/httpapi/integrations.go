package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"docsd/internal/auth"
	"docsd/internal/integration"
	"docsd/internal/validate"
	"docsd/internal/wire"
)

// The integration registry: publishing, listing and reading integrations, their images and
// development mode.
func (s *Server) integrationRoutes() {
	s.handle("GET /v1/integrations", s.listIntegrations(false))
	s.handle("GET /v1/orgs/{organizationId}/integrations", s.listIntegrations(true))
	s.handle("GET /v1/integrations/{integrationName}", s.getIntegration)
	s.handle("POST /v1/integrations/{integrationName}", s.publishIntegration)
	s.handle("DELETE /v1/integrations/{integrationName}", s.unpublishIntegration)
	s.register("GET /v1/integrations/{integrationName}/images/{imageFile}", http.HandlerFunc(s.integrationImage))
	s.handle("PUT /v1/integrations/{integrationName}/dev", s.setIntegrationDev)
	s.handle("DELETE /v1/integrations/{integrationName}/dev", s.disableIntegrationDev)
	s.integrationInstallationRoutes()
	s.integrationContentRoutes()
	s.integrationEventRoutes()
	s.integrationPublicRoutes()
}

func (s *Server) integrationWire(v integration.View) wire.Integration {
	return s.urls.FromIntegration(v)
}

// integrationFilter reads the filters of listIntegrations.
func integrationFilter(r *http.Request) (integration.Filter, error) {
	var f integration.Filter
	var err error
	if f.Search, err = queryString(r, "search", 200); err != nil {
		return f, err
	}
	if f.Category, err = queryEnum(r, "category", "", integration.Categories...); err != nil {
		return f, err
	}
	if f.Scope, err = queryEnum(r, "scope", "", integration.Scopes...); err != nil {
		return f, err
	}
	if f.Target, err = queryEnum(r, "target", "", integration.Targets...); err != nil {
		return f, err
	}
	if f.Owner, err = queryString(r, "owner", 100); err != nil {
		return f, err
	}
	if f.BlockDomain, err = queryString(r, "blockDomain", 100); err != nil {
		return f, err
	}
	if f.BlockDomain != "" {
		if err := validate.Pattern("blockDomain", f.BlockDomain, integration.NamePattern); err != nil {
			return f, err
		}
	}
	if f.Blocks, err = queryBool(r, "blocks"); err != nil {
		return f, err
	}
	f.ContentSources, err = queryBool(r, "contentSources")
	return f, err
}

func (s *Server) listIntegrations(ofOrg bool) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		f, err := integrationFilter(r)
		if err != nil {
			return err
		}
		if ofOrg {
			f.OrgID = r.PathValue("organizationId")
		}
		b, _ := json.Marshal(f)
		list := "integrations/" + string(b)
		page, err := s.pageRequest(r, list)
		if err != nil {
			return err
		}
		res, err := s.Integrations.List(r.Context(), c, f, page)
		if err != nil {
			return err
		}
		return writeList(s, w, list, res, s.integrationWire)
	}
}

func (s *Server) getIntegration(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Integrations.Get(r.Context(), c, r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	return ok(w, s.integrationWire(v))
}

func (s *Server) publishIntegration(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Runtime        *string              `json:"runtime"`
		Icon           *string              `json:"icon"`
		Title          *string              `json:"title"`
		Description    *string              `json:"description"`
		Summary        *string              `json:"summary"`
		PreviewImages  *[]string            `json:"previewImages"`
		Visibility     *string              `json:"visibility"`
		Target         *string              `json:"target"`
		Scopes         *[]string            `json:"scopes"`
		Categories     *[]string            `json:"categories"`
		Blocks         *[]integration.Block `json:"blocks"`
		ContentSources json.RawMessage      `json:"contentSources"`
		ExternalLinks  json.RawMessage      `json:"externalLinks"`
		Configurations json.RawMessage      `json:"configurations"`
		Script         *string              `json:"script"`
		Organization   *string              `json:"organization"`
		Secrets        map[string]string    `json:"secrets"`
		CSP            json.RawMessage      `json:"contentSecurityPolicy"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Integrations.Publish(r.Context(), c, r.PathValue("integrationName"), integration.Publication{
		Runtime: body.Runtime, Icon: body.Icon, Title: body.Title, Description: body.Description, Summary: body.Summary,
		PreviewImages: body.PreviewImages, Visibility: body.Visibility, Target: body.Target, Scopes: body.Scopes,
		Categories: body.Categories, Blocks: body.Blocks, ContentSources: body.ContentSources,
		ExternalLinks: body.ExternalLinks, Configurations: body.Configurations, Script: body.Script,
		Organization: body.Organization, Secrets: body.Secrets, CSP: body.CSP})
	if err != nil {
		return err
	}
	return ok(w, s.integrationWire(v))
}

func (s *Server) unpublishIntegration(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	deleted, err := s.Integrations.Unpublish(r.Context(), c, r.PathValue("integrationName"))
	if err != nil {
		return err
	}
	return goneOrAbsent(w, deleted)
}

// goneOrAbsent answers a DELETE as the integration operations do: 205 when something was
// removed, 204 when there was nothing to remove.
func goneOrAbsent(w http.ResponseWriter, deleted bool) error {
	if deleted {
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
	return noContent(w)
}

// integrationImage serves an icon or preview image: as public as the addresses an integration
// shows, and immutable (its id is its content's hash).
func (s *Server) integrationImage(w http.ResponseWriter, r *http.Request) {
	img, err := s.Integrations.Image(r.Context(), r.PathValue("integrationName"), r.PathValue("imageFile"))
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	w.Header().Set("Content-Type", img.ContentType)
	w.Header().Set("Content-Length", strconv.Itoa(len(img.Data)))
	w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	_, _ = w.Write(img.Data)
}

func (s *Server) setIntegrationDev(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		TunnelURL *string `json:"tunnelUrl"`
		All       bool    `json:"all"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.TunnelURL == nil || *body.TunnelURL == "" {
		return validate.Required("tunnelUrl")
	}
	if err := s.Integrations.SetDevelopment(r.Context(), c, r.PathValue("integrationName"), *body.TunnelURL, body.All); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) disableIntegrationDev(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Integrations.SetDevelopment(r.Context(), c, r.PathValue("integrationName"), "", false); err != nil {
		return err
	}
	w.WriteHeader(http.StatusResetContent)
	return nil
}
