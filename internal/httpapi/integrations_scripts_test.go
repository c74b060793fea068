package httpapi_test

import (
	"docsd/internal/config"
	"docsd/internal/httpapi"
	"encoding/json"
	"github.com/golang-jwt/jwt/v5"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/jsrun/jsruntest"
)

// scriptEventTrace is the trace of name's newest event of type typ, with its status.
func scriptEventTrace(e *apitest.Env, name, typ string) (string, string) {
	e.T.Helper()
	for _, it := range e.WalkList(e.Admin, "/v1/integrations/"+name+"/events", 100) {
		if it["payload"].(map[string]any)["type"] == typ {
			status, trace := eventTrace(e, name, it["id"].(string))
			return status, strings.Join(trace, "\n")
		}
	}
	e.T.Fatalf("%s has no %s event", name, typ)
	return "", ""
}

// An integration built with @gitbook/runtime as the CLI builds it, published through the API
// and installed on a space, reacts to a change of the space's content by reading the space
// through docsd's API with its installation token: its log line, which only that answer can
// make, lands in the event's trace. Without the scope to read the space, the API answers the
// same script 404 and the event fails.
func TestIntegrationScriptReactsToContentUpdates(t *testing.T) {
	t.Parallel()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	e := apitest.New(t)
	publish(e, "reactor", map[string]any{"script": script})
	publish(e, "blind", map[string]any{"script": script, "scopes": []string{"site:metadata:read"}})
	sp := titledSpace(t, e, "Watched by a script")
	e.RunDue()
	for _, name := range []string{"reactor", "blind"} {
		id := e.Post(e.Admin, "/v1/integrations/"+name+"/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
		e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+id+"/spaces", map[string]any{"space": sp}).Expect(201)
	}
	e.RunDue()
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("p1", "", "One", "one", "Hello.\n").tree)
	deliverAll(e)

	status, trace := scriptEventTrace(e, "reactor", "space_content_updated")
	if status != "success" || !strings.Contains(trace, "space "+sp+" is titled Watched by a script") ||
		!strings.Contains(trace, "follow-up done") || !strings.Contains(trace, "answer 200 from the script") {
		t.Fatalf("reactor: %s\n%s", status, trace)
	}
	// The script's request went through the API (in the process) and is counted in the trace.
	if host := strings.TrimPrefix(e.URL, "http://"); !strings.Contains(trace, "fetch GET "+host+": 200") {
		t.Fatalf("reactor's trace has no request to %s:\n%s", host, trace)
	}
	status, trace = scriptEventTrace(e, "blind", "space_content_updated")
	if status != "failed" || strings.Contains(trace, "is titled") || !strings.Contains(trace, "fetch GET") ||
		!strings.Contains(trace, "answer 500 from the script") {
		t.Fatalf("blind: %s\n%s", status, trace)
	}
}

// The same integration renders its ContentKit component through the render operation, with the
// action applied to its state.
func TestIntegrationScriptRendersComponents(t *testing.T) {
	t.Parallel()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	e := apitest.New(t)
	publish(e, "greeter", map[string]any{"script": script, "contentSecurityPolicy": map[string]string{"frame-src": "https://embed.example.test"}})
	res := e.Post(e.Admin, "/v1/integrations/greeter/render", map[string]any{"componentId": "greeting",
		"props": map[string]any{"name": "Ann"}, "context": map[string]any{"type": "document", "theme": "light"},
		"action": map[string]any{"action": "increment"}}).Expect(200)
	if body := string(res.Body); !strings.Contains(body, `"count":1`) || !strings.Contains(body, `"Ann"`) {
		t.Fatalf("render: %s", body)
	}
	if csp := res.Header.Get("Content-Security-Policy"); csp != "frame-src https://embed.example.test" {
		t.Fatalf("render's Content-Security-Policy %q", csp)
	}
	e.Post(e.Admin, "/v1/integrations/greeter/render", map[string]any{"componentId": "nothing",
		"props": map[string]any{}, "context": map[string]any{"type": "document", "theme": "light"}}).ExpectError(502)
}

// publicCall sends a request without credentials to a public endpoint, as a webhook sender or
// an OAuth provider's redirect would.
func publicCall(t *testing.T, method, url, body string, header map[string]string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

// Requests to an integration's and an installation's urls.publicEndpoint are fetch events: the
// script built with @gitbook/runtime sees the method, path, query, headers and body, and its
// answer (status, headers, body) reaches the caller in a sandbox. Unknown installations are
// 404, a body past the limit 413, a script that throws 502, all in the API's error shape.
func TestIntegrationScriptAnswersPublicEndpoint(t *testing.T) {
	t.Parallel()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	e := apitest.New(t)
	publish(e, "hooked", map[string]any{"script": script})
	publish(e, "other", map[string]any{"script": script})
	publish(e, "thrower", map[string]any{"script": `export default { fetch() { throw new Error("no handler here") } }`})
	inst := e.Post(e.Admin, "/v1/integrations/hooked/installations", map[string]any{"organization": e.Org}).Expect(201)
	endpoint := inst.Str("urls.publicEndpoint")
	otherInst := e.Post(e.Admin, "/v1/integrations/other/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	integrationEndpoint := e.Get(e.Admin, "/v1/integrations/hooked").Expect(200).Str("urls.publicEndpoint")
	if !strings.HasPrefix(endpoint, e.URL+"/v1/integrations/hooked/installations/") || integrationEndpoint != e.URL+"/v1/integrations/hooked/public" {
		t.Fatalf("public endpoints %q and %q", endpoint, integrationEndpoint)
	}

	status, h, body := publicCall(t, "POST", endpoint+"/hook?q=1", `{"hello":"world"}`, map[string]string{"X-Test": "yes", "Content-Type": "application/json"})
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil || status != 202 || h.Get("X-Integration") != "jsrun-test" ||
		!strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("POST: %d %v %s", status, h, body)
	}
	sorted, _ := json.Marshal(got)
	path := strings.TrimPrefix(endpoint, e.URL) + "/hook"
	want := `{"body":{"hello":"world"},"header":"yes","installation":"` + inst.Str("id") + `","method":"POST","path":"` + path + `","q":"1","site":null,"space":null}`
	if string(sorted) != want {
		t.Fatalf("POST answer\ngot  %s\nwant %s", sorted, want)
	}
	status, _, body = publicCall(t, "GET", integrationEndpoint+"?q=2", "", nil)
	if status != 202 || !strings.Contains(body, `"installation":null`) || !strings.Contains(body, `"method":"GET"`) ||
		!strings.Contains(body, `"path":"/v1/integrations/hooked/public"`) || !strings.Contains(body, `"q":"2"`) {
		t.Fatalf("GET on the integration's endpoint: %d %s", status, body)
	}

	for _, c := range []struct {
		method, url, body string
		want              int
		says              string
	}{
		{"GET", e.URL + "/v1/integrations/hooked/installations/nope/public/x", "", 404, "installation nope"},
		{"GET", e.URL + "/v1/integrations/hooked/installations/" + otherInst + "/public", "", 404, "installation " + otherInst},
		{"GET", e.URL + "/v1/integrations/nothing/public", "", 404, "integration nothing"},
		{"POST", endpoint, strings.Repeat("x", httpapi.PublicEndpointBodyBytes+1), 413, "body: at most"},
		{"POST", e.URL + "/v1/integrations/thrower/public/hook", "{}", 502, "no handler here"},
	} {
		status, _, body := publicCall(t, c.method, c.url, c.body, nil)
		var eb struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if status != c.want || json.Unmarshal([]byte(body), &eb) != nil || eb.Error.Code != c.want || !strings.Contains(eb.Error.Message, c.says) {
			t.Errorf("%s %s: %d %s; want %d saying %q", c.method, c.url, status, snippetOf(body), c.want, c.says)
		}
	}
}

func snippetOf(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// The engine's limits are the server's configuration (--script-*): a script answering more
// than the configured response size, or looping past the configured time, fails its public
// endpoint's request with a 502 that names the limit, and the next request runs normally.
func TestIntegrationScriptLimitsAreConfigured(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.Script.ResponseBytes = 100
		c.Script.Time = 300 * time.Millisecond
		c.Script.WarmVMs = 1 // later requests run in VMs loaded ahead, under the same limits
	})
	publish(e, "limited", map[string]any{"script": `export default { async fetch(req) {
		// Without @gitbook/runtime the script reads the event as the runtime would.
		const event = JSON.parse((await req.formData()).get("event"));
		const u = new URL(event.request.url);
		if (u.pathname.endsWith("/big")) return new Response("x".repeat(101));
		if (u.pathname.endsWith("/loop")) for (;;) {}
		return new Response("x".repeat(100));
	} }`})
	base := e.URL + "/v1/integrations/limited/public"
	for _, c := range []struct {
		path string
		want int
		says string
	}{{"/big", 502, "larger than the limit of 100"}, {"/loop", 502, "time limit"}, {"/fits", 200, strings.Repeat("x", 100)}} {
		start := time.Now()
		status, _, body := publicCall(t, "GET", base+c.path, "", nil)
		if status != c.want || !strings.Contains(body, c.says) {
			t.Errorf("%s: %d %s; want %d saying %q", c.path, status, snippetOf(body), c.want, c.says)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s took %s: the configured 300ms time limit did not stop it", c.path, took)
		}
	}
}

var siteScriptTag = regexp.MustCompile(`<script src="([^"]+)" defer></script>`)

// publicGet reads a published site's address without credentials; it fails the test on any
// status but want.
func publicGet(t *testing.T, url string, want int) (http.Header, string) {
	t.Helper()
	status, h, body := publicCall(t, "GET", url, "", nil)
	if status != want {
		t.Fatalf("GET %s: %d, want %d: %s", url, status, want, snippetOf(body))
	}
	return h, body
}

// A site installation of an integration holding site:script:inject puts the script its
// fetch_published_script handler answers (from the site installation's configuration) into the
// published site's pages, served by the site under a version that changes with the
// configuration; the page's Content-Security-Policy lets exactly the site's own scripts run.
// An integration without the scope injects nothing.
func TestIntegrationScriptInjectedIntoPublishedSite(t *testing.T) {
	t.Parallel()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	st := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs", "spaces": []string{sp}}).Expect(201)
	siteID := st.Str("id")
	e.Post(e.Admin, sitesPath(e)+"/"+siteID+"/publish", nil).Expect(200)
	siteConf := map[string]any{"site": map[string]any{"properties": map[string]any{"trackingId": map[string]any{"type": "string"}}}}
	publish(e, "tracker", map[string]any{"script": script, "scopes": []string{"site:script:inject"}, "configurations": siteConf})
	publish(e, "quiet", map[string]any{"script": script, "scopes": []string{"site:metadata:read"}, "configurations": siteConf})
	var tracker string
	for _, name := range []string{"tracker", "quiet"} {
		in := e.Post(e.Admin, "/v1/integrations/"+name+"/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
		e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/sites", map[string]any{"siteId": siteID}).Expect(201)
		e.Patch(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/sites/"+siteID, map[string]any{"configuration": map[string]any{"trackingId": "T-42"}}).Expect(200)
		if name == "tracker" {
			tracker = in
		}
	}
	siteURL := e.URL + "/sites/" + e.Org + "/" + st.Str("basename") + "/"

	scriptOf := func() (string, string) {
		t.Helper()
		h, page := publicGet(t, siteURL, 200)
		tags := siteScriptTag.FindAllStringSubmatch(page, -1)
		if len(tags) != 1 || !strings.HasPrefix(tags[0][1], "/sites/"+e.Org+"/"+st.Str("basename")+"/~integrations/"+tracker+"/script.js?v=") {
			t.Fatalf("script tags %q in the page", tags)
		}
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "default-src 'none'") {
			t.Fatalf("page CSP %q", csp)
		}
		src := html.UnescapeString(tags[0][1])
		sh, body := publicGet(t, e.URL+src, 200)
		if !strings.Contains(sh.Get("Content-Type"), "javascript") || sh.Get("Cache-Control") != "max-age=60" {
			t.Fatalf("script headers %v", sh)
		}
		return src, body
	}
	src, body := scriptOf()
	if !strings.HasPrefix(body, `window.docsdTracking = "T-42";`) {
		t.Fatalf("script %q", body)
	}
	// Another configuration is another version, and the script answers it.
	e.Patch(e.Admin, "/v1/integrations/tracker/installations/"+tracker+"/sites/"+siteID, map[string]any{"configuration": map[string]any{"trackingId": "T-43"}}).Expect(200)
	src2, body := scriptOf()
	if src2 == src || !strings.HasPrefix(body, `window.docsdTracking = "T-43";`) {
		t.Fatalf("after the configuration changed: %s %q", src2, body)
	}
	// The integration without the scope serves no script on the site.
	quiet := e.Get(e.Admin, "/v1/integrations/quiet/installations").Expect(200).Str("items.0.id")
	publicGet(t, siteURL+"~integrations/"+quiet+"/script.js", 404)
	publicGet(t, siteURL+"~integrations/nope/script.js", 404)
}

// A visitor-auth site whose backend is "integration" sends a reader without a token to what
// the site installation's script answers to fetch_visitor_authentication (here a redirect to
// the identity provider carrying the token the integration signed with its site installation's
// signing secret, as the provider would hand it back); that token admits the reader, with its
// claims, while one signed with the site's own key does not. With no such installation, no
// reader gets in.
func TestIntegrationScriptAuthenticatesSiteVisitors(t *testing.T) {
	t.Parallel()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	st := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs", "spaces": []string{sp}}).Expect(201)
	siteID := st.Str("id")
	sitePath := sitesPath(e) + "/" + siteID
	e.Post(e.Admin, sitePath+"/publish", nil).Expect(200)
	e.Patch(e.Admin, sitePath, map[string]any{"visibility": "visitor-auth"}).Expect(200)
	e.Patch(e.Admin, sitePath+"/publishing/auth", map[string]any{"backend": "integration"}).Expect(200)
	siteKey := e.Get(e.Admin, sitePath+"/publishing/auth").Expect(200).Str("privateKey")
	siteURL := "/sites/" + e.Org + "/" + st.Str("basename") + "/"

	// Nothing authenticates the readers yet.
	newReader(t, e).get(siteURL).expect(t, 401)

	publish(e, "gatekeeper", map[string]any{"script": script, "scopes": []string{"site:visitor:auth"}})
	in := e.Post(e.Admin, "/v1/integrations/gatekeeper/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Post(e.Admin, "/v1/integrations/gatekeeper/installations/"+in+"/sites", map[string]any{"siteId": siteID}).Expect(201)

	rd := newReader(t, e)
	p := rd.get(siteURL).expect(t, 302)
	loc, err := url.Parse(p.Header.Get("Location"))
	if err != nil || loc.Host != "idp.example.test" || loc.Query().Get("return") != siteURL || loc.Query().Get("token") == "" {
		t.Fatalf("the reader was sent to %q", p.Header.Get("Location"))
	}
	token := loc.Query().Get("token")

	// A token of the site's own key is not the integration's.
	own, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": e.Clock.Now().Add(time.Hour).Unix()}).SignedString([]byte(siteKey))
	if err != nil {
		t.Fatal(err)
	}
	other := newReader(t, e)
	if p := other.get(siteURL+"?jwt_token="+own).expect(t, 302); !strings.Contains(p.Header.Get("Location"), "idp.example.test") {
		t.Fatalf("a token of the site's key: sent to %q", p.Header.Get("Location"))
	}

	// The URL resolution API checks the same tokens by the same key.
	resolve := func(tok string) *apitest.Resp {
		return e.Get(e.Admin, "/v1/urls/published?url="+url.QueryEscape(e.URL+siteURL)+"&visitorAuthToken="+url.QueryEscape(tok))
	}
	if r := resolve(token).Expect(200); r.Str("site") != siteID || r.Str("space") != sp {
		t.Fatalf("resolved with the integration's token: %s", r.Body)
	}
	resolve(own).ExpectError(401)

	rd.get(siteURL+"?jwt_token="+url.QueryEscape(token)).expect(t, 303)
	if p := rd.get(siteURL).expect(t, 200); !strings.Contains(p.Body, "<h1>") {
		t.Fatalf("the admitted reader's page: %.300s", p.Body)
	}
	// The token the reader was admitted with carries the claims the script signed.
	claims := jwt.MapClaims{}
	if _, _, err := jwt.NewParser().ParseUnverified(token, claims); err != nil || claims["sub"] != "reader" || claims["site"] != siteID {
		t.Fatalf("claims %v %v", claims, err)
	}

	// Uninstalled, the integration admits no one, even with its token.
	e.Delete(e.Admin, "/v1/integrations/gatekeeper/installations/"+in+"/sites/"+siteID).Expect(205)
	rd.get(siteURL).expect(t, 401)
	resolve(token).ExpectError(401)
}
