package httpapi_test

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/config"
	"docsd/internal/store"
)

const swagger2Doc = `swagger: "2.0"
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      responses:
        200:
          description: The pets
          schema: {type: array, items: {$ref: "#/definitions/Pet"}}
definitions:
  Pet: {type: object, required: [name], properties: {name: {type: string}}}
`

const openAPI30Doc = `openapi: 3.0.3
info: {title: Pets, version: "1"}
paths:
  /pets:
    get:
      parameters:
        - {name: limit, in: query, schema: {type: integer}}
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema: {type: array, items: {$ref: "schemas/pet.yaml#/Pet"}}
`

const petSchemas = `Pet:
  type: object
  required: [name]
  properties:
    name: {type: string}
    kind: {type: string, enum: [cat, dog]}
`

const openAPI31Doc = `{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
 "paths": {"/pets": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}},
   "responses": {"201": {"description": "Made"}}}}},
 "components": {"schemas": {"Pet": {"type": "object", "properties": {"name": {"type": ["string", "null"]}}}}}}`

// specServer serves documents by path on loopback, counting requests and honouring
// If-None-Match with the ETag it sends; its files can be changed while it runs.
type specServer struct {
	*httptest.Server
	mu    sync.Mutex
	files map[string]string
	hits  atomic.Int64
}

func newSpecServer(t *testing.T, files map[string]string) *specServer {
	s := &specServer{files: files}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		s.mu.Lock()
		body, ok := s.files[strings.TrimPrefix(r.URL.Path, "/")]
		s.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		etag := `"` + apitestHash(body) + `"`
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Write([]byte(body))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *specServer) set(name, body string) {
	s.mu.Lock()
	s.files[name] = body
	s.mu.Unlock()
}

func apitestHash(s string) string { return fmt.Sprintf("%x", sha256.Sum256([]byte(s)))[:16] }

func specPath(e *apitest.Env, slug string) string { return "/v1/orgs/" + e.Org + "/openapi/" + slug }

// processed runs the due jobs and returns the spec, which must be complete by then.
func processed(t *testing.T, e *apitest.Env, slug string) *apitest.Resp {
	t.Helper()
	e.RunDue()
	var r *apitest.Resp
	for range 100 {
		r = e.Get(e.Admin, specPath(e, slug)).Expect(200)
		if r.Str("processingState") == "complete" {
			return r
		}
		time.Sleep(50 * time.Millisecond)
		e.RunDue()
	}
	t.Fatalf("spec %s still %s", slug, r.Str("processingState"))
	return r
}

func TestIntegrationOpenAPISpecsAPI(t *testing.T) {
	e := apitest.New(t)
	base := "/v1/orgs/" + e.Org + "/openapi"

	t.Run("create from text, then read it, its versions and content", func(t *testing.T) {
		r := e.Post(e.Admin, base, map[string]any{"slug": "pets", "source": map[string]any{"text": openAPI31Doc}}).Expect(201)
		if r.Str("object") != "openapi-spec" || r.Str("slug") != "pets" || r.Str("processingState") != "pending" || r.Str("visibility") != "private" {
			t.Fatalf("created: %v", r.Map())
		}
		if !r.Bool("permissions.edit") || r.Has("urls.published") {
			t.Errorf("permissions or urls: %v", r.Map())
		}
		got := processed(t, e, "pets")
		ver := got.Str("lastVersion")
		if ver == "" || got.Has("lastProcessErrorCode") || !got.Has("lastProcessedAt") {
			t.Fatalf("after processing: %v", got.Map())
		}
		vs := e.Get(e.Admin, base+"/pets/versions").Expect(200)
		if ids := vs.IDs(); len(ids) != 1 || ids[0] != ver {
			t.Fatalf("versions %v, want [%s]", ids, ver)
		}
		latest := e.Get(e.Admin, base+"/pets/versions/latest").Expect(200)
		if latest.Str("id") != ver || latest.Str("object") != "openapi-spec-version" {
			t.Errorf("latest: %v", latest.Map())
		}
		e.Get(e.Admin, base+"/pets/versions/"+ver).Expect(200)
		c := e.Get(e.Admin, base+"/pets/versions/latest/content").Expect(200)
		if fs, _ := c.Get("filesystem"); fs.(map[string]any)["openapi.json"] != openAPI31Doc {
			t.Errorf("content filesystem: %v", fs)
		}
		e.Get(e.Admin, base+"/pets/versions/"+ver+"/content").Expect(200)
		raw := e.Get(e.Admin, base+"/pets/versions/latest/content/raw").Expect(200)
		if raw.Str("text") != openAPI31Doc || raw.Str("format") != "json" {
			t.Errorf("raw content: %v", raw.Map())
		}
		e.Get(e.Admin, base+"/pets/versions/nope").ExpectError(404)
		e.Get(e.Admin, base+"/pets/versions/nope/content").ExpectError(404)
	})

	t.Run("bad slugs and sources are 400, a taken slug 409", func(t *testing.T) {
		for _, slug := range []string{"", "Upper", "a--b", "-a", strings.Repeat("a", 101), "a_b"} {
			e.Post(e.Admin, base, map[string]any{"slug": slug, "source": map[string]any{"text": "x"}}).ExpectError(400).ExpectMessage("slug")
		}
		e.Post(e.Admin, base, map[string]any{"slug": "ok", "source": map[string]any{}}).ExpectError(400).ExpectMessage("source")
		e.Post(e.Admin, base, map[string]any{"slug": "ok", "source": map[string]any{"url": "ftp://x/y"}}).ExpectError(400).ExpectMessage("source.url")
		e.Post(e.Admin, base, map[string]any{"slug": "ok"}).ExpectError(400).ExpectMessage("source")
		e.Post(e.Admin, base, map[string]any{"slug": strings.Repeat("a", 100), "source": map[string]any{"text": openAPI31Doc}}).Expect(201)
		e.Post(e.Admin, base, map[string]any{"slug": "pets", "source": map[string]any{"text": openAPI31Doc}}).ExpectError(409)
	})

	t.Run("PUT creates, then updates; PATCH sets visibility", func(t *testing.T) {
		e.Put(e.Admin, base+"/put-made", map[string]any{"source": map[string]any{"text": openAPI31Doc}}).Expect(201)
		r := e.Put(e.Admin, base+"/put-made", map[string]any{"source": map[string]any{"text": swagger2Doc}}).Expect(200)
		if r.Str("processingState") != "pending" {
			t.Errorf("after PUT: %s", r.Str("processingState"))
		}
		processed(t, e, "put-made")
		p := e.Patch(e.Admin, base+"/put-made", map[string]any{"visibility": "public"}).Expect(200)
		if p.Str("visibility") != "public" || p.Str("urls.published") == "" {
			t.Errorf("public: %v", p.Map())
		}
		e.Patch(e.Admin, base+"/put-made", map[string]any{"visibility": "secret"}).ExpectError(400)
		e.Patch(e.Admin, base+"/put-made", map[string]any{}).ExpectError(400)
		e.Patch(e.Admin, base+"/absent", map[string]any{"visibility": "public"}).ExpectError(404)
	})

	t.Run("list pages through every spec by slug", func(t *testing.T) {
		items := e.WalkList(e.Admin, base, 1)
		var slugs []string
		for _, it := range items {
			slugs = append(slugs, it["slug"].(string))
		}
		if len(slugs) != 3 || slugs[1] != "pets" || slugs[2] != "put-made" {
			t.Errorf("slugs %v", slugs)
		}
	})

	t.Run("delete is 204, also when absent; versions of a gone spec are 404", func(t *testing.T) {
		e.Delete(e.Admin, base+"/pets").Expect(204)
		e.Delete(e.Admin, base+"/pets").Expect(204)
		e.Get(e.Admin, base+"/pets").ExpectError(404)
		e.Get(e.Admin, base+"/pets/versions").ExpectError(404)
		e.Get(e.Admin, base+"/pets/versions/latest").ExpectError(404)
		e.Get(e.Admin, base+"/pets/versions/latest/content/raw").ExpectError(404)
	})

	t.Run("outsiders get 404, readers may not change specs", func(t *testing.T) {
		outsider := e.NewUser("outsider")
		e.Get(outsider, base+"/put-made").ExpectError(404)
		e.Get(outsider, base).ExpectError(404)
		e.Delete(outsider, base+"/put-made").ExpectError(404)
		reader := e.Member("reader", auth.Read)
		r := e.Get(reader, base+"/put-made").Expect(200)
		if r.Bool("permissions.edit") || !r.Bool("permissions.view") {
			t.Errorf("reader's permissions: %v", r.Map())
		}
		e.Put(reader, base+"/put-made", map[string]any{"source": map[string]any{"text": openAPI31Doc}}).ExpectError(403)
		e.Delete(reader, base+"/put-made").ExpectError(403)
	})
}

func TestIntegrationOpenAPISpecProcessing(t *testing.T) {
	srv := newSpecServer(t, map[string]string{
		"v2/swagger.yaml":      swagger2Doc,
		"v3/openapi.yaml":      openAPI30Doc,
		"v3/schemas/pet.yaml":  petSchemas,
		"v31/openapi.json":     openAPI31Doc,
		"broken/openapi.yaml":  "openapi: 3.0.3\ninfo:\n  title: x\n   bad: 1\npaths: {}\n",
		"notspec/openapi.yaml": "title: nothing\n",
		"badref/openapi.yaml":  strings.Replace(openAPI30Doc, "schemas/pet.yaml", "schemas/missing.yaml", 1),
		"outside/openapi.yaml": strings.Replace(openAPI30Doc, "schemas/pet.yaml", "../v3/schemas/pet.yaml", 1),
	})
	e := apitest.New(t)
	base := "/v1/orgs/" + e.Org + "/openapi"
	create := func(slug, path string) {
		t.Helper()
		e.Post(e.Admin, base, map[string]any{"slug": slug, "source": map[string]any{"url": srv.URL + "/" + path}}).Expect(201)
	}

	t.Run("Swagger 2.0, OpenAPI 3.0 YAML with an external $ref, 3.1 JSON make a version each", func(t *testing.T) {
		create("swagger", "v2/swagger.yaml")
		create("three", "v3/openapi.yaml")
		create("three-one", "v31/openapi.json")
		for _, slug := range []string{"swagger", "three", "three-one"} {
			r := processed(t, e, slug)
			if r.Str("lastVersion") == "" || r.Has("lastProcessErrorCode") {
				t.Errorf("%s: %v", slug, r.Map())
			}
		}
		c := e.Get(e.Admin, base+"/three/versions/latest/content").Expect(200)
		fs, _ := c.Get("filesystem")
		files := fs.(map[string]any)
		if files["openapi.yaml"] != openAPI30Doc || files["schemas/pet.yaml"] != petSchemas || len(files) != 2 {
			t.Errorf("filesystem: %v", files)
		}
		if c.Str("url") != srv.URL+"/v3/openapi.yaml" {
			t.Errorf("url %s", c.Str("url"))
		}
	})

	t.Run("an unchanged refresh makes no version; a changed one does", func(t *testing.T) {
		before := processed(t, e, "three")
		e.Put(e.Admin, base+"/three", map[string]any{"source": map[string]any{"url": srv.URL + "/v3/openapi.yaml"}}).Expect(200)
		after := processed(t, e, "three")
		if after.Str("lastVersion") != before.Str("lastVersion") || after.Str("updatedAt") == "" {
			t.Fatalf("unchanged PUT moved the version: %s → %s", before.Str("lastVersion"), after.Str("lastVersion"))
		}
		// The schedule: past the interval, a conditional fetch answered 304 changes nothing.
		hits := srv.hits.Load()
		e.Clock.Advance(7 * time.Hour)
		e.App.OpenAPI.HandleRefresh(6*time.Hour)(t.Context(), nil)
		again := processed(t, e, "three")
		if srv.hits.Load() == hits {
			t.Fatal("the refresh fetched nothing")
		}
		if again.Str("lastVersion") != before.Str("lastVersion") || again.Str("lastProcessedAt") == after.Str("lastProcessedAt") {
			t.Errorf("unchanged refresh: version %s→%s, processed %s→%s", before.Str("lastVersion"), again.Str("lastVersion"), after.Str("lastProcessedAt"), again.Str("lastProcessedAt"))
		}
		srv.set("v3/schemas/pet.yaml", petSchemas+"    age: {type: integer}\n")
		e.Clock.Advance(7 * time.Hour)
		e.App.OpenAPI.HandleRefresh(6*time.Hour)(t.Context(), nil)
		changed := processed(t, e, "three")
		if changed.Str("lastVersion") == before.Str("lastVersion") {
			t.Fatal("a changed referenced file made no version")
		}
		if n := len(e.Get(e.Admin, base+"/three/versions").IDs()); n != 2 {
			t.Errorf("%d versions, want 2", n)
		}
	})

	t.Run("a broken document is PARSE_ERROR with a location; the previous version stays", func(t *testing.T) {
		create("broken", "broken/openapi.yaml")
		r := processed(t, e, "broken")
		if r.Str("lastProcessErrorCode") != "PARSE_ERROR" || r.Has("lastVersion") {
			t.Fatalf("broken: %v", r.Map())
		}
		if msg := r.Str("lastProcessedErrors.0.message"); !strings.Contains(msg, "openapi.yaml") || !strings.Contains(msg, "line 4") {
			t.Errorf("message %q names no location", msg)
		}
		good := processed(t, e, "swagger").Str("lastVersion")
		e.Put(e.Admin, base+"/swagger", map[string]any{"source": map[string]any{"url": srv.URL + "/notspec/openapi.yaml"}}).Expect(200)
		r = processed(t, e, "swagger")
		if r.Str("lastProcessErrorCode") != "PARSE_ERROR" || r.Str("lastVersion") != good {
			t.Fatalf("not a spec: %v", r.Map())
		}
		e.Get(e.Admin, base+"/swagger/versions/latest").Expect(200)
		for slug, want := range map[string]string{"badref": "schemas/missing.yaml", "outside": "leaves"} {
			create(slug, slug+"/openapi.yaml")
			r := processed(t, e, slug)
			if r.Str("lastProcessErrorCode") == "" || !strings.Contains(r.Str("lastProcessedErrors.0.message"), want) {
				t.Errorf("%s: %v", slug, r.Map())
			}
		}
		e.Post(e.Admin, base, map[string]any{"slug": "textref", "source": map[string]any{"text": openAPI30Doc}}).Expect(201)
		if r := processed(t, e, "textref"); r.Str("lastProcessErrorCode") != "PARSE_ERROR" || !strings.Contains(r.Str("lastProcessedErrors.0.message"), "/$ref") {
			t.Errorf("text with a file reference: %v", r.Map())
		}
	})

	t.Run("a public spec's latest files are readable without a token; a private one is 404", func(t *testing.T) {
		p := e.Patch(e.Admin, base+"/three", map[string]any{"visibility": "public"}).Expect(200)
		pub := p.Str("urls.published")
		res, err := http.Get(pub)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("published entry: %d", res.StatusCode)
		}
		res, err = http.Get(pub + "schemas/pet.yaml")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("published referenced file: %d", res.StatusCode)
		}
		e.Patch(e.Admin, base+"/three", map[string]any{"visibility": "private"}).Expect(200)
		res, err = http.Get(pub)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 404 {
			t.Fatalf("private spec's published URL: %d, want 404", res.StatusCode)
		}
	})
}

func TestIntegrationOpenAPISpecFetchFailures(t *testing.T) {
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(silent.Close)
	t.Cleanup(func() { close(release) })
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://127.0.0.1:9/openapi.yaml", http.StatusFound)
	}))
	t.Cleanup(redirecting.Close)
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.FetchAllowPrivate = false
		c.OpenAPIFetchTimeout = time.Second
		c.FetchTestPublic = []netip.AddrPort{
			netip.MustParseAddrPort(strings.TrimPrefix(silent.URL, "http://")),
			netip.MustParseAddrPort(strings.TrimPrefix(redirecting.URL, "http://")),
		}
	})
	base := "/v1/orgs/" + e.Org + "/openapi"

	t.Run("a server that never answers is FETCH_TIMEOUT within the configured timeout", func(t *testing.T) {
		e.Post(e.Admin, base, map[string]any{"slug": "silent", "source": map[string]any{"url": silent.URL + "/openapi.yaml"}}).Expect(201)
		start := time.Now()
		r := processed(t, e, "silent")
		took := time.Since(start)
		if took > 5*time.Second {
			t.Errorf("took %s with a 1s timeout", took)
		}
		t.Logf("FETCH_TIMEOUT recorded %s after the job started, with a 1s timeout", took.Round(time.Millisecond))
		if r.Str("lastProcessErrorCode") != "FETCH_TIMEOUT" {
			t.Fatalf("silent: %v", r.Map())
		}
	})

	t.Run("a redirect to a private address is refused", func(t *testing.T) {
		e.Post(e.Admin, base, map[string]any{"slug": "redirect", "source": map[string]any{"url": redirecting.URL + "/openapi.yaml"}}).Expect(201)
		r := processed(t, e, "redirect")
		if r.Str("lastProcessErrorCode") != "FETCH_ERROR" || !strings.Contains(r.Str("lastProcessedErrors.0.message"), "loopback") {
			t.Fatalf("redirect: %v", r.Map())
		}
	})

	t.Run("a job that fails for good leaves the spec complete with an error, not in progress", func(t *testing.T) {
		r := e.Post(e.Admin, base, map[string]any{"slug": "doomed", "source": map[string]any{"text": openAPI31Doc}}).Expect(201)
		processed(t, e, "doomed")
		// A worker took the job and stopped for good while it was in progress.
		if ok, err := (store.OpenAPISpecs{DB: e.App.DB}).StartProcessing(t.Context(), e.Clock.Now(), r.Str("id"), 1); !ok || err != nil {
			t.Fatalf("start processing: %v %v", ok, err)
		}
		e.App.OpenAPI.OnProcessFailed(t.Context(), []byte(`{"spec":"`+r.Str("id")+`","generation":1}`), errors.New("database gone"))
		got := e.Get(e.Admin, base+"/doomed").Expect(200)
		if got.Str("processingState") != "complete" || got.Str("lastProcessErrorCode") != "FETCH_ERROR" {
			t.Fatalf("after a failed job: %v", got.Map())
		}
	})

	t.Run("a loopback source is refused by the policy", func(t *testing.T) {
		e.Post(e.Admin, base, map[string]any{"slug": "loop", "source": map[string]any{"url": "http://127.0.0.1:9/openapi.yaml"}}).Expect(201)
		if r := processed(t, e, "loop"); r.Str("lastProcessErrorCode") != "FETCH_ERROR" {
			t.Fatalf("loopback: %v", r.Map())
		}
	})
}
