package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/integration"
	"docsd/internal/jsrun"
)

func (s *Server) integrationPublicRoutes() {
	// urls.publicEndpoint of integrations and installations: what an integration behind GitBook
	// receives there (OAuth callbacks, incoming webhooks, slash commands) becomes a fetch event
	// answered by its script. Public: the script checks its callers itself.
	s.register("GET /v1/integrations/{integrationName}/public", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/public", http.HandlerFunc(s.integrationPublic))
	s.register("GET /v1/integrations/{integrationName}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	s.register("GET /v1/integrations/{integrationName}/installations/{installationId}/public", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/installations/{installationId}/public", http.HandlerFunc(s.integrationPublic))
	s.register("GET /v1/integrations/{integrationName}/installations/{installationId}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/installations/{installationId}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	// ... and of space and site installations (urls.publicEndpoint of each).
	s.register("GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public", http.HandlerFunc(s.integrationPublic))
	s.register("GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	s.register("GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public", http.HandlerFunc(s.integrationPublic))
	s.register("GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public/{path...}", http.HandlerFunc(s.integrationPublic))
	s.register("POST /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public/{path...}", http.HandlerFunc(s.integrationPublic))
}

// PublicEndpointBodyBytes bounds the body of a request to a public endpoint, which the script
// receives whole.
const PublicEndpointBodyBytes = 5 << 20

// publicAnswerHeadersDropped are headers of the script's answer that describe one hop or that
// the server sets itself.
var publicAnswerHeadersDropped = map[string]bool{"Connection": true, "Keep-Alive": true, "Transfer-Encoding": true,
	"Upgrade": true, "Trailer": true, "Content-Length": true}

// integrationPublic dispatches a request to a public endpoint to the script as a fetch event
// and answers what the script answered.
func (s *Server) integrationPublic(w http.ResponseWriter, r *http.Request) {
	if err := s.servePublicEndpoint(w, r); err != nil {
		writeError(w, r, s.log, err)
	}
}

func (s *Server) servePublicEndpoint(w http.ResponseWriter, r *http.Request) error {
	if s.Integrations == nil || s.IntegrationScripts == nil {
		return apperr.New(apperr.Unavailable, "integration scripts do not run on this server")
	}
	var body []byte
	if r.Method == http.MethodPost {
		b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, PublicEndpointBodyBytes))
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return apperr.New(apperr.TooLarge, "body: at most %d bytes", PublicEndpointBodyBytes)
		} else if err != nil {
			return apperr.Invalidf("body: could not be read: %v", err)
		}
		body = b
	}
	kind, target := integration.SpaceKind, r.PathValue("spaceId")
	if target == "" {
		kind, target = integration.SiteKind, r.PathValue("siteId")
	}
	d, err := s.Integrations.FetchEvent(r.Context(), r.PathValue("integrationName"), r.PathValue("installationId"), kind, target, integration.FetchRequest{
		Method: r.Method, URL: strings.TrimRight(s.urls.Base, "/") + r.URL.RequestURI(), Headers: r.Header})
	if err != nil {
		return err
	}
	res, err := s.IntegrationScripts.Fetch(r.Context(), d, body)
	if err != nil {
		return err
	}
	writeScriptAnswer(w, res)
	return nil
}

// writeScriptAnswer writes a script's answer as it is, in a sandbox: the answer is served from
// docsd's own origin, so a page the script returns (an OAuth callback's "you may close this
// window") runs as an opaque origin that cannot read what docsd's pages keep.
func writeScriptAnswer(w http.ResponseWriter, res *jsrun.Response) {
	h := w.Header()
	for k, v := range res.Headers {
		if !publicAnswerHeadersDropped[http.CanonicalHeaderKey(k)] {
			h[http.CanonicalHeaderKey(k)] = v
		}
	}
	h.Add("Content-Security-Policy", "sandbox allow-scripts allow-forms allow-popups")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(res.Body)))
	status := res.Status
	if status < 200 || status > 599 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(res.Body)
}
