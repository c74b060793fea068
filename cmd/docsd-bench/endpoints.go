package main

import (
	"fmt"
	"net/url"
	"strings"
)

// fixture is what the benchmark's data directory holds, for building request paths.
type fixture struct {
	OrgID string
}

// endpoint is one operation the benchmark measures, always with a valid token.
type endpoint struct {
	Name  string // as given to -endpoints
	Route string // as documented
	Path  func(fixture) string
}

// endpoints lists what the benchmark can measure; later work adds its operations here.
var endpoints = []endpoint{
	{Name: "org", Route: "GET /v1/orgs/{organizationId}",
		Path: func(f fixture) string { return "/v1/orgs/" + url.PathEscape(f.OrgID) }},
	{Name: "members", Route: "GET /v1/orgs/{organizationId}/members",
		Path: func(f fixture) string { return "/v1/orgs/" + url.PathEscape(f.OrgID) + "/members" }},
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
