package httpapi

import (
	"net/http"

	"docsd/internal/wire"
)

// apiInformationRoutes answers which docsd this is (getApiInformation), without
// authentication: like the OpenAPI document, a client may ask before it has a token, and the
// answer is the same for every caller. "{$}" keeps the pattern to /v1/ itself rather than the
// whole tree under it.
func (s *Server) apiInformationRoutes() {
	info := wire.APIInformation{Version: s.Build.APIVersion(), Build: s.Build.DateISO()}
	s.register("GET /v1/{$}", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, info)
	}))
}
