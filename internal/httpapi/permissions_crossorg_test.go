package httpapi_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
)

// crossOrgExempt lists the operations that legitimately answer a caller of one organization
// about another organization's object, or a user in no organization about an organization's
// object, with why. A key is "METHOD /path" (every swap and the outsider) or
// "METHOD /path {param}" (the swap of that parameter only).
var crossOrgExempt = map[string]string{
	"GET /v1/users/{userId}":                                                                                "a user's public profile: any signed-in user may read any user",
	"POST /v1/orgs/{organizationId}/join":                                                                   "joining is how a user of no organization enters one; the invite decides",
	"GET /v1/email-domains/{emailDomain}/orgs":                                                              "lists the organizations a user may join by the domain of their email",
	"GET /sites/{organizationId}/{basename}":                                                                "published content is public",
	"GET /sites/{organizationId}/{basename}/{path}":                                                         "published content is public",
	"POST /v1/orgs/{organizationId}/invites/{inviteId}":                                                     "accepting a link invite: the invite id is the credential, and the caller joins",
	"GET /v1/orgs/{organizationId}/link-invites/{inviteId}":                                                 "a link invite is shown to whoever holds its id, before joining",
	"GET /v1/pdf/{token}":                                                                                   "the token is the credential",
	"PUT /v1/storage/uploads/{token}":                                                                       "the token is the credential",
	"GET /v1/integrations/{integrationName}/public":                                                         "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/public/{path}":                                                  "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/installations/{installationId}/public":                          "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/installations/{installationId}/public/{path}":                   "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/public":                                                        "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/public/{path}":                                                 "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/installations/{installationId}/public":                         "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public":         "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public/{path}":  "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public":        "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/installations/{installationId}/spaces/{spaceId}/public/{path}": "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public":           "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"GET /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public/{path}":    "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public":          "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/installations/{installationId}/sites/{siteId}/public/{path}":   "an integration's public endpoint: its script answers anyone and checks its callers itself",
	"POST /v1/integrations/{integrationName}/installations/{installationId}/public/{path}":                  "an integration's public endpoint: its script answers anyone and checks its callers itself",
}

// TestPermissionMatrixCrossOrg calls every operation of api/openapi.yaml that has path
// parameters as an admin of organization A, with each id parameter swapped, one at a time, for
// the id of organization B's object of the same kind (so /orgs/{A}/sites/{B's site} as well as
// /orgs/{B}/sites/{A's site}): every answer must be 404, and no answer may hold B's data (an
// id of B's that the request did not name, or the word put in B's titles and texts). Then it
// calls every operation as a user in no organization with A's ids: 401 or 404 only, and none
// of A's data. crossOrgExempt lists the operations that are cross-organization by design.
//
// The objects are TestFuzzRoutes's fixtures (two organizations with spaces, pages, files,
// change requests, comments and replies, collections, teams, invites, sites with sections,
// section groups and share links, SAML providers, import runs).
func TestPermissionMatrixCrossOrg(t *testing.T) {
	e := apitest.New(t)
	f := &fuzzer{t: t, e: e, rng: rand.New(rand.NewPCG(14, 14)), doc: loadOpenAPI(t),
		client: &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	f.ops = f.operations()
	f.setUp()
	admin, outsider := f.actors[0], f.actors[2]

	// The operations that remove or move what they act on come last, so that a leak in one
	// of them (which the test reports) does not turn the other calls into 404s.
	ops := slices.Clone(f.ops)
	sort.SliceStable(ops, func(i, j int) bool { return !ops[i].destructive() && ops[j].destructive() })

	start := time.Now()
	byStatus := map[string]map[int]int{"swap": {}, "ghost": {}, "outsider": {}}
	calls := 0
	var failures []string
	fail := func(format string, args ...any) {
		if len(failures) < 80 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
	}
	exempt := func(op *fuzzOp, param string) bool {
		_, all := crossOrgExempt[op.key()]
		_, one := crossOrgExempt[op.key()+" {"+param+"}"]
		return all || one
	}
	used := map[string]bool{}
	for _, op := range ops {
		names := pathParams(op)
		// Swap each parameter whose B value differs from A's.
		for _, name := range names {
			own, foreign := crossOrgValue(f.real, name), crossOrgValue(f.foreign, name)
			if foreign == "" || foreign == own {
				continue
			}
			used[op.key()+" "+name] = true
			req := crossOrgRequest(f, op, admin, map[string]string{name: foreign})
			status, body, err := f.send(req)
			calls++
			if err != nil {
				fail("%s %s: %v", req.method, req.target, err)
				continue
			}
			byStatus["swap"][status]++
			if exempt(op, name) {
				continue
			}
			if !crossOrgStatusOK(op, status) {
				fail("A's admin, {%s} of B: %s %s: %d, want 404: %.300s", name, req.method, req.target, status, body)
			}
			if status == 400 {
				// A refusal of the body must not depend on whether the id exists: the same
				// request with an id nothing has must get the same status.
				ghost := req
				ghost.target = strings.Replace(req.target, escapePathKeepSlash(foreign), "zzNoSuchObject00000", 1)
				gs, gb, err := f.send(ghost)
				calls++
				byStatus["ghost"][gs]++
				if err != nil || gs != status {
					fail("A's admin, {%s} of B: %s %s: %d, but %d with an id nothing has (%v %.200s): the answer tells B's object exists",
						name, req.method, req.target, status, gs, err, gb)
				}
			}
			if leak := leaked(body, req, f.foreign, fixtureMarkForeign); leak != "" {
				fail("A's admin, {%s} of B: %s %s: %d holds B's %s: %.300s", name, req.method, req.target, status, leak, body)
			}
		}
	}
	for _, op := range ops {
		if exempt(op, "") {
			continue
		}
		names := pathParams(op)
		req := crossOrgRequest(f, op, outsider, nil)
		status, body, err := f.send(req)
		calls++
		if err != nil {
			fail("%s %s: %v", req.method, req.target, err)
			continue
		}
		byStatus["outsider"][status]++
		// An operation without path parameters acts on the caller's own account (their
		// organizations, their user): any answer but one holding A's data.
		if len(names) > 0 && status != 401 && !crossOrgStatusOK(op, status) {
			fail("outsider: %s %s: %d, want 401 or 404: %.300s", req.method, req.target, status, body)
		}
		if len(names) > 0 && status == 400 {
			// As for the swaps: the same request with ids nothing has must get the same status.
			ghost := req
			ghost.target = op.path
			for _, name := range names {
				ghost.target = strings.Replace(ghost.target, "{"+name+"}", "zzNoSuchObject00000", 1)
			}
			if i := strings.IndexByte(req.target, '?'); i >= 0 {
				ghost.target += req.target[i:]
			}
			gs, gb, err := f.send(ghost)
			calls++
			byStatus["ghost"][gs]++
			if err != nil || gs != status {
				fail("outsider: %s %s: %d, but %d with ids nothing has (%v %.200s): the answer tells A's object exists",
					req.method, req.target, status, gs, err, gb)
			}
		}
		if leak := leaked(body, req, f.real, fixtureMarkOwn); leak != "" {
			fail("outsider: %s %s: %d holds A's %s: %.300s", req.method, req.target, status, leak, body)
		}
	}
	// Every answer was a 404 or a 204 to a DELETE: B's objects must all still be there.
	otherAdmin := f.actors[3]
	for _, c := range []struct{ path, param string }{
		{"/v1/orgs/{organizationId}", "organizationId"},
		{"/v1/spaces/{spaceId}", "spaceId"},
		{"/v1/collections/{collectionId}", "collectionId"},
		{"/v1/orgs/" + crossOrgValue(f.foreign, "organizationId") + "/teams/{teamId}", "teamId"},
		{"/v1/orgs/" + crossOrgValue(f.foreign, "organizationId") + "/sites/{siteId}", "siteId"},
		{"/v1/orgs/" + crossOrgValue(f.foreign, "organizationId") + "/saml/{samlProviderId}", "samlProviderId"},
		{"/v1/orgs/" + crossOrgValue(f.foreign, "organizationId") + "/members/{userId}", "userId"},
		{"/v1/spaces/" + crossOrgValue(f.foreign, "spaceId") + "/change-requests/" + crossOrgValue(f.foreign, "changeRequestId") + "/comments/{commentId}", "commentId"},
	} {
		p := strings.Replace(c.path, "{"+c.param+"}", crossOrgValue(f.foreign, c.param), 1)
		status, body, err := f.send(fuzzRequest{method: http.MethodGet, target: p, actor: otherAdmin})
		calls++
		if err != nil || status != 200 {
			fail("B's admin after the calls: GET %s: %d %v %.200s (B's object was changed by A's calls)", p, status, err, body)
		}
	}
	for _, k := range sortedKeys(crossOrgExempt) {
		found := false
		for _, op := range f.ops {
			if k == op.key() || strings.HasPrefix(k, op.key()+" {") {
				found = true
			}
		}
		if !found {
			t.Errorf("crossOrgExempt names %q, which api/openapi.yaml does not describe", k)
		}
	}
	withParams := 0
	for _, op := range f.ops {
		if len(pathParams(op)) > 0 {
			withParams++
		}
	}
	for _, who := range []string{"swap", "ghost", "outsider"} {
		var parts []string
		n := 0
		for _, s := range sortedKeys(byStatus[who]) {
			parts = append(parts, fmt.Sprintf("%d:%d", s, byStatus[who][s]))
			n += byStatus[who][s]
		}
		t.Logf("cross-organization (%s) %s: %d calls, by status %s", apitest.Engine(), who, n, strings.Join(parts, " "))
	}
	t.Logf("cross-organization (%s): %d calls over %d operations (%d with path parameters, %d parameter swaps) in %s",
		apitest.Engine(), calls, len(f.ops), withParams, len(used), time.Since(start).Round(time.Millisecond))
	if len(failures) > 0 {
		t.Errorf("%d leaks:\n\t%s", len(failures), strings.Join(failures, "\n\t"))
	}
}

// pathParams lists op's path parameters in the order of the path.
func pathParams(op *fuzzOp) []string {
	var names []string
	for _, p := range op.params {
		if in, _ := p["in"].(string); in == "path" {
			name, _ := p["name"].(string)
			names = append(names, name)
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		return strings.Index(op.path, "{"+names[i]+"}") < strings.Index(op.path, "{"+names[j]+"}")
	})
	return names
}

// crossOrgValue is the first non-empty fixture id for a path parameter.
func crossOrgValue(ids map[string][]string, name string) string {
	for _, v := range ids[name] {
		if v != "" {
			return v
		}
	}
	return ""
}

// crossOrgRequest builds a valid request for op: the path filled with A's ids but for those
// in swap, the required query parameters, a JSON body from the document's schema, or a small
// archive for an upload.
func crossOrgRequest(f *fuzzer, op *fuzzOp, actor apitest.Actor, swap map[string]string) fuzzRequest {
	r := fuzzRequest{method: op.method, actor: actor}
	path := op.path
	query := url.Values{}
	for _, p := range op.params {
		name, _ := p["name"].(string)
		in, _ := p["in"].(string)
		switch in {
		case "path":
			v, ok := swap[name]
			if !ok {
				v = crossOrgValue(f.real, name)
			}
			if v == "" {
				v = "none"
			}
			path = strings.Replace(path, "{"+name+"}", escapePathKeepSlash(v), 1)
		case "query":
			if req, _ := p["required"].(bool); req {
				schema, _ := p["schema"].(map[string]any)
				query.Set(name, scalarString(f.value(schema, 0)))
			}
		}
	}
	r.target = path
	if len(query) > 0 {
		r.target += "?" + rawQuery(query)
	}
	switch {
	case op.body != nil:
		r.contentType = "application/json"
		r.body, _ = json.Marshal(f.value(op.body, 0))
	case len(op.uploads) > 0:
		r.contentType = op.uploads[0]
		files := map[string]string{"README.md": "# Home\n", "SUMMARY.md": "# Summary\n\n* [Home](README.md)\n"}
		switch r.contentType {
		case "application/zip":
			r.body = fuzzZip(files)
		default:
			r.body = fuzzTar(files, r.contentType != "application/x-tar")
		}
	}
	return r
}

// crossOrgStatusOK says whether status is a right answer to a caller who must not see the
// object: 404; 204 for a DELETE (the API answers 204 to a DELETE of what does not exist, and
// the test checks afterwards that B's objects are still there); 400 for a body the operation
// refuses whatever the object (validation comes before the look-up and says nothing of it).
func crossOrgStatusOK(op *fuzzOp, status int) bool {
	return status == 404 || status == 400 || (status == 204 && op.method == http.MethodDelete)
}

// leaked names the data of an organization that body holds: the word in its titles, or one of
// its ids that the request target does not name (an error may repeat the id it was asked for).
// Short values (change request numbers, paths) would match by chance and are not looked for.
func leaked(body []byte, req fuzzRequest, ids map[string][]string, mark string) string {
	s := string(body)
	if strings.Contains(s, mark) {
		return "title or text (" + mark + ")"
	}
	for _, name := range sortedKeys(ids) {
		if name == "path" || name == "pagePath" || name == "emailDomain" || name == "basename" {
			continue
		}
		for _, v := range ids[name] {
			if len(v) >= 8 && strings.Contains(s, v) && !strings.Contains(req.target, url.PathEscape(v)) && !strings.Contains(string(req.body), v) {
				return name + " " + v
			}
		}
	}
	return ""
}
