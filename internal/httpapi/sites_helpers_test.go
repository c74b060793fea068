package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
)

// sitesPath is the sites base path of the env's organization.
func sitesPath(e *apitest.Env) string { return "/v1/orgs/" + e.Org + "/sites" }

// newSite creates a site as the env's admin and returns its path.
func newSite(t testing.TB, e *apitest.Env, body map[string]any) string {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return sitesPath(e) + "/" + e.Post(e.Admin, sitesPath(e), body).Expect(201).Str("id")
}

// titledSpace creates a space with a title as the env's admin.
func titledSpace(t testing.TB, e *apitest.Env, title string) string {
	t.Helper()
	return newSpace(t, e, e.Admin, e.Org, map[string]any{"title": title})
}

// structureIDs walks a structure answer's items (and their children and site spaces) and
// returns their ids depth first, as "kind:id" for kind s (site space), c (section), g (group).
func structureIDs(r *apitest.Resp) []string {
	var out []string
	var walk func(items []any)
	walk = func(items []any) {
		for _, it := range items {
			m := it.(map[string]any)
			switch m["object"] {
			case "site-space":
				out = append(out, "s:"+m["id"].(string))
			case "site-section":
				out = append(out, "c:"+m["id"].(string))
				walk(m["siteSpaces"].([]any))
			case "site-section-group":
				out = append(out, "g:"+m["id"].(string))
				walk(m["children"].([]any))
			}
		}
	}
	v, _ := r.Get("structure")
	items, _ := v.([]any)
	walk(items)
	return out
}
