package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/jsrun/jsruntest"
)

// A space installation's urls.publicEndpoint is a fetch event whose environment carries the
// space installation; a space the installation is not on is 404.
func TestIntegrationSpaceInstallationPublicEndpoint(t *testing.T) {
	t.Parallel()
	script := jsruntest.Bundle(t, "../../test/jsrun", "integration/index.tsx")
	e := apitest.New(t)
	publish(e, "hooked", map[string]any{"script": script})
	in := e.Post(e.Admin, "/v1/integrations/hooked/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	sp, _ := crSpace(t, e)
	endpoint := e.Post(e.Admin, "/v1/integrations/hooked/installations/"+in+"/spaces", map[string]any{"space": sp}).Expect(201).Str("urls.publicEndpoint")
	status, _, body := publicCall(t, "GET", endpoint+"/hook?q=3", "", nil)
	var got map[string]any
	if err := json.Unmarshal([]byte(body), &got); err != nil || status != 202 || got["space"] != sp || got["installation"] != in || got["q"] != "3" {
		t.Fatalf("space endpoint: %d %s", status, body)
	}
	status, _, body = publicCall(t, "GET", e.URL+"/v1/integrations/hooked/installations/"+in+"/spaces/nosuchspace/public", "", nil)
	if status != 404 || !strings.Contains(body, "not on it") {
		t.Fatalf("a space it is not on: %d %s", status, body)
	}
}

// In development mode a synchronous event (fetch on a public endpoint) goes to the tunnel, in
// the runtime's multipart form, and the tunnel's answer is the caller's.
func TestIntegrationFetchEventGoesToTheTunnel(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t, 201)
	publish(e, "devfetch", map[string]any{"script": "export default { fetch() { return new Response('from the script') } }"})
	e.Put(e.Admin, "/v1/integrations/devfetch/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": false}).Expect(204)
	status, _, body := publicCall(t, "POST", e.URL+"/v1/integrations/devfetch/public/hook", `{"x":1}`, nil)
	reqs := tn.requests()
	if status != 201 || strings.Contains(body, "from the script") || len(reqs) != 1 {
		t.Fatalf("fetch in development mode: %d %q, %d tunnel requests", status, body, len(reqs))
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(reqs[0].fields["event"]), &ev); err != nil || ev["type"] != "fetch" || reqs[0].fields["fetch-body"] != `{"x":1}` {
		t.Fatalf("tunnel got %v", reqs[0].fields)
	}
	// Out of development mode, the script answers.
	e.Delete(e.Admin, "/v1/integrations/devfetch/dev").Expect(205)
	if status, _, body := publicCall(t, "GET", e.URL+"/v1/integrations/devfetch/public", "", nil); status != 200 || body != "from the script" {
		t.Fatalf("after development mode: %d %q", status, body)
	}
}
