package httpapi_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"docsd/internal/apispec"
	"docsd/internal/apitest"
)

// TestNewestRequestFieldsAccepted walks the request bodies of the newest pinned GitBook spec
// (apispec.NewestVersion): for every operation api/openapi.yaml also serves (same method and
// path), each property the newest spec defines is sent alone, as null, to a real object; the
// answer must not refuse it as an unknown field. A bump of NewestVersion that brings new
// request fields fails here until they are accepted (see x-docsd-accepted-unused in
// api/openapi.yaml for those docsd accepts without acting on them).
//
// A body of only an unknown probe field is sent first: an operation whose answer does not
// name the probe never reached the strict decoder, so its properties could not be judged, and
// that fails too (rather than passing without a check).
func TestNewestRequestFieldsAccepted(t *testing.T) {
	if _, err := apispec.Public(apispec.NewestVersion); err != nil {
		t.Fatalf("spec %s: %v", apispec.NewestVersion, err)
	}
	path, err := apispec.SpecPath(apispec.NewestVersion)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var newest openAPIDoc
	if err := json.Unmarshal(raw, &newest); err != nil {
		t.Fatalf("spec %s: %v", apispec.NewestVersion, err)
	}
	nf := &fuzzer{t: t, doc: newest}
	newestOps := map[string]*fuzzOp{}
	for _, op := range nf.operations() {
		newestOps[op.method+" "+templateShape(strings.TrimPrefix(op.path, "{host}"))] = op
	}

	e := apitest.New(t)
	f := &fuzzer{t: t, e: e, rng: rand.New(rand.NewPCG(1, 2)), doc: loadOpenAPI(t),
		client: &http.Client{Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	f.ops = f.operations()
	f.setUp()
	// Destructive operations last, so that the others still find the fixtures.
	sort.SliceStable(f.ops, func(i, j int) bool { return !f.ops[i].destructive() && f.ops[j].destructive() })

	checked := 0
	for _, op := range f.ops {
		if op.body == nil {
			continue
		}
		if reason, ok := schemaBodies[op.key()]; ok {
			t.Logf("%s: not walked: %s", op.key(), reason)
			continue
		}
		nop := newestOps[op.method+" "+templateShape(op.path)]
		if nop == nil || nop.body == nil {
			continue
		}
		props := map[string]bool{}
		nf.properties(nop.body, props, 0)
		if len(props) == 0 {
			continue
		}
		target := op.path
		for _, p := range op.params {
			if in, _ := p["in"].(string); in == "path" {
				name, _ := p["name"].(string)
				v := "none"
				if vs := f.real[name]; len(vs) > 0 {
					v = vs[0]
				}
				if name == "path" || name == "pagePath" {
					v = escapePathKeepSlash(v)
				} else {
					v = url.PathEscape(v)
				}
				target = strings.Replace(target, "{"+name+"}", v, 1)
			}
		}
		probe := func(field string) (int, string) {
			status, body, err := f.send(fuzzRequest{method: op.method, target: target, contentType: "application/json",
				body: []byte(`{"` + field + `":null}`), actor: e.Admin})
			if err != nil {
				t.Fatalf("%s %s: %v", op.method, target, err)
			}
			return status, string(body)
		}
		const probeField = "zzDocsdProbe"
		if status, body := probe(probeField); status != 400 || !strings.Contains(body, probeField+": unknown field") {
			t.Errorf("%s: a body with an unknown field did not reach the decoder (%d %s): its fields cannot be judged", op.key(), status, body)
			continue
		}
		ours := map[string]bool{}
		f.properties(op.body, ours, 0)
		names := make([]string, 0, len(props))
		for p := range props {
			names = append(names, p)
		}
		sort.Strings(names)
		for _, p := range names {
			if status, body := probe(p); status == 400 && strings.Contains(body, p+": unknown field") {
				t.Errorf("%s: %s (defined by %s) is refused as unknown", op.key(), p, apispec.NewestVersion)
			}
			if !ours[p] && !refusedByChoice[op.key()+" "+p] {
				t.Errorf("%s: %s (defined by %s) is not in api/openapi.yaml's request schema", op.key(), p, apispec.NewestVersion)
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d properties checked: the walk lost its operations", checked)
	}
	t.Logf("%d properties of %s checked", checked, apispec.NewestVersion)
}

// schemaBodies are the operations whose bodies are not read by the strict decoder, with why.
var schemaBodies = map[string]string{
	"PUT /v1/orgs/{organizationId}/sites/{siteId}/customization":                             "the body is judged whole by the customization schema, which requires every section",
	"PATCH /v1/orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization": "the body is a set of overrides merged onto the site's customization",
}

// refusedByChoice are newer fields the server reads and refuses with a 400 that says why
// (api/openapi.yaml describes it on the operation), so our document does not list them.
var refusedByChoice = map[string]bool{
	"POST /v1/orgs/{organizationId}/link-invites level":             true, // space and collection invites: not made
	"POST /v1/orgs/{organizationId}/link-invites space":             true,
	"POST /v1/orgs/{organizationId}/link-invites collection":        true,
	"PATCH /v1/orgs/{organizationId}/link-invites/{inviteId} level": true,
	"POST /v1/orgs/{organizationId}/spaces template":                true, // a new space is empty
	"POST /v1/orgs/{organizationId}/spaces computedSource":          true,
}

// templateShape replaces a path template's parameter names, which the documents spell
// differently, by {}.
func templateShape(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			segs[i] = "{}"
		}
	}
	return strings.Join(segs, "/")
}

// properties gathers the top-level property names of a body schema, through allOf, oneOf
// and anyOf.
func (f *fuzzer) properties(schema map[string]any, into map[string]bool, depth int) {
	if depth > 10 {
		return
	}
	schema = f.resolve(schema)
	if ps, ok := schema["properties"].(map[string]any); ok {
		for name := range ps {
			into[name] = true
		}
	}
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		list, _ := schema[k].([]any)
		for _, v := range list {
			if m, ok := v.(map[string]any); ok {
				f.properties(m, into, depth+1)
			}
		}
	}
}

// TestNewerRequestFieldsChecked sends each request field docsd accepts from the newer GitBook
// API without acting on it (x-docsd-accepted-unused in api/openapi.yaml): a well-formed value
// is taken (2xx) and a malformed one is refused with 400 naming the field.
func TestNewerRequestFieldsChecked(t *testing.T) {
	e := apitest.New(t)
	f := &fuzzer{t: t, e: e, rng: rand.New(rand.NewPCG(1, 2)), doc: loadOpenAPI(t), client: &http.Client{Timeout: 60 * time.Second}}
	f.setUp()
	fill := func(p string) string {
		for _, name := range []string{"organizationId", "siteId", "siteSpaceId", "siteSectionId", "siteSectionGroupId", "spaceId", "changeRequestId"} {
			if vs := f.real[name]; len(vs) > 0 {
				p = strings.ReplaceAll(p, "{"+name+"}", vs[0])
			}
		}
		return p
	}
	site := "/v1/orgs/{organizationId}/sites/{siteId}"
	cases := []struct {
		method, path string
		good, bad    string
		field        string // the field the bad body's answer must name
		status       int
	}{
		{"PATCH", site, `{"defaultLevel":"read","styleguide":null}`, `{"defaultLevel":"owner"}`, "defaultLevel", 200},
		{"PATCH", site, `{"styleguide":"abc"}`, `{"styleguide":5}`, "styleguide", 200},
		{"PATCH", site + "/publishing/auth", `{"backend":"custom","logoutURL":"https://auth.example.test/logout"}`, `{"logoutURL":"not a url"}`, "logoutURL", 200},
		{"PATCH", site + "/publishing/auth", `{"backend":"custom","logoutURL":null}`, `{"logoutURL":7}`, "logoutURL", 200},
		{"POST", site + "/sections", `{"title":"Newer section","spaceId":"{spaceId}","siteSectionGroupId":"{siteSectionGroupId}","pageId":"p1"}`, `{"title":"Newer section","template":{"params":{}}}`, "template.id", 201},
		{"PATCH", site + "/sections/{siteSectionId}", `{"localizedTitle":{"fr":"Titre"},"localizedDescription":{"fr":"Description"},"siteSectionGroupId":null}`, `{"localizedTitle":{"fr":"` + strings.Repeat("x", 129) + `"}}`, "localizedTitle.fr", 200},
		{"PATCH", site + "/section-groups/{siteSectionGroupId}", `{"localizedTitle":{"de":"Gruppe"},"parentSectionGroupId":null}`, `{"localizedTitle":"Gruppe"}`, "localizedTitle", 200},
		{"POST", site + "/site-spaces", `{"spaceId":"{spaceId}","title":"Variant","pageId":null}`, `{"spaceId":"{spaceId}","title":"V"}`, "title", 201},
		{"PATCH", site + "/site-spaces/{siteSpaceId}", `{"hidden":false,"pageId":null}`, `{"hidden":"no"}`, "hidden", 200},
		{"POST", "/v1/spaces/{spaceId}/change-requests", `{"subject":"From a template","template":{"id":"t1","params":{}}}`, `{"subject":"x","template":{"id":""}}`, "template.id", 201},
		{"PATCH", "/v1/spaces/{spaceId}/change-requests/{changeRequestId}", `{"links":[{"ref":"https://tracker.example.test/1","title":"Issue"}]}`, `{"links":[{"title":"no ref"}]}`, "links[0].ref", 200},
		{"POST", "/v1/spaces/{spaceId}/content/template", "", `{"id":"x","changeRequestId":"cr"}`, "changeRequestId", 0},
		{"POST", "/v1/org/{organizationId}/imports", "", `{"enhance":"yes"}`, "enhance", 0},
	}
	for _, c := range cases {
		target := fill(c.path)
		send := func(body string) (int, string) {
			status, b, err := f.send(fuzzRequest{method: c.method, target: target, contentType: "application/json", body: []byte(fill(body)), actor: e.Admin})
			if err != nil {
				t.Fatalf("%s %s: %v", c.method, target, err)
			}
			return status, string(b)
		}
		if c.good != "" {
			if status, body := send(c.good); status != c.status {
				t.Errorf("%s %s %s: %d %s, want %d", c.method, c.path, c.good, status, body, c.status)
			}
		}
		if status, body := send(c.bad); status != 400 || !strings.Contains(body, `"message":"`+c.field+":") {
			t.Errorf("%s %s %s: %d %s, want 400 naming %s", c.method, c.path, c.bad, status, body, c.field)
		}
	}
	// The site still answers its settings (nothing of the above leaked into its shape).
	e.Get(e.Admin, fill(site)).Expect(200)
}
