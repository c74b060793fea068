package httpapi

import (
	"net/http"

	"docsd/api"
	"docsd/internal/apperr"
)

// openAPIRoutes serves docsd's own OpenAPI document, without authentication: a client needs
// it before it has a token.
func (s *Server) openAPIRoutes() {
	if _, err := api.JSON(); err != nil && s.log != nil {
		s.log.Error("the embedded OpenAPI document does not convert to JSON", "err", err)
	}
	s.register("GET /v1/openapi.json", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		doc, err := api.JSON()
		if err != nil {
			// The document is embedded and checked by the tests; this is a broken build.
			writeError(w, r, s.log, apperr.New(apperr.Internal, "the OpenAPI document does not convert to JSON"))
			return
		}
		writeDocument(w, "application/json; charset=utf-8", doc)
	}))
	s.register("GET /v1/openapi.yaml", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeDocument(w, "application/yaml; charset=utf-8", api.YAML)
	}))
}

func writeDocument(w http.ResponseWriter, contentType string, doc []byte) {
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "public, max-age=300")
	w.WriteHeader(http.StatusOK)
	w.Write(doc)
}
