package main

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// fixture is what the benchmark's data directory holds, for building request paths.
type fixture struct {
	OrgID    string
	SpaceID  string // a space of benchPages pages, published as a public site
	PageID   string // one of its pages
	SitePath string // the site's published path, ending in "/"
}

// endpoint is one operation the benchmark measures, always with a valid token.
type endpoint struct {
	Name   string // as given to -endpoints
	Route  string // as documented
	Path   func(fixture) string
	Method string // empty for GET
	Body   string // the request's JSON body, for a write
	// Unique gives every request its own URL (a query parameter docsd ignores), so docsd's
	// answer cache never serves it: the read is computed every time.
	Unique bool
	// AnyLength accepts answers of any length (a write's answer holds its time).
	AnyLength bool
	// Goals, besides the general ones (report.go): docsd's server CPU per request over the
	// bare handler's, at most; and docsd's requests/s, at least. Zero for none.
	MaxCPURatio float64
	MinRate     float64
}

// method is the endpoint's HTTP method.
func (e endpoint) method() string {
	if e.Method == "" {
		return http.MethodGet
	}
	return e.Method
}

// endpoints lists what the benchmark can measure; later work adds its operations here.
var endpoints = []endpoint{
	{Name: "org", Route: "GET /v1/orgs/{organizationId}",
		Path: func(f fixture) string { return "/v1/orgs/" + url.PathEscape(f.OrgID) }},
	{Name: "members", Route: "GET /v1/orgs/{organizationId}/members",
		Path: func(f fixture) string { return "/v1/orgs/" + url.PathEscape(f.OrgID) + "/members" }},
	{Name: "page-uncached", Route: "GET /v1/spaces/{spaceId}/content/page/{pageId} (answer cache missed)", Unique: true, MaxCPURatio: 3,
		Path: pagePath},
	{Name: "page", Route: "GET /v1/spaces/{spaceId}/content/page/{pageId} (answer cache)", Path: pagePath},
	{Name: "published", Route: "GET /sites/{organizationId}/{basename}/{path} (a published page)", MaxCPURatio: 3, MinRate: 10_000,
		Path: func(f fixture) string { return f.SitePath + benchPagePath }},
	{Name: "patch", Route: "PATCH /v1/spaces/{spaceId} (title)", Method: http.MethodPatch, Body: `{"title":"Bench space"}`,
		AnyLength: true, MaxCPURatio: 10,
		Path: func(f fixture) string { return "/v1/spaces/" + url.PathEscape(f.SpaceID) }},
}

func pagePath(f fixture) string {
	return "/v1/spaces/" + url.PathEscape(f.SpaceID) + "/content/page/" + url.PathEscape(f.PageID)
}

// selectEndpoints returns the endpoints named in a comma-separated list ("all" for every one).
func selectEndpoints(names string) ([]endpoint, error) {
	if names == "all" {
		return endpoints, nil
	}
	var out []endpoint
	for _, name := range strings.Split(names, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, e := range endpoints {
			if e.Name == name {
				out, found = append(out, e), true
			}
		}
		if !found {
			var known []string
			for _, e := range endpoints {
				known = append(known, e.Name)
			}
			return nil, fmt.Errorf("-endpoints: unknown endpoint %q (known: %s, or all)", name, strings.Join(known, ", "))
		}
	}
	return out, nil
}
