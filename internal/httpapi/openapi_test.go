package httpapi_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"docsd/api"
	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/httpapi"
)

// pendingMerge lists operations the document describes ahead of their routes, while they are
// built on another branch: "GET /v1/...". An entry must go once its route is registered (the
// test says so), and the list should stay empty on main.
var pendingMerge = []string{}

// openAPIDoc is the part of an OpenAPI document the tests read.
type openAPIDoc struct {
	OpenAPI string `json:"openapi"`
	Servers []struct {
		URL string `json:"url"`
	} `json:"servers"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components map[string]map[string]json.RawMessage `json:"components"`
}

type openAPIOperation struct {
	OperationID string                     `json:"operationId"`
	Parameters  []openAPIParameter         `json:"parameters"`
	Responses   map[string]json.RawMessage `json:"responses"`
	Security    *[]map[string][]string     `json:"security"`
}

type openAPIParameter struct {
	Ref  string `json:"$ref"`
	Name string `json:"name"`
	In   string `json:"in"`
}

var httpMethods = []string{"get", "put", "post", "patch", "delete", "head", "options", "trace"}

func loadOpenAPI(t *testing.T) openAPIDoc {
	t.Helper()
	raw, err := api.JSON()
	if err != nil {
		t.Fatalf("api/openapi.yaml does not convert: %v", err)
	}
	var doc openAPIDoc
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("api/openapi.yaml: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.0.") || len(doc.Servers) != 1 {
		t.Fatalf("api/openapi.yaml: want OpenAPI 3.0 with one server, got %q with %d", doc.OpenAPI, len(doc.Servers))
	}
	return doc
}

// documentedRoutes lists the document's operations as ServeMux patterns: the method and the
// full path, with the server URL (the path's own, or the document's) in front.
func documentedRoutes(t *testing.T, doc openAPIDoc) []string {
	t.Helper()
	var out []string
	for path, item := range doc.Paths {
		prefix := doc.Servers[0].URL
		if raw, ok := item["servers"]; ok {
			var servers []struct {
				URL string `json:"url"`
			}
			if err := json.Unmarshal(raw, &servers); err != nil || len(servers) != 1 {
				t.Fatalf("%s: servers must hold one server", path)
			}
			prefix = servers[0].URL
		}
		for key := range item {
			if slices.Contains(httpMethods, key) {
				out = append(out, strings.ToUpper(key)+" "+strings.TrimSuffix(prefix, "/")+path)
			}
		}
	}
	sort.Strings(out)
	return out
}

// wildcardRest matches the "{name...}" wildcards of ServeMux patterns; OpenAPI writes "{name}".
var wildcardRest = regexp.MustCompile(`\{([A-Za-z0-9_]+)\.\.\.\}`)

func TestOpenAPIDocumentDescribesEveryRoute(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	documented := documentedRoutes(t, doc)
	registered := map[string]bool{}
	for _, p := range httpapi.New(httpapi.Deps{}).Routes() {
		// "{$}" anchors a pattern ending in "/" to that path alone; OpenAPI paths always are.
		registered[strings.TrimSuffix(wildcardRest.ReplaceAllString(p, "{$1}"), "{$}")] = true
	}

	var undocumented, unserved, landed []string
	for p := range registered {
		if !slices.Contains(documented, p) {
			undocumented = append(undocumented, p)
		}
	}
	for _, p := range documented {
		if !registered[p] && !slices.Contains(pendingMerge, p) {
			unserved = append(unserved, p)
		}
	}
	for _, p := range pendingMerge {
		if registered[p] {
			landed = append(landed, p)
		}
		if !slices.Contains(documented, p) {
			t.Errorf("pendingMerge lists %s, which api/openapi.yaml does not describe", p)
		}
	}
	report := func(what string, routes []string) {
		if len(routes) > 0 {
			sort.Strings(routes)
			t.Errorf("%s:\n\t%s", what, strings.Join(routes, "\n\t"))
		}
	}
	report("routes registered in internal/httpapi but not described in api/openapi.yaml (describe them)", undocumented)
	report("operations described in api/openapi.yaml that no route serves (register them, or remove them from the document)", unserved)
	report("routes now registered that are still listed in pendingMerge in internal/httpapi/openapi_test.go (remove them from that list)", landed)
}

func TestOpenAPIDocumentIsConsistent(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	raw, _ := api.JSON()

	// Every reference points at something in the document.
	for _, m := range regexp.MustCompile(`"\$ref":"([^"]*)"`).FindAllStringSubmatch(string(raw), -1) {
		ref := m[1]
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		if !strings.HasPrefix(ref, "#/components/") || len(parts) != 3 {
			t.Errorf("$ref %s: want #/components/<kind>/<name>", ref)
			continue
		}
		if _, ok := doc.Components[parts[1]][parts[2]]; !ok {
			t.Errorf("$ref %s points at nothing", ref)
		}
	}

	pathParam := regexp.MustCompile(`\{([^}]+)\}`)
	operationIDs := map[string]string{}
	for path, item := range doc.Paths {
		var shared []openAPIParameter
		if rawParams, ok := item["parameters"]; ok {
			if err := json.Unmarshal(rawParams, &shared); err != nil {
				t.Fatalf("%s parameters: %v", path, err)
			}
		}
		for _, method := range httpMethods {
			rawOp, ok := item[method]
			if !ok {
				continue
			}
			where := strings.ToUpper(method) + " " + path
			var op openAPIOperation
			if err := json.Unmarshal(rawOp, &op); err != nil {
				t.Fatalf("%s: %v", where, err)
			}
			if op.OperationID == "" {
				t.Errorf("%s: no operationId", where)
			} else if other, dup := operationIDs[op.OperationID]; dup {
				t.Errorf("%s: operationId %s is also used by %s", where, op.OperationID, other)
			}
			operationIDs[op.OperationID] = where
			if len(op.Responses) == 0 {
				t.Errorf("%s: no responses", where)
			}
			if strings.HasPrefix(path, "/orgs/") || strings.HasPrefix(path, "/users/") {
				// Authenticated operations fail with the error body; say so.
				if _, ok := op.Responses["default"]; !ok {
					t.Errorf("%s: no default (error) response", where)
				}
			}

			// Path templates and declared path parameters agree.
			declared := map[string]bool{}
			query := map[string]bool{}
			for _, p := range append(slices.Clone(shared), op.Parameters...) {
				name, in := p.Name, p.In
				if p.Ref != "" {
					var target openAPIParameter
					if err := json.Unmarshal(doc.Components["parameters"][strings.TrimPrefix(p.Ref, "#/components/parameters/")], &target); err != nil {
						t.Errorf("%s: parameter %s: %v", where, p.Ref, err)
						continue
					}
					name, in = target.Name, target.In
				}
				switch in {
				case "path":
					declared[name] = true
				case "query":
					// An inline `page` is a page id (as the PDF routes take), not the list cursor;
					// an inline `limit` bounds something else than a list (semantic changes).
					if (name != "page" && name != "limit") || p.Ref != "" {
						query[name] = true
					}
				}
			}
			for _, m := range pathParam.FindAllStringSubmatch(path, -1) {
				if !declared[m[1]] {
					t.Errorf("%s: path parameter %s is not declared", where, m[1])
				}
				delete(declared, m[1])
			}
			for name := range declared {
				t.Errorf("%s: declares path parameter %s that the path does not have", where, name)
			}
			if query["page"] != query["limit"] {
				t.Errorf("%s: a list takes both page and limit", where)
			}
		}
	}
}

func TestOpenAPIDocumentIsServed(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	want, err := api.JSON()
	if err != nil {
		t.Fatal(err)
	}

	t.Run("as JSON without a token", func(t *testing.T) {
		r := e.Get(apitest.Anonymous, "/v1/openapi.json").Expect(200)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			t.Errorf("Content-Type %q", ct)
		}
		if string(r.Body) != string(want) {
			t.Errorf("served JSON differs from the embedded document")
		}
		if r.Str("openapi") != "3.0.3" || !r.Has("paths./orgs/{organizationId}.get") {
			t.Errorf("served document: %.200s", r.Body)
		}
	})

	t.Run("as YAML without a token", func(t *testing.T) {
		r := e.Get(apitest.Anonymous, "/v1/openapi.yaml").Expect(200)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/yaml") {
			t.Errorf("Content-Type %q", ct)
		}
		if string(r.Body) != string(api.YAML) {
			t.Errorf("served YAML differs from api/openapi.yaml")
		}
	})

	t.Run("other methods are refused", func(t *testing.T) {
		e.Post(e.Admin, "/v1/openapi.json", map[string]any{}).Expect(405)
	})

	t.Run("documented defaults match the server", func(t *testing.T) {
		r := e.Get(apitest.Anonymous, "/v1/openapi.json").Expect(200)
		if got := r.Num("components.parameters.limit.schema.maximum"); got != 1000 {
			t.Errorf("documented maximum limit %v", got)
		}
		def := r.Num("components.parameters.limit.schema.default")
		for i := 0; i < int(def)+1; i++ {
			e.NewOrg(e.Admin, fmt.Sprintf("Org %d", i))
		}
		if page := e.Get(e.Admin, "/v1/orgs").Expect(200); len(page.Items()) != int(def) || !page.Has("next.page") {
			t.Errorf("a page without limit holds %d items, documented default %v", len(page.Items()), def)
		}
	})
}

// schemaChecker returns a check that an answer carries every property its documented schema
// requires and none it does not describe (but for the names in undescribed).
func schemaChecker(t *testing.T, doc openAPIDoc, undescribed ...string) func(schema string, answer map[string]any) {
	return func(schema string, answer map[string]any) {
		t.Helper()
		var s struct {
			Required   []string                   `json:"required"`
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(doc.Components["schemas"][schema], &s); err != nil {
			t.Fatalf("schema %s: %v", schema, err)
		}
		for _, name := range s.Required {
			if _, ok := answer[name]; !ok {
				t.Errorf("%s: the answer lacks required property %s", schema, name)
			}
		}
		for name := range answer {
			if _, ok := s.Properties[name]; !ok && !slices.Contains(undescribed, name) {
				t.Errorf("%s: the answer has property %s that the schema does not describe", schema, name)
			}
		}
	}
}

// TestOpenAPISchemasMatchAnswers checks that answers carry every property their documented
// schema requires and none it does not describe, so the document keeps up with the shapes.
func TestOpenAPISchemasMatchAnswers(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := apitest.New(t)
	check := schemaChecker(t, doc)
	check("User", e.Get(e.Admin, "/v1/user").Expect(200).Map())
	check("Organization", e.Get(e.Admin, "/v1/orgs/"+e.Org).Expect(200).Map())
	e.NewOrg(e.Admin, "Second")
	list := e.Get(e.Admin, "/v1/orgs?limit=1").Expect(200)
	envelope := list.Map()
	delete(envelope, "items") // described beside List, in each list's own schema
	check("List", envelope)
	check("Organization", list.Items()[0])

	o := "/v1/orgs/" + e.Org
	m := e.Member("Mia", auth.Edit)
	check("Member", e.Get(e.Admin, o+"/members/"+m.ID).Expect(200).Map())
	team := e.Put(e.Admin, o+"/teams", map[string]any{"title": "Writers", "members": []string{m.ID}}).Expect(201).Map()
	check("Team", team)
	teamID, _ := team["id"].(string)
	items := func(path string) []map[string]any {
		t.Helper()
		out := e.Get(e.Admin, path).Expect(200).Items()
		if len(out) == 0 {
			t.Fatalf("%s: empty list, nothing to check", path)
		}
		return out
	}
	for _, it := range items(o + "/teams/" + teamID + "/members") {
		check("Member", it["organization"].(map[string]any))
		check("TeamMemberRole", it["team"].(map[string]any))
	}
	for _, it := range items(o + "/members/" + m.ID + "/teams") {
		check("Team", it["team"].(map[string]any))
		check("TeamMemberRole", it["member"].(map[string]any))
	}
	check("SAMLProvider", e.Post(e.Admin, o+"/saml", map[string]any{"label": "Okta", "defaultTeam": teamID}).Expect(201).Map())
	check("InviteLink", e.Post(e.Admin, o+"/link-invites", map[string]any{"role": "read"}).Expect(201).Map())
	check("AgentInstructions", e.Get(e.Admin, o+"/agent-instructions").Expect(200).Map())
	check("Error", e.Get(e.Admin, "/v1/orgs/nope").Expect(404).Map())
	check("ApiInformation", e.Get(apitest.Anonymous, "/v1/").Expect(200).Map())

	col := e.Post(e.Admin, o+"/collections", map[string]any{"title": "Guides"}).Expect(201).Map()
	colID, _ := col["id"].(string)
	e.Patch(e.Admin, "/v1/collections/"+colID, map[string]any{"description": "All guides"}).Expect(200)
	check("Collection", e.Get(e.Admin, "/v1/collections/"+colID).Expect(200).Map())
	sp := e.Post(e.Admin, o+"/spaces", map[string]any{"parent": colID, "emoji": "📘", "language": "en"}).Expect(201).Map()
	spaceID, _ := sp["id"].(string)
	e.Delete(e.Admin, "/v1/spaces/"+spaceID).Expect(204)
	check("Space", e.Post(e.Admin, "/v1/spaces/"+spaceID+"/restore", nil).Expect(200).Map())
	check("Space", e.Patch(e.Admin, "/v1/spaces/"+spaceID, map[string]any{"icon": "https://example.com/i.png"}).Expect(200).Map())
	for _, it := range items(o + "/members/" + e.Admin.ID + "/spaces") {
		check("Space", it["space"].(map[string]any))
	}
	e.Post(e.Admin, "/v1/spaces/"+spaceID+"/permissions", map[string]any{"role": "edit", "users": []string{m.ID}, "teams": []string{teamID}}).Expect(204)
	for _, it := range items("/v1/spaces/" + spaceID + "/permissions/users") {
		check("UserContentPermission", it)
	}
	for _, it := range items("/v1/spaces/" + spaceID + "/permissions/teams") {
		check("TeamContentPermission", it)
		check("Team", it["team"].(map[string]any))
	}
}
