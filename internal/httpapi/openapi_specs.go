package httpapi

import (
	"mime"
	"net/http"
	"path"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/openapi"
)

// openAPISpecRoutes are the organization's OpenAPI specifications and their versions, and
// the published files of public ones (no token).
func (s *Server) openAPISpecRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/openapi", s.listOpenAPISpecs)
	s.handle("POST /v1/orgs/{organizationId}/openapi", s.createOpenAPISpec)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}", s.getOpenAPISpec)
	s.handle("PUT /v1/orgs/{organizationId}/openapi/{specSlug}", s.putOpenAPISpec)
	s.handle("PATCH /v1/orgs/{organizationId}/openapi/{specSlug}", s.patchOpenAPISpec)
	s.handle("DELETE /v1/orgs/{organizationId}/openapi/{specSlug}", s.deleteOpenAPISpec)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions", s.listOpenAPISpecVersions)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}", s.getOpenAPISpecVersion)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/{versionId}/content", s.getOpenAPISpecVersionContent)
	s.handle("GET /v1/orgs/{organizationId}/openapi/{specSlug}/versions/latest/content/raw", s.getLatestOpenAPISpecVersionContentRaw)
	s.register("GET /v1/openapi-published/{specId}/{file...}", http.HandlerFunc(s.publishedOpenAPIFile))
}

type openAPISourceBody struct {
	URL  *string `json:"url"`
	Text *string `json:"text"`
}

func (b *openAPISourceBody) source() (openapi.Source, error) {
	if b == nil {
		return openapi.Source{}, apperr.Invalidf("source: required, as {\"url\": ...} or {\"text\": ...}")
	}
	var src openapi.Source
	if b.URL != nil {
		src.URL = *b.URL
		if src.URL == "" {
			return src, apperr.Invalidf("source.url: must not be empty")
		}
	}
	if b.Text != nil {
		src.Text = *b.Text
		if src.Text == "" {
			return src, apperr.Invalidf("source.text: must not be empty")
		}
	}
	return src, nil
}

func (s *Server) createOpenAPISpec(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Slug   *string            `json:"slug"`
		Source *openAPISourceBody `json:"source"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Slug == nil {
		return apperr.Invalidf("slug: required")
	}
	src, err := body.Source.source()
	if err != nil {
		return err
	}
	v, err := s.OpenAPI.Create(r.Context(), c, r.PathValue("organizationId"), *body.Slug, src)
	if err != nil {
		return err
	}
	out := s.urls.FromOpenAPISpec(v)
	return created(w, out.URLs.Location, out)
}

func (s *Server) putOpenAPISpec(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Source *openAPISourceBody `json:"source"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	src, err := body.Source.source()
	if err != nil {
		return err
	}
	v, made, err := s.OpenAPI.Put(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug"), src)
	if err != nil {
		return err
	}
	out := s.urls.FromOpenAPISpec(v)
	if made {
		return created(w, out.URLs.Location, out)
	}
	return ok(w, out)
}

func (s *Server) getOpenAPISpec(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.OpenAPI.Get(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromOpenAPISpec(v))
}

func (s *Server) listOpenAPISpecs(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	list := "openapi-specs:" + orgID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.OpenAPI.List(r.Context(), c, orgID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromOpenAPISpec)
}

func (s *Server) patchOpenAPISpec(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Visibility *string `json:"visibility"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Visibility == nil {
		return apperr.Invalidf("visibility: required, %q or %q", openapi.Private, openapi.Public)
	}
	v, err := s.OpenAPI.SetVisibility(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug"), *body.Visibility)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromOpenAPISpec(v))
}

func (s *Server) deleteOpenAPISpec(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.OpenAPI.Delete(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listOpenAPISpecVersions(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, slug := r.PathValue("organizationId"), r.PathValue("specSlug")
	list := "openapi-versions:" + orgID + ":" + slug
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	sp, res, err := s.OpenAPI.Versions(r.Context(), c, orgID, slug, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.OpenAPIVersionConverter(sp))
}

// getOpenAPISpecVersion answers a version by id, or the latest for "latest"
// (getLatestOpenAPISpecVersion shares the pattern).
func (s *Server) getOpenAPISpecVersion(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sp, v, err := s.OpenAPI.Version(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.OpenAPIVersionConverter(sp)(v))
}

func (s *Server) getOpenAPISpecVersionContent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	sp, v, err := s.OpenAPI.Version(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug"), r.PathValue("versionId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromOpenAPIContent(sp, v))
}

// getLatestOpenAPISpecVersionContentRaw answers the latest version's entry file as it was
// fetched or given, and whether it is JSON or YAML (the newest spec's OpenAPISpecRawContent).
func (s *Server) getLatestOpenAPISpecVersionContentRaw(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, v, err := s.OpenAPI.Version(r.Context(), c, r.PathValue("organizationId"), r.PathValue("specSlug"), "latest")
	if err != nil {
		return err
	}
	text := v.Files[v.Entry]
	format := "yaml"
	if strings.HasPrefix(strings.TrimLeft(text, " \t\r\n\ufeff"), "{") {
		format = "json"
	}
	return ok(w, map[string]string{"text": text, "format": format})
}

// publishedOpenAPIFile serves a file of a public spec's latest version as it was fetched:
// the entry at the folder's URL, the files it references beside it. A private spec is 404.
func (s *Server) publishedOpenAPIFile(w http.ResponseWriter, r *http.Request) {
	_, v, err := s.OpenAPI.Published(r.Context(), r.PathValue("specId"))
	if err != nil {
		writeError(w, r, s.log, err)
		return
	}
	name := r.PathValue("file")
	if name == "" {
		name = v.Entry
	}
	text, found := v.Files[name]
	if !found {
		writeError(w, r, s.log, apperr.NotFoundf("file %s not found in the specification", name))
		return
	}
	ct := "application/yaml; charset=utf-8"
	if strings.HasPrefix(strings.TrimLeft(text, " \t\r\n\ufeff"), "{") {
		ct = "application/json; charset=utf-8"
	} else if t := mime.TypeByExtension(path.Ext(name)); strings.HasPrefix(t, "application/json") {
		ct = t
	}
	w.Header().Set("Content-Type", ct)
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte(text))
}
