package httpapi_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"cmp"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// TestFuzzRoutes sends requests built from api/openapi.yaml to every operation it describes:
// path parameters filled with the ids of objects it made (and of another organization's),
// or mutated (NUL, invalid UTF-8, very long, other kinds of id); query values and JSON
// bodies derived from the document's schemas, valid or mutated (wrong types, NUL and
// invalid UTF-8 in strings and keys, huge numbers, deep nesting, unknown fields, truncated
// JSON). Every answer must be below 500 (but for a 5xx the operation documents, such as a
// Git server's failure), and every error must have the API's error body.
//
// DOCSD_FUZZ_REQUESTS sets the number of requests (2,000 by default), DOCSD_FUZZ_SEED the
// seed of the generator (the same seed makes the same requests), DOCSD_FUZZ_SECONDS the
// most time the requests may take (600 by default; the test stops sending then).
func TestFuzzRoutes(t *testing.T) {
	total := fuzzEnvInt(t, "DOCSD_FUZZ_REQUESTS", 2000)
	seed := uint64(fuzzEnvInt(t, "DOCSD_FUZZ_SEED", 14))
	budget := time.Duration(fuzzEnvInt(t, "DOCSD_FUZZ_SECONDS", 600)) * time.Second

	e := apitest.New(t)
	f := &fuzzer{t: t, e: e, rng: rand.New(rand.NewPCG(seed, seed^0x5eed)), doc: loadOpenAPI(t),
		client: &http.Client{Timeout: 60 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}}}
	f.ops = f.operations()
	f.setUp()

	start := time.Now()
	deadline := start.Add(budget)
	byClass := map[int]int{}
	byStatus := map[int]int{}
	var failures []string
	failedOps := map[string]int{}
	succeeded := map[string]bool{} // operations that answered 2xx at least once
	sent := 0
	// Destructive operations (DELETE, transfers) on the fixtures would turn the rest of the
	// run into 404s: they get real ids only in the last tenth of the run.
	late := total - total/10
	for i := 0; i < total && time.Now().Before(deadline); i++ {
		op := f.ops[i%len(f.ops)]
		if i%len(f.ops) == 0 {
			f.rng.Shuffle(len(f.ops), func(a, b int) { f.ops[a], f.ops[b] = f.ops[b], f.ops[a] })
			op = f.ops[0]
		}
		req := f.request(op, i >= late)
		status, body, err := f.send(req)
		sent++
		if err != nil {
			failures = append(failures, fmt.Sprintf("%s %s: %v", req.method, req.target, err))
			failedOps[op.key()]++
			continue
		}
		byClass[status/100]++
		byStatus[status]++
		if status < 300 {
			succeeded[op.key()] = true
		}
		if problem := checkAnswer(op, req, status, body); problem != "" {
			failedOps[op.key()]++
			if len(failures) < 60 {
				failures = append(failures, problem)
			}
		}
	}
	elapsed := time.Since(start)

	var statuses []string
	for _, s := range sortedKeys(byStatus) {
		statuses = append(statuses, fmt.Sprintf("%d:%d", s, byStatus[s]))
	}
	t.Logf("fuzz (%s, seed %d): %d requests over %d operations in %s (%.0f/s): 2xx %d, 3xx %d, 4xx %d, 5xx %d; by status %s",
		apitest.Engine(), seed, sent, len(f.ops), elapsed.Round(time.Millisecond), float64(sent)/elapsed.Seconds(),
		byClass[2], byClass[3], byClass[4], byClass[5], strings.Join(statuses, " "))
	t.Logf("fuzz: %d of %d operations answered 2xx at least once", len(succeeded), len(f.ops))
	if sent < total {
		t.Logf("fuzz: stopped at the time budget (%s) after %d of %d requests", budget, sent, total)
	}
	if len(failedOps) > 0 {
		var ops []string
		for k, n := range failedOps {
			ops = append(ops, fmt.Sprintf("%s (%d)", k, n))
		}
		sort.Strings(ops)
		t.Errorf("fuzz: %d operations answered wrongly:\n\t%s\nfirst failures:\n\t%s",
			len(ops), strings.Join(ops, "\n\t"), strings.Join(failures, "\n\t"))
	}
}

// checkAnswer says what is wrong with an answer, or "".
func checkAnswer(op *fuzzOp, req fuzzRequest, status int, body []byte) string {
	where := fmt.Sprintf("%s %s (body %.120q)", req.method, req.target, req.body)
	if status >= 500 && !(status != 500 && op.documents(status)) {
		return fmt.Sprintf("%s: %d %.300s", where, status, body)
	}
	if status < 400 || req.method == http.MethodHead {
		return ""
	}
	var eb struct {
		Error *struct {
			Code    *int    `json:"code"`
			Message *string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(body, &eb); err != nil || eb.Error == nil || eb.Error.Code == nil || eb.Error.Message == nil {
		return fmt.Sprintf("%s: %d with a body that is not {error:{code,message}}: %.300s", where, status, body)
	}
	if *eb.Error.Code != status || strings.TrimSpace(*eb.Error.Message) == "" {
		return fmt.Sprintf("%s: %d with error %.300s", where, status, body)
	}
	return ""
}

func fuzzEnvInt(t *testing.T, name string, def int) int {
	s := os.Getenv(name)
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive integer", name, s)
	}
	return n
}

// sortedKeys returns m's keys in order, so that what the generator draws does not depend on
// the order of map iteration.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	return slices.Sorted(maps.Keys(m))
}

// fuzzOp is one operation of the document.
type fuzzOp struct {
	method    string
	path      string // with the server prefix, e.g. /v1/spaces/{spaceId}
	params    []map[string]any
	body      map[string]any // the JSON body's schema, or nil
	uploads   []string       // the content types of a non-JSON body
	responses map[string]json.RawMessage
}

func (o *fuzzOp) key() string { return o.method + " " + o.path }

func (o *fuzzOp) documents(status int) bool {
	_, ok := o.responses[strconv.Itoa(status)]
	return ok
}

// destructive operations remove or move the fixtures the rest of the run reads.
func (o *fuzzOp) destructive() bool {
	return o.method == http.MethodDelete || strings.HasSuffix(o.path, "/transfer") || strings.HasSuffix(o.path, "/move") ||
		strings.HasSuffix(o.path, "/unpublish") || strings.HasSuffix(o.path, "/merge") ||
		(o.method == http.MethodPatch && (strings.HasSuffix(o.path, "/members/{userId}") || strings.HasSuffix(o.path, "/orgs/{organizationId}")))
}

type fuzzRequest struct {
	method, target string // target: escaped path and query
	contentType    string
	body           []byte
	actor          apitest.Actor
}

type fuzzer struct {
	t      *testing.T
	e      *apitest.Env
	rng    *rand.Rand
	doc    openAPIDoc
	ops    []*fuzzOp
	client *http.Client
	// real holds the ids of the objects set up, by path parameter name; foreign those of
	// another organization's objects.
	real, foreign map[string][]string
	pool          []string // every id, for string fields of bodies and queries
	actors        []apitest.Actor
}

// send sends r. Every transport error counts: the one seen under load (a reset while a
// stranger's large body was still being written, refused before it was read) came from the
// server closing with the body unread, which it no longer does (see drainUnread).
func (f *fuzzer) send(r fuzzRequest) (int, []byte, error) {
	var rd io.Reader
	if r.body != nil {
		rd = bytes.NewReader(r.body)
	}
	req, err := http.NewRequest(r.method, f.e.URL+r.target, rd)
	if err != nil {
		return 0, nil, err
	}
	if r.contentType != "" {
		req.Header.Set("Content-Type", r.contentType)
	}
	if r.actor.Token != "" {
		req.Header.Set("Authorization", "Bearer "+r.actor.Token)
	}
	res, err := f.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	return res.StatusCode, data, err
}

// operations lists the document's operations.
func (f *fuzzer) operations() []*fuzzOp {
	var out []*fuzzOp
	for _, path := range sortedKeys(f.doc.Paths) {
		item := f.doc.Paths[path]
		prefix := f.doc.Servers[0].URL
		if raw, ok := item["servers"]; ok {
			var servers []struct {
				URL string `json:"url"`
			}
			json.Unmarshal(raw, &servers)
			prefix = servers[0].URL
		}
		var shared []map[string]any
		if raw, ok := item["parameters"]; ok {
			json.Unmarshal(raw, &shared)
		}
		for _, method := range httpMethods {
			raw, ok := item[method]
			if !ok {
				continue
			}
			var op struct {
				Parameters  []map[string]any           `json:"parameters"`
				Responses   map[string]json.RawMessage `json:"responses"`
				RequestBody map[string]any             `json:"requestBody"`
			}
			if err := json.Unmarshal(raw, &op); err != nil {
				f.t.Fatalf("%s %s: %v", method, path, err)
			}
			o := &fuzzOp{method: strings.ToUpper(method), path: strings.TrimSuffix(prefix, "/") + path, responses: op.Responses}
			for _, p := range append(slices.Clone(shared), op.Parameters...) {
				o.params = append(o.params, f.resolve(p))
			}
			if op.RequestBody != nil {
				content, _ := f.resolve(op.RequestBody)["content"].(map[string]any)
				for ct, media := range content {
					if ct == "application/json" {
						m, _ := media.(map[string]any)
						o.body, _ = m["schema"].(map[string]any)
						if o.body == nil {
							o.body = map[string]any{}
						}
					} else {
						o.uploads = append(o.uploads, ct)
					}
				}
				sort.Strings(o.uploads)
			}
			out = append(out, o)
		}
	}
	return out
}

// resolve follows a $ref to the component it names.
func (f *fuzzer) resolve(m map[string]any) map[string]any {
	for i := 0; i < 20; i++ {
		ref, ok := m["$ref"].(string)
		if !ok {
			return m
		}
		parts := strings.Split(strings.TrimPrefix(ref, "#/"), "/")
		var target map[string]any
		if len(parts) == 3 {
			json.Unmarshal(f.doc.Components[parts[1]][parts[2]], &target)
		}
		if target == nil {
			return map[string]any{}
		}
		m = target
	}
	return m
}

// setUp makes the objects whose ids fill path parameters: an organization's space with
// pages, a change request, a comment with a reply, a collection, a team, a site with a
// section and a share link; and the same kinds in another organization, whose ids a caller
// of the first must not reach.
func (f *fuzzer) setUp() {
	e := f.e
	f.real, f.foreign = map[string][]string{}, map[string][]string{}
	outsider := e.NewUser("outsider")
	otherAdmin := e.NewUser("other admin")
	otherOrg := e.NewOrg(otherAdmin, "Other Organization "+fixtureMarkForeign)
	member := e.Member("member", auth.Edit)
	f.actors = []apitest.Actor{e.Admin, apitest.Anonymous, outsider, otherAdmin, member}
	f.objects(e.Admin, e.Org, f.real, []string{e.Admin.ID, member.ID}, fixtureMarkOwn)
	f.objects(otherAdmin, otherOrg, f.foreign, []string{otherAdmin.ID}, fixtureMarkForeign)
	seen := map[string]bool{}
	for _, m := range []map[string][]string{f.real, f.foreign} {
		for _, vs := range m {
			for _, v := range vs {
				if !seen[v] && v != "" && !strings.Contains(v, "/") {
					seen[v] = true
					f.pool = append(f.pool, v)
				}
			}
		}
	}
	sort.Strings(f.pool)
}

// The words in the titles and texts of each organization's fixtures, so that a test can tell
// whose data an answer holds (TestPermissionMatrixCrossOrg looks for the other's).
const (
	fixtureMarkOwn     = "Alfaorgmark"
	fixtureMarkForeign = "Xenoorgmark"
)

// objects makes one organization's fixtures as owner and records their ids in into; mark is
// put in every title and text.
func (f *fuzzer) objects(owner apitest.Actor, orgID string, into map[string][]string, users []string, mark string) {
	e := f.e
	add := func(name string, v string) {
		if v != "" {
			into[name] = append(into[name], v)
		}
	}
	id := func(r *apitest.Resp, path string) string {
		if r.Status >= 300 {
			f.t.Logf("fuzz set-up: %s %s: %d %.200s", r.Method, r.Path, r.Status, r.Body)
			return ""
		}
		v, _ := r.Get(path)
		s, _ := v.(string)
		if n, ok := v.(float64); ok {
			s = strconv.Itoa(int(n))
		}
		return s
	}
	add("organizationId", orgID)
	for _, u := range users {
		add("userId", u)
	}
	add("emailDomain", "example.test")
	col := id(e.Post(owner, "/v1/orgs/"+orgID+"/collections", map[string]any{"title": "Fuzz collection " + mark}), "id")
	add("collectionId", col)
	space := id(e.Post(owner, "/v1/orgs/"+orgID+"/spaces", map[string]any{"title": "Fuzz space " + mark}), "id")
	add("spaceId", space)
	archive := fuzzZip(map[string]string{
		"README.md":        "# Home\n\nWelcome to " + mark + ".\n",
		"SUMMARY.md":       "# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n  * [Deep](guide/deep.md)\n",
		"guide.md":         "# Guide\n\nSee [home](README.md).\n",
		"guide/deep.md":    "# Deep\n\n![pic](../.gitbook/assets/pic.png)\n",
		".gitbook/assets/": "",
	})
	e.Upload(owner, "POST", "/v1/spaces/"+space+"/content/import", "application/zip", archive)
	content := e.Get(owner, "/v1/spaces/"+space+"/content")
	add("revisionId", id(content, "id"))
	var rev struct {
		Pages []struct {
			ID    string `json:"id"`
			Path  string `json:"path"`
			Pages []struct {
				ID   string `json:"id"`
				Path string `json:"path"`
			} `json:"pages"`
		} `json:"pages"`
		Files []struct {
			ID string `json:"id"`
		} `json:"files"`
	}
	if content.Status == 200 {
		content.JSON(&rev)
	}
	for _, p := range rev.Pages {
		add("pageId", p.ID)
		add("pagePath", p.Path)
		for _, c := range p.Pages {
			add("pageId", c.ID)
			add("pagePath", c.Path)
		}
	}
	for _, fl := range rev.Files {
		add("fileId", fl.ID)
	}
	cr := e.Post(owner, "/v1/spaces/"+space+"/change-requests", map[string]any{"subject": "Fuzz " + mark})
	add("changeRequestId", id(cr, "id"))
	add("changeRequestId", id(cr, "number"))
	if crID := id(cr, "id"); crID != "" {
		add("pageId", id(e.Post(owner, "/v1/spaces/"+space+"/change-requests/"+crID+"/pages",
			map[string]any{"title": "Fuzz page " + mark, "markdown": "Some text of " + mark + "."}), "page"))
		crc := e.Post(owner, "/v1/spaces/"+space+"/change-requests/"+crID+"/comments", map[string]any{"body": map[string]any{"markdown": "A comment " + mark}})
		add("commentId", id(crc, "id"))
		conv := e.Post(owner, "/v1/spaces/"+space+"/change-requests/"+crID+"/conversations/default/messages",
			map[string]any{"markdown": "A question about " + mark})
		add("conversationId", id(conv, "conversation.id"))
	}
	cm := id(e.Post(owner, "/v1/spaces/"+space+"/comments", map[string]any{"body": map[string]any{"markdown": "A comment " + mark}}), "id")
	add("commentId", cm)
	if cm != "" {
		add("commentReplyId", id(e.Post(owner, "/v1/spaces/"+space+"/comments/"+cm+"/replies", map[string]any{"body": map[string]any{"markdown": "A reply " + mark}}), "id"))
	}
	add("teamId", id(e.Put(owner, "/v1/orgs/"+orgID+"/teams", map[string]any{"title": "Fuzz team " + mark}), "id"))
	add("inviteId", id(e.Post(owner, "/v1/orgs/"+orgID+"/link-invites", map[string]any{"role": "read"}), "id"))
	site := e.Post(owner, "/v1/orgs/"+orgID+"/sites", map[string]any{"title": "Fuzz site " + mark, "spaces": []string{space}})
	siteID := id(site, "id")
	add("siteId", siteID)
	if siteID != "" {
		e.Post(owner, "/v1/orgs/"+orgID+"/sites/"+siteID+"/publish", nil)
		add("basename", id(site, "basename"))
		for _, it := range e.Get(owner, "/v1/orgs/"+orgID+"/sites/"+siteID+"/site-spaces").Items() {
			s, _ := it["id"].(string)
			add("siteSpaceId", s)
		}
		add("siteSectionId", id(e.Post(owner, "/v1/orgs/"+orgID+"/sites/"+siteID+"/sections", map[string]any{"title": "Fuzz section " + mark, "spaceId": space}), "id"))
		add("siteSectionGroupId", id(e.Post(owner, "/v1/orgs/"+orgID+"/sites/"+siteID+"/section-groups", map[string]any{"title": "Fuzz group " + mark}), "id"))
		add("shareLinkId", id(e.Post(owner, "/v1/orgs/"+orgID+"/sites/"+siteID+"/share-links", map[string]any{"name": "Fuzz link " + mark}), "id"))
	}
	add("importRunId", id(e.Post(owner, "/v1/org/"+orgID+"/imports", map[string]any{
		"source": map[string]any{"type": "website", "url": "http://127.0.0.1:1/"}, "target": map[string]any{"space": space}}), "id"))
	add("samlProviderId", id(e.Post(owner, "/v1/orgs/"+orgID+"/saml", map[string]any{"label": "Fuzz SSO " + mark}), "id"))
	// A private integration installed in its organization, on its space and its site: another
	// organization sees none of it.
	name := "fuzz-" + strings.ToLower(mark)
	add("integrationName", id(e.Post(owner, "/v1/integrations/"+name, integrationBody(orgID, map[string]any{
		"visibility": "private", "title": "Fuzz " + mark, "target": "all"})), "name"))
	inst := id(e.Post(owner, "/v1/integrations/"+name+"/installations", map[string]any{"organization": orgID}), "id")
	add("installationId", inst)
	if inst != "" {
		e.Post(owner, "/v1/integrations/"+name+"/installations/"+inst+"/spaces", map[string]any{"space": space})
		if siteID != "" {
			e.Post(owner, "/v1/integrations/"+name+"/installations/"+inst+"/sites", map[string]any{"siteId": siteID})
		}
		for _, it := range e.Get(owner, "/v1/integrations/"+name+"/events").Items() {
			ev, _ := it["id"].(string)
			add("eventId", ev)
		}
	}
	add("path", "")
	add("path", "guide")
	add("path", "~search")
}

// request builds one request for op: real ids mostly, mutations often. Destructive
// operations get real ids only when late is true.
func (f *fuzzer) request(op *fuzzOp, late bool) fuzzRequest {
	r := fuzzRequest{method: op.method, actor: f.actors[0]}
	switch n := f.rng.IntN(100); {
	case n < 4:
		r.actor = apitest.Anonymous
	case n < 8:
		r.actor = f.actors[2] // outsider
	case n < 12:
		r.actor = f.actors[3] // the other organization's admin
	case n < 18:
		r.actor = f.actors[4] // a member with the edit role
	}
	mutatePath := f.rng.IntN(100) < 30
	path := op.path
	var query url.Values = url.Values{}
	for _, p := range op.params {
		name, _ := p["name"].(string)
		in, _ := p["in"].(string)
		schema, _ := p["schema"].(map[string]any)
		switch in {
		case "path":
			var v string
			if mutatePath && f.rng.IntN(2) == 0 {
				v = f.mutatedSegment(name)
			} else if op.destructive() && !late {
				v = "fuzz" + strconv.Itoa(f.rng.IntN(1000))
			} else {
				v = f.realSegment(name)
			}
			path = strings.Replace(path, "{"+name+"}", v, 1)
		case "query":
			if f.rng.IntN(100) < 50 {
				continue
			}
			if f.rng.IntN(100) < 30 {
				query[name] = append(query[name], f.mutatedString())
			} else {
				v := f.value(schema, 0)
				if arr, ok := v.([]any); ok {
					for _, x := range arr {
						query[name] = append(query[name], scalarString(x))
					}
				} else {
					query[name] = append(query[name], scalarString(v))
				}
			}
		}
	}
	if f.rng.IntN(100) < 5 {
		query.Set("zzUnknown", f.mutatedString())
	}
	r.target = path
	if len(query) > 0 {
		r.target += "?" + rawQuery(query)
	}
	switch {
	case op.body != nil:
		r.contentType = "application/json"
		r.body = f.jsonBody(op.body)
		if f.rng.IntN(100) < 3 {
			r.contentType = []string{"text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-16", ""}[f.rng.IntN(4)]
		}
	case len(op.uploads) > 0:
		r.contentType = op.uploads[f.rng.IntN(len(op.uploads))]
		r.body = f.upload(r.contentType)
	case f.rng.IntN(100) < 3:
		r.contentType = "application/json"
		r.body = []byte(`{"zz":"\u0000"}`)
	}
	return r
}

// rawQuery encodes a query, keeping the byte-level escapes of mutated values as they are.
func rawQuery(q url.Values) string {
	var parts []string
	for _, k := range sortedKeys(q) {
		for _, v := range q[k] {
			parts = append(parts, url.QueryEscape(k)+"="+url.QueryEscape(v))
		}
	}
	return strings.Join(parts, "&")
}

func scalarString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case json.RawMessage:
		return string(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// realSegment is the escaped path segment of a real id for the parameter.
func (f *fuzzer) realSegment(name string) string {
	vs := f.real[name]
	if f.rng.IntN(100) < 10 && len(f.foreign[name]) > 0 {
		vs = f.foreign[name]
	}
	if len(vs) == 0 {
		if len(f.pool) == 0 {
			return "none"
		}
		return f.pool[f.rng.IntN(len(f.pool))]
	}
	v := vs[f.rng.IntN(len(vs))]
	if name == "path" || name == "pagePath" {
		return escapePathKeepSlash(v)
	}
	return url.PathEscape(v)
}

func escapePathKeepSlash(s string) string {
	parts := strings.Split(s, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// mutatedSegment is an escaped path segment no object has: bytes a database text column
// refuses, ids of the wrong length or alphabet, another kind's id.
func (f *fuzzer) mutatedSegment(name string) string {
	real := f.real[name]
	base := "x"
	if len(real) > 0 {
		base = url.PathEscape(real[f.rng.IntN(len(real))])
	}
	switch f.rng.IntN(16) {
	case 0:
		return "%00"
	case 1:
		return base + "%00"
	case 2:
		return "%FF"
	case 3:
		return base + "%C3%28"
	case 4:
		return strings.Repeat("a", 2000+f.rng.IntN(6000))
	case 5:
		return "%ED%A0%80" // a UTF-16 surrogate, invalid in UTF-8
	case 6:
		return "%E2%80%AE" + base
	case 7:
		return "99999999999999999999999999"
	case 8:
		return "-1"
	case 9:
		return "%27%20OR%201%3D1--"
	case 10:
		return "%2E%2E"
	case 11:
		return "a%2Fb"
	case 12:
		if len(f.pool) > 0 {
			return f.pool[f.rng.IntN(len(f.pool))]
		}
		return base
	case 13:
		return "%0A%0D%09"
	case 14:
		return "%F0%9F%98%80" + base
	default:
		return strings.ToLower(base)
	}
}

// mutatedString is a hostile query or string value (not yet escaped).
func (f *fuzzer) mutatedString() string {
	switch f.rng.IntN(12) {
	case 0:
		return "\x00"
	case 1:
		return "a\x00b"
	case 2:
		return "\xff\xfe"
	case 3:
		return "ok\xc3\x28"
	case 4:
		return strings.Repeat("q", 3000+f.rng.IntN(5000))
	case 5:
		return "-99999999999999999999999"
	case 6:
		return "1e400"
	case 7:
		return "\xed\xa0\x80"
	case 8:
		return "' OR 1=1 --"
	case 9:
		return "%"
	case 10:
		return "\u202e\u0001\u007f"
	default:
		if len(f.pool) > 0 {
			return f.pool[f.rng.IntN(len(f.pool))]
		}
		return "x"
	}
}

// value generates a value valid for schema (as far as the schema says).
func (f *fuzzer) value(schema map[string]any, depth int) any {
	schema = f.resolve(schema)
	if schema == nil || depth > 8 {
		return "x"
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 {
		return enum[f.rng.IntN(len(enum))]
	}
	if all, ok := schema["allOf"].([]any); ok && len(all) > 0 {
		merged := map[string]any{}
		props := map[string]any{}
		for _, s := range all {
			m, _ := s.(map[string]any)
			m = f.resolve(m)
			for k, v := range m {
				if k == "properties" {
					pm, _ := v.(map[string]any)
					for pk, pv := range pm {
						props[pk] = pv
					}
					continue
				}
				merged[k] = v
			}
		}
		if len(props) > 0 {
			merged["properties"] = props
		}
		return f.value(merged, depth+1)
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if alts, ok := schema[key].([]any); ok && len(alts) > 0 {
			m, _ := alts[f.rng.IntN(len(alts))].(map[string]any)
			return f.value(m, depth+1)
		}
	}
	if nullable, _ := schema["nullable"].(bool); nullable && f.rng.IntN(10) == 0 {
		return nil
	}
	typ, _ := schema["type"].(string)
	if typ == "" {
		if _, ok := schema["properties"]; ok {
			typ = "object"
		} else {
			typ = "string"
		}
	}
	num := func(key string, def float64) float64 {
		if v, ok := schema[key].(float64); ok {
			return v
		}
		return def
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := schema["properties"].(map[string]any)
		required := map[string]bool{}
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				s, _ := r.(string)
				required[s] = true
			}
		}
		for _, k := range sortedKeys(props) {
			if required[k] || f.rng.IntN(100) < 50 {
				m, _ := props[k].(map[string]any)
				out[k] = f.value(m, depth+1)
			}
		}
		return out
	case "array":
		items, _ := schema["items"].(map[string]any)
		n := f.rng.IntN(4)
		if max := num("maxItems", 3); float64(n) > max {
			n = int(max)
		}
		out := []any{}
		for i := 0; i < n; i++ {
			out = append(out, f.value(items, depth+1))
		}
		return out
	case "integer":
		lo, hi := num("minimum", 0), num("maximum", 100)
		if hi-lo > 1000 {
			hi = lo + 1000
		}
		return int(lo) + f.rng.IntN(int(hi-lo)+1)
	case "number":
		lo, hi := num("minimum", 0), num("maximum", 100)
		return lo + f.rng.Float64()*(hi-lo)
	case "boolean":
		return f.rng.IntN(2) == 0
	}
	format, _ := schema["format"].(string)
	switch format {
	case "date-time":
		return time.Date(2026, 1, 1+f.rng.IntN(300), 0, 0, 0, 0, time.UTC).Format(time.RFC3339)
	case "uri", "url":
		return []string{"http://127.0.0.1:1/x", "https://example.test/a", "mailto:a@example.test"}[f.rng.IntN(3)]
	case "email":
		return "fuzz" + strconv.Itoa(f.rng.IntN(100)) + "@example.test"
	}
	if len(f.pool) > 0 && f.rng.IntN(100) < 30 {
		return f.pool[f.rng.IntN(len(f.pool))]
	}
	lo, hi := int(num("minLength", 1)), int(num("maxLength", 24))
	if hi > 24 {
		hi = 24
	}
	if lo > hi {
		lo = hi
	}
	n := lo + f.rng.IntN(hi-lo+1)
	const letters = "abcdefghijklmnopqrstuvwxyz "
	b := make([]byte, n)
	for i := range b {
		b[i] = letters[f.rng.IntN(len(letters))]
	}
	return string(b)
}

// jsonBody makes a body for schema: valid about half of the time, mutated otherwise.
func (f *fuzzer) jsonBody(schema map[string]any) []byte {
	v := f.value(schema, 0)
	mutation := f.rng.IntN(24)
	if mutation >= 12 {
		b, _ := json.Marshal(v)
		return b
	}
	obj, isObj := v.(map[string]any)
	if !isObj {
		obj = map[string]any{}
	}
	leaf := f.pickKey(obj)
	switch mutation {
	case 0: // NUL in a string
		obj[leaf] = "a\x00b"
	case 1: // invalid UTF-8 in a string: marked, then replaced in the encoded bytes
		obj[leaf] = "INVALIDUTF8MARK"
	case 2: // a wrong type
		obj[leaf] = []any{map[string]any{}, 12, "s", true, nil, []any{}}[f.rng.IntN(6)]
		if s, ok := obj[leaf].(string); ok && s == "s" {
			obj[leaf] = 3.5
		}
	case 3: // a huge number
		obj[leaf] = json.RawMessage([]string{"1e400", "123456789012345678901234567890", "-1e309", "0.0000000000000000000000000001e-400"}[f.rng.IntN(4)])
	case 4: // deep nesting
		d := 50 + f.rng.IntN(20000)
		obj[leaf] = json.RawMessage(strings.Repeat("[", d) + strings.Repeat("]", d))
	case 5: // an unknown field
		obj["zzUnknown"+strconv.Itoa(f.rng.IntN(10))] = 1
	case 6: // truncated
		b, _ := json.Marshal(v)
		if len(b) > 1 {
			return b[:f.rng.IntN(len(b))]
		}
		return []byte("{")
	case 7: // NUL in a key
		obj["ti\x00tle"] = "x"
	case 8: // a very long string
		obj[leaf] = strings.Repeat("long ", 2000+f.rng.IntN(30000))
	case 9: // not an object
		return []byte([]string{"null", "[]", `"x"`, "0", "", "{}", "\xff", `{"a":1}{"b":2}`, "[\"\\u0000\"]"}[f.rng.IntN(9)])
	case 10: // NUL or invalid UTF-8 deeper: in an array or nested object
		obj[leaf] = []any{"ok", map[string]any{"k": "v\x00"}}
	case 11: // a lone surrogate escape and control characters
		obj[leaf] = json.RawMessage(`"\ud800 \u0001 \u001f"`)
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return []byte("{")
	}
	if mutation == 1 {
		b = bytes.ReplaceAll(b, []byte("INVALIDUTF8MARK"), []byte("a\xff\xfeb\xc3("))
	}
	return b
}

// pickKey chooses a field of obj, or a likely field name when it has none.
func (f *fuzzer) pickKey(obj map[string]any) string {
	keys := (sortedKeys(obj))
	if len(keys) == 0 {
		return []string{"title", "name", "id", "markdown"}[f.rng.IntN(4)]
	}
	return keys[f.rng.IntN(len(keys))]
}

// upload makes an archive body: a markdown tree with NUL bytes and invalid UTF-8 in text and
// names, a truncated archive, or bytes that are no archive.
func (f *fuzzer) upload(contentType string) []byte {
	files := map[string]string{
		"README.md":  "# Home\n\nText.\n",
		"SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Page](page.md)\n",
		"page.md":    "# Page\n",
	}
	switch f.rng.IntN(8) {
	case 0:
		files["page.md"] = "# Pa\x00ge\n\nNUL \x00 byte.\n"
	case 1:
		files["README.md"] = "---\ndescription: \"a\\0b\"\n---\n# H\xffme\n\n\xc3(\n"
	case 2:
		files["SUMMARY.md"] = "# Summary\n\n* [Ho\x00me](README.md)\n* [P\xffage](pa\x00ge.md)\n"
		files["pa\x00ge.md"] = "# X\n"
	case 3:
		files["\xff\xfe.md"] = "# Bad name\n"
		files["SUMMARY.md"] = "# Summary\n\n* [Home](README.md)\n* [Bad](\xff\xfe.md)\n"
	case 4:
		files[".gitbook/vars.yaml"] = "vars:\n  a: \"x\\0y\"\n  \"k\\0\": 1\n"
	case 5:
		files["page.md"] = "---\ntitle: \"T\\0\"\nicon: \"\\0\"\nvars:\n  v: \"\\0\"\n---\n# P\n"
	case 6:
		return []byte{0x50, 0x4b, 0x03, 0x04, 0, 0, 0xff}
	}
	var b []byte
	switch contentType {
	case "application/zip":
		b = fuzzZip(files)
	case "application/x-tar":
		b = fuzzTar(files, false)
	default:
		b = fuzzTar(files, true)
	}
	if f.rng.IntN(8) == 0 && len(b) > 10 {
		b = b[:f.rng.IntN(len(b))]
	}
	return b
}

func fuzzZip(files map[string]string) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range sortedKeys(files) {
		w, err := zw.Create(name)
		if err != nil {
			continue
		}
		io.WriteString(w, files[name])
	}
	zw.Close()
	return buf.Bytes()
}

func fuzzTar(files map[string]string, compress bool) []byte {
	var buf bytes.Buffer
	var w io.Writer = &buf
	var gz *gzip.Writer
	if compress {
		gz = gzip.NewWriter(&buf)
		w = gz
	}
	tw := tar.NewWriter(w)
	for _, name := range sortedKeys(files) {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg})
		io.WriteString(tw, files[name])
	}
	tw.Close()
	if gz != nil {
		gz.Close()
	}
	return buf.Bytes()
}
