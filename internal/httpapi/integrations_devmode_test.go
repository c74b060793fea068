package httpapi_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/integration"
	"docsd/internal/jsrun"
	"docsd/internal/jsrun/jsruntest"
)

// The synchronous events in development mode (`gitbook dev`): a render, a published page's
// block and site script, a visitor-auth site's sign-in go to the developer's tunnel, which
// here hands them to the test integration built with @gitbook/runtime (test/jsrun/integration)
// as the CLI's tunnel hands them to its local server; what the runtime answers is what the
// caller sees. The published script answers each event "from the script", so every answer
// says where it came from.

// devScript is the published script: it answers every synchronous event in a way no answer
// of the runtime behind the tunnel looks like.
const devScript = `export default { async fetch(request) {
  const event = JSON.parse((await request.formData()).get('event'));
  switch (event.type) {
  case 'ui_render':
    return Response.json({ type: 'element', state: {}, props: event.props,
      element: { type: 'block', children: [{ type: 'text', children: 'from the script' }] } });
  case 'fetch_published_script':
    return new Response('window.fromScript = true;', { headers: { 'Content-Type': 'application/javascript' } });
  case 'fetch_visitor_authentication':
    return Response.redirect('https://script-idp.example.test/login', 302);
  }
  return new Response('from the script');
} }`

// runtimeBehind is the developer's local server behind the tunnel: it runs script (a bundle
// made with @gitbook/runtime) on each request exactly as it arrived, method, URL, headers and
// body, and answers what the script answers.
func runtimeBehind(t *testing.T, script string) http.Handler {
	t.Helper()
	runner := jsrun.NewRunner(nil, jsrun.Limits{Time: 5 * time.Second})
	prepared, err := runner.Prepare(script)
	if err != nil {
		t.Fatal(err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		res, _, err := runner.Invoke(r.Context(), prepared, jsrun.Request{Method: r.Method, URL: "http://" + r.Host + r.URL.RequestURI(),
			Headers: r.Header, Body: body}, map[string]any{})
		if err != nil {
			http.Error(w, "the local server failed: "+err.Error(), http.StatusInternalServerError)
			return
		}
		for k, v := range res.Headers {
			w.Header()[k] = v
		}
		w.WriteHeader(res.Status)
		_, _ = w.Write(res.Body)
	})
}

// syncEvents are the events a caller waits on.
var syncEvents = map[string]bool{"fetch": true, "ui_render": true, "fetch_published_script": true, "fetch_visitor_authentication": true}

// devTunnel is a loopback tunnel with the test integration's runtime behind it for the
// synchronous events; the asynchronous ones that development mode sends it too (a page's
// site_view, an installation_setup) it acknowledges, so that they neither take the failures
// a test scripts nor count towards ending development mode.
func devTunnel(t *testing.T) *tunnel {
	t.Helper()
	tn := newTunnel(t)
	tn.behind = runtimeBehind(t, jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx"))
	tn.only = syncEvents
	return tn
}

// tunnelEnv is the part of the environment field the tests read.
type tunnelEnv struct {
	APIEndpoint string `json:"apiEndpoint"`
	Integration struct {
		Name string `json:"name"`
	} `json:"integration"`
	Installation *struct {
		ID string `json:"id"`
	} `json:"installation"`
	SiteInstallation *struct {
		Site          string         `json:"site"`
		Configuration map[string]any `json:"configuration"`
	} `json:"siteInstallation"`
	Secrets        map[string]string `json:"secrets"`
	SigningSecrets map[string]string `json:"signingSecrets"`
}

// tunnelEvent checks that a request the tunnel received is the one @gitbook/runtime reads (a
// POST to /v1, multipart/form-data with the event and environment fields) and is signed
// with the most specific signing secret its environment holds; it returns the event and the
// environment.
func tunnelEvent(t *testing.T, got tunnelRequest) (map[string]any, tunnelEnv) {
	t.Helper()
	if got.method != "POST" || got.path != "/v1" || !strings.HasPrefix(got.contentType, "multipart/form-data; boundary=") {
		t.Fatalf("tunnel request %s %s, Content-Type %q", got.method, got.path, got.contentType)
	}
	var ev map[string]any
	var env tunnelEnv
	if err := json.Unmarshal([]byte(got.fields["event"]), &ev); err != nil || ev["eventId"] == "" || ev["eventId"] == nil {
		t.Fatalf("event field %q: %v", got.fields["event"], err)
	}
	if err := json.Unmarshal([]byte(got.fields["environment"]), &env); err != nil {
		t.Fatalf("environment field %q: %v", got.fields["environment"], err)
	}
	if got.header.Get("X-GitBook-Event-Id") != ev["eventId"] {
		t.Fatalf("X-GitBook-Event-Id %q for event %v", got.header.Get("X-GitBook-Event-Id"), ev["eventId"])
	}
	secret := env.SigningSecrets["installation"]
	if secret == "" {
		secret = env.SigningSecrets["integration"]
	}
	ts, sig, _ := strings.Cut(strings.TrimPrefix(got.signature, "t="), ",v1=")
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte(ts + "."))
	m.Write(got.body)
	if secret == "" || hex.EncodeToString(m.Sum(nil)) != sig {
		t.Fatalf("signature %q does not verify with the environment's signing secret", got.signature)
	}
	return ev, env
}

// synchronous is what the tunnel received of the synchronous events, the ones a caller waits
// on (the asynchronous ones, such as a page's site_view, go there too in development mode).
func (tn *tunnel) synchronous() []tunnelRequest {
	var out []tunnelRequest
	for _, r := range tn.requests() {
		var ev struct{ Type string }
		_ = json.Unmarshal([]byte(r.fields["event"]), &ev)
		if syncEvents[ev.Type] {
			out = append(out, r)
		}
	}
	return out
}

// newTunnelRequests returns the synchronous events the tunnel received since it had seen n.
func newTunnelRequests(tn *tunnel, n int) []tunnelRequest { return tn.synchronous()[n:] }

// devEvents lists name's recorded events of type typ, newest first, as status and trace.
func devEvents(e *apitest.Env, name, typ string) [][2]string {
	e.T.Helper()
	var out [][2]string
	for _, it := range e.WalkList(e.Admin, "/v1/integrations/"+name+"/events", 100) {
		if it["payload"].(map[string]any)["type"] == typ {
			status, trace := eventTrace(e, name, it["id"].(string))
			out = append(out, [2]string{status, strings.Join(trace, " | ")})
		}
	}
	return out
}

// renderAs posts a render of the test integration's greeting component (with its increment
// action) in the context ctx.
func renderAs(e *apitest.Env, a apitest.Actor, name string, ctx map[string]any) *apitest.Resp {
	e.T.Helper()
	if ctx["theme"] == nil {
		ctx["theme"] = "light"
	}
	return e.Post(a, "/v1/integrations/"+name+"/render", map[string]any{"componentId": "greeting",
		"props": map[string]any{"name": "Ann"}, "context": ctx, "action": map[string]any{"action": "increment"}})
}

// A render (renderIntegrationUIWithPost and WithGet) goes to the tunnel when it is for an
// organization whose events development mode sends there: with all false only the owner's,
// with all true every one. The organization is the one the render's context names (its
// organizationId, or the organization of its spaceId or siteId, which the caller must see:
// 404 otherwise), and with none named the owner's for its members. Every render sent to the
// tunnel is recorded among the integration's events with its outcome; a tunnel's error answer
// is a 502 that says the tunnel gave it.
func TestIntegrationDevModeRenderGoesToTheTunnel(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := devTunnel(t)
	publish(e, "devui", map[string]any{"script": devScript})
	e.Put(e.Admin, "/v1/integrations/devui/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": false}).Expect(204)
	bob := e.NewUser("Bob")
	orgB := e.NewOrg(bob, "Other org")
	spA, spB := titledSpace(t, e, "Owner's"), newSpace(t, e, bob, orgB, map[string]any{"title": "Bob's"})
	siteA := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "A docs"}).Expect(201).Str("id")
	siteB := e.Post(bob, "/v1/orgs/"+orgB+"/sites", map[string]any{"title": "B docs"}).Expect(201).Str("id")

	fromTunnel := func(r *apitest.Resp) bool {
		e.T.Helper()
		b := string(r.Body)
		if strings.Contains(b, "from the script") == strings.Contains(b, `"Hello "`) {
			t.Fatalf("an answer from neither or both: %s", b)
		}
		return strings.Contains(b, `"Hello "`) && strings.Contains(b, `"count":1`)
	}

	// The owner's render: the runtime behind the tunnel renders the component, the action
	// applied; the tunnel got the event as the runtime reads it.
	r := renderAs(e, e.Admin, "devui", map[string]any{"type": "configuration_account", "organizationId": e.Org}).Expect(200)
	reqs := tn.synchronous()
	if !fromTunnel(r) || len(reqs) != 1 {
		t.Fatalf("the owner's render: %s; %d tunnel requests", r.Body, len(reqs))
	}
	ev, env := tunnelEvent(t, reqs[0])
	if ev["type"] != "ui_render" || ev["componentId"] != "greeting" || ev["props"].(map[string]any)["name"] != "Ann" ||
		ev["action"].(map[string]any)["action"] != "increment" || ev["context"].(map[string]any)["organizationId"] != e.Org {
		t.Fatalf("event %s", reqs[0].fields["event"])
	}
	if env.APIEndpoint != e.URL || env.Integration.Name != "devui" || env.Secrets["TOKEN"] != "s3cr3t-value-never-shown" ||
		ev["installationId"] != nil || env.Installation != nil {
		t.Fatalf("environment %s", reqs[0].fields["environment"])
	}
	// Recorded with its outcome; with no installation the public spec has no ui_render to
	// show it as, so only docsd's delivery extension does.
	evPath := "/v1/integrations/devui/events/" + ev["eventId"].(string)
	e.Get(e.Admin, evPath).ExpectError(404).ExpectMessage("of no installation", "/delivery")
	if d := e.Get(e.Admin, evPath+"/delivery").Expect(200); d.Str("event.status") != "success" {
		t.Fatalf("the render's event: %s", d.Body)
	}

	// Installed in both organizations, a render carries the installation of its organization.
	inA := e.Post(e.Admin, "/v1/integrations/devui/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	inB := e.Post(bob, "/v1/integrations/devui/installations", map[string]any{"organization": orgB}).Expect(201).Str("id")
	e.RunDue() // their installation_setup events go to the tunnel
	installationOf := map[string]string{e.Admin.Name: inA, bob.Name: inB}

	// The context decides whose render it is.
	cases := []struct {
		who    apitest.Actor
		ctx    map[string]any
		tunnel bool
	}{
		{e.Admin, map[string]any{"type": "configuration_space", "spaceId": spA}, true},
		{e.Admin, map[string]any{"type": "document", "spaceId": spA, "editable": true}, true},
		{e.Admin, map[string]any{"type": "configuration_site", "siteId": siteA}, true},
		{e.Admin, map[string]any{"type": "configuration_account"}, true}, // nothing named: the owner's member
		{bob, map[string]any{"type": "configuration_account", "organizationId": orgB}, false},
		{bob, map[string]any{"type": "configuration_space", "spaceId": spB}, false},
		{bob, map[string]any{"type": "document", "spaceId": spB, "editable": false}, false},
		{bob, map[string]any{"type": "configuration_site", "siteId": siteB}, false},
		{bob, map[string]any{"type": "configuration_account"}, false}, // nothing named, not the owner's
	}
	for i, c := range cases {
		before := len(tn.synchronous())
		r := renderAs(e, c.who, "devui", c.ctx).Expect(200)
		if got := fromTunnel(r); got != c.tunnel || len(tn.synchronous())-before != map[bool]int{true: 1, false: 0}[c.tunnel] {
			t.Fatalf("case %d (%s, %v): from the tunnel %v, %d tunnel requests", i, c.who.Name, c.ctx, got, len(tn.synchronous())-before)
		}
		if c.tunnel {
			if ev, env := tunnelEvent(t, tn.synchronous()[before]); ev["installationId"] != inA || env.Installation == nil || env.Installation.ID != inA {
				t.Fatalf("case %d: event %s", i, tn.synchronous()[before].fields["event"])
			}
		}
	}
	// What the caller cannot see is not a context to render in.
	for _, c := range []struct {
		who apitest.Actor
		ctx map[string]any
	}{
		{bob, map[string]any{"type": "configuration_account", "organizationId": e.Org}},
		{e.Admin, map[string]any{"type": "configuration_account", "organizationId": orgB}},
		{bob, map[string]any{"type": "configuration_space", "spaceId": spA}},
		{bob, map[string]any{"type": "configuration_site", "siteId": siteA}},
		{e.Admin, map[string]any{"type": "configuration_site", "siteId": siteB}},
	} {
		renderAs(e, c.who, "devui", c.ctx).ExpectError(404)
	}

	// GET: an LZ-compressed request for a component the runtime does not know, in the owner's
	// account configuration. The runtime's answer (a 404) is the tunnel's; the caller is told
	// the tunnel gave it, and the event is recorded failed.
	const lz = "N4Igxg9gtgDhB2BTeAXAkgExALnAgZgJYDmIANCDAE4QwDOOo8OAjAL4WSqIAeKjIFAE8YiHHnhFiAVyoBDFIQQB9OWEjTUINmyA"
	before := len(tn.synchronous())
	e.Get(e.Admin, "/v1/integrations/devui/render?request="+lz).ExpectError(502).
		ExpectMessage("integration devui: its development tunnel answered 404", "Component config not found")
	if reqs := newTunnelRequests(tn, before); len(reqs) != 1 {
		t.Fatalf("the GET render: %d tunnel requests", len(reqs))
	} else if ev, _ := tunnelEvent(t, reqs[0]); ev["componentId"] != "config" || ev["props"].(map[string]any)["n"] != 1.0 {
		t.Fatalf("the GET render's event %s", reqs[0].fields["event"])
	}

	// With all, every organization's render goes to the tunnel.
	e.Put(e.Admin, "/v1/integrations/devui/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": true}).Expect(204)
	before = len(tn.synchronous())
	for _, ctx := range []map[string]any{{"type": "configuration_account", "organizationId": orgB},
		{"type": "document", "spaceId": spB, "editable": false}, {"type": "configuration_account"}} {
		if r := renderAs(e, bob, "devui", ctx).Expect(200); !fromTunnel(r) {
			t.Fatalf("with all, Bob's render in %v came from the script", ctx)
		}
	}
	if n := len(tn.synchronous()) - before; n != 3 {
		t.Fatalf("with all, the tunnel got %d of Bob's 3 renders", n)
	}
	// The last named no organization: no installation's.
	for i, r := range newTunnelRequests(tn, before) {
		if ev, _ := tunnelEvent(t, r); ev["installationId"] != map[bool]any{true: installationOf[bob.Name], false: nil}[i < 2] {
			t.Fatalf("Bob's render's event %s", r.fields["event"])
		}
	}

	// Each render of an installation sent to the tunnel is an event: 4 + 1 (the GET) + 2, one
	// failed.
	evs := devEvents(e, "devui", "ui_render")
	failed := 0
	for _, ev := range evs {
		if !strings.Contains(ev[1], "attempt 1: POST "+tn.srv.URL+"/v1") {
			t.Errorf("trace %s", ev[1])
		}
		if ev[0] == "failed" {
			failed++
			if !strings.Contains(ev[1], "answer 404: ") || !strings.Contains(ev[1], "Component config not found") {
				t.Errorf("the failed render's trace: %s", ev[1])
			}
		} else if ev[0] != "success" || !strings.Contains(ev[1], "answer 200: delivered") {
			t.Errorf("a render recorded %s: %s", ev[0], ev[1])
		}
	}
	if len(evs) != 7 || failed != 1 {
		t.Fatalf("%d ui_render events listed (%d failed), want 7 (1 failed): %v", len(evs), failed, evs)
	}
}

// An installation token renders for its own organization, and an installation's public
// endpoint is its organization's: the tunnel with all false for the owner's installation, the
// script for another organization's; with all true the tunnel for both.
func TestIntegrationDevModeFollowsTheInstallationsOrganization(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := devTunnel(t)
	publish(e, "devtok", map[string]any{"script": devScript})
	bob := e.NewUser("Bob")
	orgB := e.NewOrg(bob, "Other org")
	inA := e.Post(e.Admin, "/v1/integrations/devtok/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	inB := e.Post(bob, "/v1/integrations/devtok/installations", map[string]any{"organization": orgB}).Expect(201).Str("id")
	e.RunDue() // the installation_setup events, to the script
	tokenOf := func(id string) apitest.Actor {
		t.Helper()
		tok := e.Post(e.Admin, "/v1/integrations/devtok/installations/"+id+"/tokens", nil).Expect(200).Str("token")
		return apitest.Actor{Name: "installation " + id, Token: tok}
	}
	endpoint := func(id string) string {
		return e.Get(e.Admin, "/v1/integrations/devtok/installations/"+id).Expect(200).Str("urls.publicEndpoint")
	}
	for _, c := range []struct {
		all    bool
		in     string
		tunnel bool
	}{{false, inA, true}, {false, inB, false}, {true, inA, true}, {true, inB, true}} {
		e.Put(e.Admin, "/v1/integrations/devtok/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": c.all}).Expect(204)
		before := len(tn.synchronous())
		r := renderAs(e, tokenOf(c.in), "devtok", map[string]any{"type": "configuration_account"}).Expect(200)
		if got := strings.Contains(string(r.Body), `"Hello "`); got != c.tunnel || len(tn.synchronous())-before != map[bool]int{true: 1, false: 0}[c.tunnel] {
			t.Fatalf("all %v, installation %s's render: from the tunnel %v: %s", c.all, c.in, got, r.Body)
		}
		// The runtime answers a fetch 202 with what it read of the request and environment.
		status, _, body := publicCall(t, "POST", endpoint(c.in)+"/hook?q=7", `{"n":1}`, map[string]string{"X-Test": "dev", "Content-Type": "application/json"})
		if got := status == 202; got != c.tunnel || len(tn.synchronous())-before != map[bool]int{true: 2, false: 0}[c.tunnel] ||
			(!c.tunnel && body != "from the script") {
			t.Fatalf("all %v, installation %s's endpoint: %d %s", c.all, c.in, status, body)
		}
		if c.tunnel {
			var got map[string]any
			if err := json.Unmarshal([]byte(body), &got); err != nil || got["installation"] != c.in || got["q"] != "7" || got["header"] != "dev" ||
				got["body"].(map[string]any)["n"] != 1.0 {
				t.Fatalf("the runtime read the fetch as %s", body)
			}
			ev, _ := tunnelEvent(t, tn.synchronous()[before+1])
			if ev["type"] != "fetch" || ev["installationId"] != c.in {
				t.Fatalf("the fetch event %v", ev)
			}
		}
	}
}

// A published site's integration blocks and injected scripts go to the tunnel for the site
// installations of the organizations development mode sends events of: with all false the
// owner's site and not another organization's, with all true both. The tunnel's answers are
// not kept (each read asks again), and the events carry the site installation as the runtime
// reads it. Without development mode, the script answers again.
func TestIntegrationDevModePublishedSiteGoesToTheTunnel(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := devTunnel(t)
	publish(e, "devsite", map[string]any{"script": devScript, "scopes": []string{"site:script:inject"},
		"blocks":         []map[string]any{{"id": "card", "title": "Card"}},
		"configurations": map[string]any{"site": map[string]any{"properties": map[string]any{"trackingId": map[string]any{"type": "string"}}}}})
	bob := e.NewUser("Bob")
	orgB := e.NewOrg(bob, "Other org")
	type site struct{ url, id, space, installation string }
	newDevSite := func(a apitest.Actor, orgID, who string) site {
		t.Helper()
		sp := newSpace(t, e, a, orgID, map[string]any{"title": who})
		replaceContent(t, e, a, sp, newTreeBuilder().doc("home", "", "Home", "home", "{% @devsite/card title=\""+who+"\" %}\n").tree)
		st := e.Post(a, "/v1/orgs/"+orgID+"/sites", map[string]any{"title": who + " docs", "spaces": []string{sp}}).Expect(201)
		e.Post(a, "/v1/orgs/"+orgID+"/sites/"+st.Str("id")+"/publish", nil).Expect(200)
		in := e.Post(a, "/v1/integrations/devsite/installations", map[string]any{"organization": orgID}).Expect(201).Str("id")
		e.Post(a, "/v1/integrations/devsite/installations/"+in+"/sites", map[string]any{"siteId": st.Str("id")}).Expect(201)
		e.Patch(a, "/v1/integrations/devsite/installations/"+in+"/sites/"+st.Str("id"), map[string]any{"configuration": map[string]any{"trackingId": "T-" + who}}).Expect(200)
		return site{url: e.URL + "/sites/" + orgID + "/" + st.Str("basename") + "/", id: st.Str("id"), space: sp, installation: in}
	}
	a, b := newDevSite(e.Admin, e.Org, "Ann"), newDevSite(bob, orgB, "Bob")
	e.RunDue()
	e.Put(e.Admin, "/v1/integrations/devsite/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": false}).Expect(204)

	renderID := regexp.MustCompile(`<code class="ck-text">render ([0-9a-f-]{36})</code>`)
	// read reads a site's home page and its integration script; it says whether the block and
	// the script came from the tunnel (the runtime) or from the script, and the block's render
	// id when the runtime rendered it.
	read := func(s site, who string) (blockFromTunnel, scriptFromTunnel bool, id string) {
		t.Helper()
		_, page := publicGet(t, s.url, 200)
		switch {
		case strings.Contains(page, "Card: "+who) && renderID.MatchString(page):
			blockFromTunnel, id = true, renderID.FindStringSubmatch(page)[1]
		case !strings.Contains(page, "from the script"):
			t.Fatalf("the block came from neither:\n%s", page)
		}
		tags := siteScriptTag.FindAllStringSubmatch(page, -1)
		if len(tags) != 1 {
			t.Fatalf("script tags %q", tags)
		}
		h, js := publicGet(t, e.URL+html.UnescapeString(tags[0][1]), 200)
		switch js {
		case `window.docsdTracking = "T-` + who + `"; document.documentElement.setAttribute("data-docsd-tracking", String("T-` + who + `"));`:
			scriptFromTunnel = true
			// The runtime said max-age=60; from a tunnel the developer's next change must show.
			if cc := h.Get("Cache-Control"); cc != "no-cache" {
				t.Fatalf("the tunnel's site script is served with Cache-Control %q", cc)
			}
		case "window.fromScript = true;":
		default:
			t.Fatalf("the site script came from neither: %q", js)
		}
		return blockFromTunnel, scriptFromTunnel, id
	}

	// The owner's site, all false: both through the tunnel, asked again on each read.
	blockT, scriptT, first := read(a, "Ann")
	if !blockT || !scriptT {
		t.Fatalf("the owner's site: block from the tunnel %v, script from the tunnel %v", blockT, scriptT)
	}
	reqs := tn.synchronous()
	if len(reqs) != 2 {
		for _, r := range reqs {
			t.Logf("%s", r.fields["event"])
		}
		t.Fatalf("the tunnel got %d requests for one page and its script", len(reqs))
	}
	byType := map[string]tunnelRequest{}
	for _, r := range reqs {
		ev, _ := tunnelEvent(t, r)
		byType[ev["type"].(string)] = r
	}
	ev, env := tunnelEvent(t, byType["ui_render"])
	ctx, _ := ev["context"].(map[string]any)
	if ev["componentId"] != "card" || ev["props"].(map[string]any)["title"] != "Ann" || ev["installationId"] != a.installation ||
		ctx["type"] != "document" || ctx["spaceId"] != a.space || env.Installation == nil || env.Installation.ID != a.installation {
		t.Fatalf("the block's event %s\nenvironment %s", byType["ui_render"].fields["event"], byType["ui_render"].fields["environment"])
	}
	ev, env = tunnelEvent(t, byType["fetch_published_script"])
	if ev["installationId"] != a.installation || ev["siteId"] != a.id || env.SiteInstallation == nil || env.SiteInstallation.Site != a.id ||
		env.SiteInstallation.Configuration["trackingId"] != "T-Ann" || env.SigningSecrets["siteInstallation"] == "" {
		t.Fatalf("the site script's event %s\nenvironment %s", byType["fetch_published_script"].fields["event"], byType["fetch_published_script"].fields["environment"])
	}
	if _, _, again := read(a, "Ann"); again == first || len(tn.synchronous()) != 4 {
		t.Fatalf("a second read: render %s after %s, %d tunnel requests in all", again, first, len(tn.synchronous()))
	}

	// Another organization's site, all false: the script.
	if blockT, scriptT, _ := read(b, "Bob"); blockT || scriptT || len(tn.synchronous()) != 4 {
		t.Fatalf("Bob's site with all false: block from the tunnel %v, script %v, %d tunnel requests", blockT, scriptT, len(tn.synchronous()))
	}
	// All: the tunnel, with Bob's site installation.
	e.Put(e.Admin, "/v1/integrations/devsite/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": true}).Expect(204)
	if blockT, scriptT, _ := read(b, "Bob"); !blockT || !scriptT || len(tn.synchronous()) != 6 {
		t.Fatalf("Bob's site with all: block from the tunnel %v, script %v, %d tunnel requests", blockT, scriptT, len(tn.synchronous()))
	}
	for _, r := range newTunnelRequests(tn, 4) {
		if ev, _ := tunnelEvent(t, r); ev["installationId"] != b.installation {
			t.Fatalf("with all, Bob's site's event %s", r.fields["event"])
		}
	}
	// The events are recorded: 3 of each type, all delivered.
	for _, typ := range []string{"ui_render", "fetch_published_script"} {
		evs := devEvents(e, "devsite", typ)
		if len(evs) != 3 {
			t.Fatalf("%d %s events recorded, want 3: %v", len(evs), typ, evs)
		}
		for _, ev := range evs {
			if ev[0] != "success" {
				t.Fatalf("%s recorded %s: %s", typ, ev[0], ev[1])
			}
		}
	}

	// Development mode off: the script answers both sites.
	e.Delete(e.Admin, "/v1/integrations/devsite/dev").Expect(205)
	for _, s := range []struct {
		site
		who string
	}{{a, "Ann"}, {b, "Bob"}} {
		if blockT, scriptT, _ := read(s.site, s.who); blockT || scriptT || len(tn.synchronous()) != 6 {
			t.Fatalf("%s's site after development mode: from the tunnel %v %v", s.who, blockT, scriptT)
		}
	}
}

// A visitor-auth site authenticated by an integration in development mode sends its reader
// where the runtime behind the tunnel says, with a token signed by the site installation's
// signing secret the event's environment carries; that token admits the reader. A tunnel that
// fails is a 502 saying so, and the event is recorded failed. Off, the script answers again.
func TestIntegrationDevModeVisitorAuthGoesToTheTunnel(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := devTunnel(t)
	sp, _ := crSpace(t, e)
	st := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs", "spaces": []string{sp}}).Expect(201)
	sitePath := sitesPath(e) + "/" + st.Str("id")
	e.Post(e.Admin, sitePath+"/publish", nil).Expect(200)
	e.Patch(e.Admin, sitePath, map[string]any{"visibility": "visitor-auth"}).Expect(200)
	e.Patch(e.Admin, sitePath+"/publishing/auth", map[string]any{"backend": "integration"}).Expect(200)
	publish(e, "devgate", map[string]any{"script": devScript, "scopes": []string{"site:visitor:auth"}})
	in := e.Post(e.Admin, "/v1/integrations/devgate/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Post(e.Admin, "/v1/integrations/devgate/installations/"+in+"/sites", map[string]any{"siteId": st.Str("id")}).Expect(201)
	e.RunDue()
	siteURL := "/sites/" + e.Org + "/" + st.Str("basename") + "/"
	if p := newReader(t, e).get(siteURL).expect(t, 302); p.Header.Get("Location") != "https://script-idp.example.test/login" {
		t.Fatalf("before development mode the reader went to %q", p.Header.Get("Location"))
	}

	e.Put(e.Admin, "/v1/integrations/devgate/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": false}).Expect(204)
	rd := newReader(t, e)
	p := rd.get(siteURL).expect(t, 302)
	loc, err := url.Parse(p.Header.Get("Location"))
	if err != nil || loc.Host != "idp.example.test" || loc.Query().Get("return") != siteURL || loc.Query().Get("token") == "" {
		t.Fatalf("in development mode the reader went to %q", p.Header.Get("Location"))
	}
	reqs := tn.synchronous()
	if len(reqs) != 1 {
		t.Fatalf("the tunnel got %d requests", len(reqs))
	}
	ev, env := tunnelEvent(t, reqs[0])
	if ev["type"] != "fetch_visitor_authentication" || ev["location"] != siteURL || ev["siteId"] != st.Str("id") || ev["installationId"] != in ||
		env.SiteInstallation == nil || env.SiteInstallation.Site != st.Str("id") || env.SigningSecrets["siteInstallation"] == "" {
		t.Fatalf("event %s\nenvironment %s", reqs[0].fields["event"], reqs[0].fields["environment"])
	}
	// The runtime signed with the secret it was given, which is the one docsd admits by.
	rd.get(siteURL+"?jwt_token="+url.QueryEscape(loc.Query().Get("token"))).expect(t, 303)
	if p := rd.get(siteURL).expect(t, 200); !strings.Contains(p.Body, "<h1>") {
		t.Fatalf("the admitted reader's page: %.300s", p.Body)
	}

	// The tunnel fails: the reader is told, and the event is recorded failed.
	tn.fail(502)
	if p := newReader(t, e).get(siteURL).expect(t, 502); !strings.Contains(p.Body, "integration devgate: its development tunnel answered 502: the tunnel answers 502") {
		t.Fatalf("a failing tunnel: %s", p.Body)
	}
	evs := devEvents(e, "devgate", "fetch_visitor_authentication")
	if len(evs) != 2 || evs[0][0] != "failed" || !strings.Contains(evs[0][1], "answer 502: the tunnel answers 502") || evs[1][0] != "success" {
		t.Fatalf("events %v", evs)
	}

	e.Delete(e.Admin, "/v1/integrations/devgate/dev").Expect(205)
	if p := newReader(t, e).get(siteURL).expect(t, 302); p.Header.Get("Location") != "https://script-idp.example.test/login" || len(tn.synchronous()) != 2 {
		t.Fatalf("after development mode the reader went to %q", p.Header.Get("Location"))
	}
}

// Development mode falls back to the script when it lapses (DevelopmentModeTTL without a
// refresh), after DevelopmentMaxFailures failures in a row of the tunnel (its error answers,
// or no answer at all, each a 502 to the caller saying so and an event recorded failed), and
// when it is turned off. A refresh starts again; a PUT without a tunnel is refused and
// changes nothing.
func TestIntegrationDevModeFallsBackToTheScript(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := devTunnel(t)
	publish(e, "devfall", map[string]any{"script": devScript})
	e.Post(e.Admin, "/v1/integrations/devfall/installations", map[string]any{"organization": e.Org}).Expect(201)
	e.RunDue()
	on := func(tunnelURL string) {
		e.Put(e.Admin, "/v1/integrations/devfall/dev", map[string]any{"tunnelUrl": tunnelURL, "all": false}).Expect(204)
	}
	ctx := map[string]any{"type": "configuration_account", "organizationId": e.Org}
	fromTunnel := func() bool {
		t.Helper()
		before := len(tn.synchronous())
		b := string(renderAs(e, e.Admin, "devfall", ctx).Expect(200).Body)
		tunnel := strings.Contains(b, `"Hello "`)
		if tunnel == strings.Contains(b, "from the script") || len(tn.synchronous())-before != map[bool]int{true: 1, false: 0}[tunnel] {
			t.Fatalf("render: %s, %d tunnel requests", b, len(tn.synchronous())-before)
		}
		return tunnel
	}
	on(tn.srv.URL)
	if !fromTunnel() {
		t.Fatal("development mode on: the script answered")
	}

	// It lapses.
	e.Clock.Advance(integration.DevelopmentModeTTL - time.Second)
	if !fromTunnel() {
		t.Fatal("within its time: the script answered")
	}
	e.Clock.Advance(time.Second)
	if fromTunnel() {
		t.Fatal("past DevelopmentModeTTL: the tunnel answered")
	}
	on(tn.srv.URL)
	if !fromTunnel() {
		t.Fatal("refreshed: the script answered")
	}

	// Failures in a row end it; a success in between starts the count again. Error answers of
	// the tunnel, each a 502 saying so: two, a success, three more (five in all, three in a
	// row), then a success still from the tunnel.
	for i, status := range []int{500, 503, 0, 500, 404, 502, 0} {
		if status == 0 {
			if !fromTunnel() {
				t.Fatalf("render %d, after fewer than %d failures in a row: the script answered", i, integration.DevelopmentMaxFailures)
			}
			continue
		}
		tn.fail(status)
		renderAs(e, e.Admin, "devfall", ctx).ExpectError(502).
			ExpectMessage("integration devfall: its development tunnel answered " + strconv.Itoa(status) + ": the tunnel answers " + strconv.Itoa(status))
	}
	// A refresh towards a tunnel that is gone (no answer at all): five failures end it.
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	on(deadURL)
	for range integration.DevelopmentMaxFailures {
		renderAs(e, e.Admin, "devfall", ctx).ExpectError(502).ExpectMessage("integration devfall: its development tunnel failed to render")
	}
	before := len(tn.synchronous())
	if r := renderAs(e, e.Admin, "devfall", ctx).Expect(200); !strings.Contains(string(r.Body), "from the script") || len(tn.synchronous()) != before {
		t.Fatalf("after %d failures: %s", integration.DevelopmentMaxFailures, r.Body)
	}
	failed := 0
	for _, ev := range devEvents(e, "devfall", "ui_render") {
		if ev[0] == "failed" {
			failed++
			if !strings.Contains(ev[1], "answer 50") && !strings.Contains(ev[1], "answer 404") && !strings.Contains(ev[1], "error: integration devfall: its development tunnel failed to render") {
				t.Errorf("a failed event's trace: %s", ev[1])
			}
		}
	}
	if failed != 5+integration.DevelopmentMaxFailures {
		t.Fatalf("%d failed events recorded, want %d", failed, 5+integration.DevelopmentMaxFailures)
	}

	// Refreshed towards the live tunnel, then turned off: the script again. A PUT without a
	// tunnel is refused, and development mode stays as it was.
	on(tn.srv.URL)
	e.Put(e.Admin, "/v1/integrations/devfall/dev", map[string]any{"tunnelUrl": ""}).ExpectError(400).ExpectMessage("tunnelUrl")
	if !fromTunnel() {
		t.Fatal("after a refused PUT: the script answered")
	}
	e.Delete(e.Admin, "/v1/integrations/devfall/dev").Expect(205)
	if fromTunnel() {
		t.Fatal("turned off: the tunnel answered")
	}
}
