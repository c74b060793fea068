package httpapi

import (
	"net/http"
	"net/url"
)

// publishedSiteRoutes mounts the published sites (see package sitehttp): HTML for readers,
// outside /v1 and without API tokens. Everything under a site's address is the site's; the
// handler answers its own errors.
func (s *Server) publishedSiteRoutes() {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { s.PublishedSites.ServeHTTP(w, r) })
	s.register("GET /sites/{organizationId}/{basename}", h)
	s.register("GET /sites/{organizationId}/{basename}/{path...}", h)
}

// siteHosts hands requests that arrive with a site's custom hostname to the site.
func (s *Server) siteHosts(next http.Handler) http.Handler {
	if s.PublishedSites == nil {
		return next
	}
	own := ""
	if u, err := url.Parse(s.BaseURL); err == nil {
		own = u.Host
	}
	return s.PublishedSites.Hosts(next, own)
}
