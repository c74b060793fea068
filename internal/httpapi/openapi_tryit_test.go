package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/site"

	"github.com/chromedp/chromedp"
)

// petAPI is the API a spec describes, on loopback: it answers POST /v1/pets/{id} with what it
// received, allows any origin (CORS, with its preflight) and records the requests it got.
type petAPI struct {
	*httptest.Server
	mu   sync.Mutex
	seen []string // "METHOD path?query body"
}

func newPetAPI(t *testing.T) *petAPI {
	a := &petAPI{}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Expose-Headers", "X-Pet-Server")
		if r.Method == http.MethodOptions {
			w.Header().Set("Access-Control-Allow-Methods", "GET, POST")
			w.Header().Set("Access-Control-Allow-Headers", "Content-Type, X-Request-Tag")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		a.mu.Lock()
		a.seen = append(a.seen, r.Method+" "+r.URL.RequestURI()+" "+r.Header.Get("X-Request-Tag")+" "+string(body))
		a.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Pet-Server", "loopback")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"renamed": strings.TrimPrefix(r.URL.Path, "/v1/pets/"), "received": json.RawMessage(body)})
	}))
	t.Cleanup(a.Close)
	return a
}

func (a *petAPI) requests() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.seen...)
}

func tryItDoc(server string) string {
	return `openapi: 3.0.3
info: {title: Pets, version: "1"}
servers: [{url: "` + server + `/v1"}]
paths:
  /pets/{petId}:
    post:
      summary: Rename a pet
      parameters:
        - {name: petId, in: path, required: true, schema: {type: string, example: rex}}
        - {name: notify, in: query, schema: {type: string, enum: [owner, nobody]}}
        - {name: X-Request-Tag, in: header, schema: {type: string, example: tagged}}
      requestBody:
        content:
          application/json:
            schema: {type: object, required: [name], properties: {name: {type: string, example: Rex}}}
      responses:
        "201": {description: Renamed}
`
}

// tryItSite publishes a site with two pages that embed the same operation: "public" from a
// public spec and "private" from a private one.
func tryItSite(t *testing.T, e *apitest.Env, server string) *siteFixture {
	for _, slug := range []string{"pets-public", "pets-private"} {
		e.Post(e.Admin, "/v1/orgs/"+e.Org+"/openapi", map[string]any{"slug": slug, "source": map[string]any{"text": tryItDoc(server)}}).Expect(201)
		processed(t, e, slug)
	}
	e.Patch(e.Admin, specPath(e, "pets-public"), map[string]any{"visibility": "public"}).Expect(200)
	block := func(slug string) string {
		return "{% openapi-operation spec=\"" + slug + "\" path=\"/pets/{petId}\" method=\"post\" %}\n{% endopenapi-operation %}\n"
	}
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "API"})
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("pub", "", "Public", "public", "# Public\n\n"+block("pets-public")).
		doc("priv", "", "Private", "private", "# Private\n\n"+block("pets-private")).tree)
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace(f.section("", "API", "api", true, nil), sp, "", true, nil)
	return f
}

var tryItScriptSrc = regexp.MustCompile(`<script src="([^"]*~assets/openapi-tryit\.[0-9a-f]{12}\.js)" defer></script>`)

// TestIntegrationOpenAPITryItPanel serves the pages of tryItSite: the public spec's operation
// carries a "try it" panel and loads docsd's own script, which the page's CSP allows from the
// site's origin only (no inline script, no eval), with connect-src the spec's server; the
// script is served with a year's cache under its hash. The private spec's page has no panel,
// no script, and a CSP that allows none.
func TestIntegrationOpenAPITryItPanel(t *testing.T) {
	e := apitest.New(t)
	f := tryItSite(t, e, "https://pets.example.com:8443")
	rd := newReader(t, e)

	pub := rd.get(f.path("public")).expect(t, 200)
	for _, want := range []string{`class="openapi-tryit" data-origin="https://pets.example.com:8443" data-server="https://pets.example.com:8443/v1" data-method="POST" data-path="/pets/{petId}" hidden=""`,
		`data-in="path" data-name="petId" value="rex"`, `data-in="query" data-name="notify" value="owner"`,
		`data-in="header" data-name="X-Request-Tag" value="tagged"`, `data-body="application/json"`, `&#34;name&#34;: &#34;Rex&#34;`,
		`class="openapi-tryit-send"`} {
		if !strings.Contains(pub.Body, want) {
			t.Errorf("the public spec's page lacks %s", want)
		}
	}
	m := tryItScriptSrc.FindStringSubmatch(pub.Body)
	if m == nil {
		t.Fatalf("the public spec's page loads no try-it script: %.3000s", pub.Body)
	}
	csp := pub.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self';") || !strings.Contains(csp, "connect-src https://pets.example.com:8443;") ||
		!strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
		t.Errorf("CSP of the public spec's page: %s", csp)
	}
	if strings.Count(pub.Body, "<script") != 1 {
		t.Errorf("the page has %d scripts, want only the try-it one", strings.Count(pub.Body, "<script"))
	}

	js := rd.get(strings.TrimPrefix(m[1], "")).expect(t, 200)
	if ct := js.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/javascript") {
		t.Errorf("script Content-Type %q", ct)
	}
	if cc := js.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Errorf("script Cache-Control %q", cc)
	}
	if !strings.Contains(js.Body, ".openapi-tryit-send") || strings.Contains(js.Body, "eval(") || strings.Contains(js.Body, "new Function") {
		t.Errorf("script body: %.300s", js.Body)
	}
	rd.header.Set("If-None-Match", js.Header.Get("ETag"))
	rd.get(m[1]).expect(t, 304)
	rd.header.Del("If-None-Match")
	rd.get(f.path("~assets/openapi-tryit.000000000000.js")).expect(t, 404)

	priv := rd.get(f.path("private")).expect(t, 200)
	if strings.Contains(priv.Body, `class="openapi-tryit"`) || strings.Contains(priv.Body, "<script") {
		t.Errorf("the private spec's page has a panel or a script: %.3000s", priv.Body)
	}
	if !strings.Contains(priv.Body, "Rename a pet") {
		t.Error("the private spec's operation is not rendered")
	}
	if csp := priv.Header.Get("Content-Security-Policy"); strings.Contains(csp, "script-src") || strings.Contains(csp, "connect-src") {
		t.Errorf("CSP of the private spec's page allows scripts: %s", csp)
	}

	// Served again from the page cache, the public page keeps its CSP.
	if again := rd.get(f.path("public")).expect(t, 200); again.Header.Get("Content-Security-Policy") != csp && !strings.Contains(again.Header.Get("Content-Security-Policy"), "connect-src https://pets.example.com:8443;") {
		t.Errorf("CSP served from the cache: %s", again.Header.Get("Content-Security-Policy"))
	}
	// A spec made private loses its panel on the next view.
	e.Patch(e.Admin, specPath(e, "pets-public"), map[string]any{"visibility": "private"}).Expect(200)
	if p := rd.get(f.path("public")).expect(t, 200); strings.Contains(p.Body, `class="openapi-tryit"`) || strings.Contains(p.Header.Get("Content-Security-Policy"), "script-src") {
		t.Error("the panel stays after the spec became private")
	}
}

// TestOpenAPITryItInARealBrowser opens tryItSite's pages in headless Chromium: on the public
// spec's page the panel shows (its script ran under the page's CSP), the reader changes the
// pet's id and sends; the request reaches the spec's server on loopback from the browser and
// its answer's status, headers and body show, with no CSP violation. The private spec's page
// has no panel and runs no script. A screenshot is saved (openapi-tryit.png).
func TestOpenAPITryItInARealBrowser(t *testing.T) {
	chrome := chromiumPath()
	if chrome == "" {
		t.Skip("no chromium on PATH: install it (apt-get install -y chromium, as .ci/run does) to run the real-browser test")
	}
	api := newPetAPI(t)
	e := apitest.New(t)
	f := tryItSite(t, e, api.URL)

	ctx := browserContext(t, chrome)

	url := e.URL + f.path("public")
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(1280, 1200),
		chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS(".openapi-tryit")),
	); err != nil {
		t.Fatalf("open %s: the panel never showed: %v", url, err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.__violations = [], document.addEventListener("securitypolicyviolation", e => window.__violations.push(e.violatedDirective + " " + e.blockedURI)), true)`)); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx,
		chromedp.SetValue(chromedp.CSS(`.openapi-tryit input[data-name="petId"]`), "fido"),
		chromedp.Click(chromedp.CSS(".openapi-tryit-send")),
		chromedp.WaitVisible(chromedp.CSS(".openapi-tryit-answer")),
	); err != nil {
		t.Fatal(err)
	}
	status := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".openapi-tryit-status").textContent`))
		if err != nil {
			t.Fatal(err)
		}
		if status = s; !strings.HasPrefix(s, "Sending") && s != "" {
			break
		}
	}
	if !strings.HasPrefix(status, "201") {
		t.Fatalf("status shown %q, want 201", status)
	}
	headers, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".openapi-tryit-headers").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	body, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector(".openapi-tryit-body").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(headers, "x-pet-server: loopback") || !strings.Contains(headers, "content-type: application/json") {
		t.Errorf("headers shown: %q", headers)
	}
	if !strings.Contains(body, `"renamed": "fido"`) || !strings.Contains(body, `"name": "Rex"`) {
		t.Errorf("body shown: %q", body)
	}
	seen := api.requests()
	if len(seen) != 1 || !strings.HasPrefix(seen[0], "POST /v1/pets/fido?notify=owner tagged {") || !strings.Contains(seen[0], `"name": "Rex"`) {
		t.Errorf("the API received %q", seen)
	}
	violations, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`window.__violations`))
	if err != nil {
		t.Fatal(err)
	}
	if len(violations) != 0 {
		t.Errorf("CSP violations: %v", violations)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}

	if err := chromedp.Do(ctx,
		chromedp.Navigate(e.URL+f.path("private")),
		chromedp.WaitVisible(chromedp.CSS(".openapi-operation")),
	); err != nil {
		t.Fatal(err)
	}
	none, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector(".openapi-tryit") === null && document.scripts.length === 0`))
	if err != nil {
		t.Fatal(err)
	}
	if !none {
		t.Error("the private spec's page has a try-it panel or a script")
	}
	if len(api.requests()) != 1 {
		t.Errorf("the API was called %d times, want 1", len(api.requests()))
	}

	dir := t.TempDir()
	if keep := os.Getenv("DOCSD_TEST_ARTIFACTS"); keep != "" {
		dir = keep
	}
	if err := os.WriteFile(filepath.Join(dir, "openapi-tryit.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}
