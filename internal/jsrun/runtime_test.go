package jsrun

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/golang-jwt/jwt/v5"

	"docsd/internal/fetch"
	"docsd/internal/jsrun/jsruntest"
)

// runtimeDir is where test/jsrun/run.sh installs @gitbook/runtime with npm ci.
var runtimeDir = filepath.Join("..", "..", "test", "jsrun")

// bundleTestIntegration bundles test/jsrun/integration as @gitbook/cli does (jsruntest.Bundle).
func bundleTestIntegration(tb testing.TB) string {
	tb.Helper()
	return jsruntest.Bundle(tb, runtimeDir, "integration/index.tsx")
}

// testEnvironment is the environment docsd hands an installation's events.
func testEnvironment(apiURL string) map[string]any {
	return map[string]any{
		"apiEndpoint":      apiURL,
		"apiTokens":        map[string]string{"integration": "integration-token", "installation": "installation-token"},
		"integration":      map[string]any{"name": "jsrun-test", "version": 1},
		"installation":     map[string]any{"id": "inst1", "configuration": map[string]any{}},
		"siteInstallation": map[string]any{"id": "siteinst1", "site": "site1", "configuration": map[string]any{"trackingId": "T-42"}},
		"signingSecrets":   map[string]any{"integration": "s1", "siteInstallation": "the site installation secret"},
	}
}

func TestRuntimeEndToEnd(t *testing.T) {
	script, err := Prepare(bundleTestIntegration(t))
	if err != nil {
		t.Fatalf("Prepare of the bundled integration: %v", err)
	}
	var apiCalls []string
	apiSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		apiCalls = append(apiCalls, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		if r.URL.Path != "/v1/spaces/space1" || r.Header.Get("Authorization") != "Bearer installation-token" {
			http.Error(w, `{"error":{"code":404,"message":"not found"}}`, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"object":"space","id":"space1","title":"Docs"}`))
	}))
	defer apiSrv.Close()
	fc := fetch.New(fetch.Options{TestPublic: []netip.AddrPort{netip.MustParseAddrPort(apiSrv.Listener.Addr().String())}})
	r := NewRunner(fc, Limits{})
	env := testEnvironment(apiSrv.URL)
	dispatch := func(t *testing.T, event map[string]any, fetchBody []byte) (*Response, *Trace) {
		t.Helper()
		req, err := EventRequest("https://integrations.docsd.test", event, env, fetchBody)
		if err != nil {
			t.Fatal(err)
		}
		res, trace, err := r.Invoke(context.Background(), script, req, map[string]any{})
		if err != nil {
			t.Fatalf("%v\nlogs: %+v", err, trace.Logs)
		}
		return res, trace
	}

	t.Run("a fetch event is answered by the fetch handler", func(t *testing.T) {
		res, _ := dispatch(t, map[string]any{
			"eventId": "e1", "type": "fetch", "installationId": "inst1",
			"request": map[string]any{
				"url":     "https://docsd.test/v1/integrations/jsrun-test/installations/inst1/fetch/hook?q=1",
				"method":  "POST",
				"headers": map[string]string{"x-test": "yes", "content-type": "application/json"},
			},
		}, []byte(`{"hello":"world"}`))
		if res.Status != http.StatusAccepted || res.Headers.Get("X-Integration") != "jsrun-test" {
			t.Fatalf("status %d headers %v body %s", res.Status, res.Headers, res.Body)
		}
		var got map[string]any
		if err := json.Unmarshal(res.Body, &got); err != nil {
			t.Fatalf("%v: %s", err, res.Body)
		}
		// Marshalling the decoded map sorts its keys, so the comparison ignores the script's order.
		sorted, _ := json.Marshal(got)
		// The environment the test sends carries a site installation (of site1) and no space one.
		want := `{"body":{"hello":"world"},"header":"yes","installation":"inst1","method":"POST","path":"/v1/integrations/jsrun-test/installations/inst1/fetch/hook","q":"1","site":"site1","space":null}`
		if s := string(sorted); s != want {
			t.Fatalf("got  %s\nwant %s", s, want)
		}
	})

	t.Run("a GitBook event reaches its handler, which calls the API with the installation token", func(t *testing.T) {
		apiCalls = nil
		res, trace := dispatch(t, map[string]any{
			"eventId": "e2", "type": "space_content_updated", "spaceId": "space1", "revisionId": "r1", "installationId": "inst1",
		}, nil)
		if res.Status != http.StatusOK || string(res.Body) != "OK" {
			t.Fatalf("status %d body %s", res.Status, res.Body)
		}
		if len(apiCalls) != 1 || apiCalls[0] != "GET /v1/spaces/space1 Bearer installation-token" {
			t.Fatalf("API calls %q", apiCalls)
		}
		logs := logText(trace)
		for _, want := range []string{"log:space space1 is titled Docs", "info:follow-up done", "log:[integrations] [e2] space_content_updated"} {
			if !strings.Contains(logs, want) {
				t.Fatalf("logs lack %q:\n%s", want, logs)
			}
		}
		if len(trace.Fetches) != 1 || trace.Fetches[0].Status != 200 || trace.Fetches[0].Method != "GET" {
			t.Fatalf("fetches %+v", trace.Fetches)
		}
	})

	t.Run("a ui_render event renders the component with its action", func(t *testing.T) {
		res, _ := dispatch(t, map[string]any{
			"eventId": "e3", "type": "ui_render", "componentId": "greeting", "installationId": "inst1",
			"props": map[string]any{"name": "Ann"}, "context": map[string]any{"type": "document", "theme": "light"},
			"action": map[string]any{"action": "increment"},
		}, nil)
		body := string(res.Body)
		if res.Status != http.StatusOK || !strings.Contains(body, `"count":1`) || !strings.Contains(body, `"Hello "`) || !strings.Contains(body, `"Ann"`) {
			t.Fatalf("status %d body %s", res.Status, body)
		}
	})

	t.Run("a fetch_published_script event answers the site's script", func(t *testing.T) {
		res, _ := dispatch(t, map[string]any{"eventId": "e5", "type": "fetch_published_script", "siteId": "site1", "installationId": "inst1"}, nil)
		if res.Status != http.StatusOK || res.Headers.Get("Content-Type") != "application/javascript" || res.Headers.Get("Cache-Control") != "max-age=60" ||
			string(res.Body) != `window.docsdTracking = "T-42"; document.documentElement.setAttribute("data-docsd-tracking", String("T-42"));` {
			t.Fatalf("status %d headers %v body %s", res.Status, res.Headers, res.Body)
		}
	})

	t.Run("a fetch_visitor_authentication event redirects with a token Go verifies", func(t *testing.T) {
		res, _ := dispatch(t, map[string]any{"eventId": "e6", "type": "fetch_visitor_authentication", "siteId": "site1", "installationId": "inst1", "location": "/page"}, nil)
		loc, err := url.Parse(res.Headers.Get("Location"))
		if res.Status != http.StatusFound || err != nil || loc.Host != "idp.example.test" || loc.Query().Get("return") != "/page" {
			t.Fatalf("status %d location %q", res.Status, res.Headers.Get("Location"))
		}
		claims := jwt.MapClaims{}
		_, err = jwt.ParseWithClaims(loc.Query().Get("token"), claims, func(*jwt.Token) (any, error) {
			return []byte("the site installation secret"), nil
		}, jwt.WithValidMethods([]string{"HS256"}), jwt.WithExpirationRequired())
		if err != nil || claims["sub"] != "reader" || claims["site"] != "site1" {
			t.Fatalf("token: %v %v", err, claims)
		}
	})

	t.Run("an event the integration does not handle is the runtime's 406", func(t *testing.T) {
		res, _ := dispatch(t, map[string]any{"eventId": "e4", "type": "space_view", "spaceId": "space1"}, nil)
		if res.Status != http.StatusNotAcceptable {
			t.Fatalf("status %d body %s", res.Status, res.Body)
		}
	})
}

func logText(trace *Trace) string {
	var sb strings.Builder
	for _, l := range trace.Logs {
		sb.WriteString(l.Level + ":" + l.Message + "\n")
	}
	return sb.String()
}
