package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
)

// TestSiteRoutesRefuseOddInput sends malformed bodies and parameters to every site route with
// a body: each answers a 4xx with the error shape, never a 500, and the site is unchanged.
func TestSiteRoutesRefuseOddInput(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := titledSpace(t, e, "Guide")
	path := newSite(t, e, map[string]any{"spaces": []string{sp}})
	sec := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": sp}).Expect(201).Str("id")
	ss := e.Get(e.Admin, path+"/site-spaces").IDs()[0]
	g := e.Post(e.Admin, path+"/section-groups", map[string]any{"title": "G"}).Expect(201).Str("id")
	link := e.Post(e.Admin, path+"/share-links", map[string]any{"name": "l"}).Expect(201).Str("id")
	before := string(e.Get(e.Admin, path+"/published").Expect(200).Body)
	routes := []struct{ method, path string }{
		{"POST", sitesPath(e)}, {"PATCH", path},
		{"PATCH", path + "/structure/sort"},
		{"POST", path + "/site-spaces"}, {"PATCH", path + "/site-spaces/" + ss}, {"POST", path + "/site-spaces/" + ss + "/move"},
		{"POST", path + "/sections"}, {"PATCH", path + "/sections/" + sec}, {"POST", path + "/sections/" + sec + "/move"},
		{"POST", path + "/section-groups"}, {"PATCH", path + "/section-groups/" + g},
		{"POST", path + "/section-groups/" + g + "/sections"}, {"POST", path + "/section-groups/" + g + "/move"},
		{"POST", path + "/share-links"}, {"PATCH", path + "/share-links/" + link},
		{"PUT", path + "/adaptive-schema"}, {"PUT", path + "/customization"},
		{"PATCH", path + "/site-spaces/" + ss + "/customization"}, {"PATCH", path + "/publishing/auth"},
	}
	bodies := []string{`[]`, `"x"`, `{"position": 5}`, `{"position": {"before": "x"}}`, `{"item": []}`,
		`{"title": {"a": 1}}`, `{"jsonSchema": 7}`, `{"spaceId": ""}`, `{`, `{"styling": null}`}
	for _, rt := range routes {
		for _, b := range bodies {
			r := e.Do(e.Admin, rt.method, rt.path, b)
			if r.Status < 400 || r.Status >= 500 {
				// Some bodies are valid for some routes (an empty position moves to the end).
				if r.Status < 300 && (strings.HasSuffix(rt.path, "/move") || rt.method == "PATCH") {
					continue
				}
				t.Errorf("%s %s %s: %d %s", rt.method, rt.path, b, r.Status, r.Body)
				continue
			}
			r.ExpectError(r.Status)
		}
	}
	for _, q := range []string{"?limit=-1", "?limit=abc", "?page=x", "?default=maybe", "?shareKey=nope"} {
		for _, p := range []string{path + "/site-spaces", path + "/sections", path + "/section-groups", path + "/share-links"} {
			if r := e.Get(e.Admin, p+q); r.Status >= 500 {
				t.Errorf("GET %s%s: %d", p, q, r.Status)
			}
		}
	}
	if after := string(e.Get(e.Admin, path+"/published").Expect(200).Body); after != before {
		t.Errorf("refused input changed the site:\n%s\n%s", before, after)
	}
}
