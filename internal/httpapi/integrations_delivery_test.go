package httpapi_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/config"
)

// tunnel is a loopback receiver standing in for `gitbook dev`'s tunnel: it answers the
// statuses in script in turn (saying so in the body when they are errors) and keeps what it
// received. Once they are used up it answers 200, or hands the request to behind when set, as
// the CLI's tunnel hands it to the local server running the developer's script.
type tunnel struct {
	mu     sync.Mutex
	script []int
	behind http.Handler
	// only, when set, limits script and behind to the events of these types; the tunnel
	// answers others 200 at once.
	only     map[string]bool
	received []tunnelRequest
	srv      *httptest.Server
}

type tunnelRequest struct {
	method, path, signature, contentType string
	header                               http.Header
	body                                 []byte
	fields                               map[string]string
}

func newTunnel(t *testing.T, script ...int) *tunnel {
	tn := &tunnel{script: script}
	tn.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		req := tunnelRequest{method: r.Method, path: r.URL.Path, signature: r.Header.Get("X-GitBook-Signature"),
			contentType: r.Header.Get("Content-Type"), header: r.Header.Clone(), body: body, fields: map[string]string{}}
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		if err := r.ParseMultipartForm(1 << 20); err == nil {
			for k, v := range r.MultipartForm.Value {
				req.fields[k] = v[0]
			}
		}
		var ev struct{ Type string }
		_ = json.Unmarshal([]byte(req.fields["event"]), &ev)
		tn.mu.Lock()
		tn.received = append(tn.received, req)
		status, behind := 200, tn.behind
		if tn.only != nil && !tn.only[ev.Type] {
			behind = nil
		} else if len(tn.script) > 0 {
			status, tn.script, behind = tn.script[0], tn.script[1:], nil
		}
		tn.mu.Unlock()
		if behind != nil {
			r.Body = io.NopCloser(strings.NewReader(string(body)))
			behind.ServeHTTP(w, r)
			return
		}
		if status == 429 {
			w.Header().Set("Retry-After", "7")
		}
		w.WriteHeader(status)
		if status >= 400 {
			fmt.Fprintf(w, "the tunnel answers %d", status)
		}
	}))
	t.Cleanup(tn.srv.Close)
	return tn
}

// fail makes the tunnel answer the statuses given, in turn, before it goes back to its usual
// answer.
func (tn *tunnel) fail(statuses ...int) {
	tn.mu.Lock()
	defer tn.mu.Unlock()
	tn.script = append(tn.script, statuses...)
}

func (tn *tunnel) requests() []tunnelRequest {
	tn.mu.Lock()
	defer tn.mu.Unlock()
	return append([]tunnelRequest(nil), tn.received...)
}

// deliverAll runs due jobs, moving the clock past each retry, a bounded number of times.
func deliverAll(e *apitest.Env) {
	for range 12 {
		e.RunDue()
		e.Clock.Advance(time.Minute) // past any retry's backoff (at most 32s before the last attempt)
	}
	e.RunDue()
}

// devInstallation publishes name, installs it in the env's organization and turns on
// development mode towards tn; it returns the installation's path.
func devInstallation(e *apitest.Env, name string, tn *tunnel) string {
	e.T.Helper()
	publish(e, name, nil)
	e.Put(e.Admin, "/v1/integrations/"+name+"/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": false}).Expect(204)
	id := e.Post(e.Admin, "/v1/integrations/"+name+"/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	return "/v1/integrations/" + name + "/installations/" + id
}

func eventTrace(e *apitest.Env, name, id string) (string, []string) {
	e.T.Helper()
	r := e.Get(e.Admin, "/v1/integrations/"+name+"/events/"+id).Expect(200)
	var out []string
	for _, l := range r.Map()["trace"].(map[string]any)["logs"].([]any) {
		out = append(out, l.(map[string]any)["message"].(string))
	}
	return r.Str("event.status"), out
}

func TestIntegrationDeliveryToDevelopmentTunnel(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t, 503, 429) // fails twice, then succeeds
	inst := devInstallation(e, "devtool", tn)
	deliverAll(e)
	// The installation_setup of the install was delivered: a 503, a 429, then a 200.
	events := e.Get(e.Admin, "/v1/integrations/devtool/events").Expect(200).Items()
	if len(events) != 1 {
		t.Fatalf("events: %v", events)
	}
	evID := events[0]["id"].(string)
	status, trace := eventTrace(e, "devtool", evID)
	attempts := 0
	for _, l := range trace {
		if strings.HasPrefix(l, "attempt ") {
			attempts++
		}
	}
	joined := strings.Join(trace, " | ")
	if status != "success" || attempts != 3 || !strings.Contains(joined, "answer 503") || !strings.Contains(joined, "answer 429") ||
		!strings.Contains(joined, "retry after 7s") {
		t.Fatalf("status %s, trace: %s", status, joined)
	}
	reqs := tn.requests()
	if len(reqs) != 3 {
		t.Fatalf("the tunnel got %d requests", len(reqs))
	}
	// Field by field, as the runtime reads them.
	got := reqs[2]
	if got.path != "/v1" || !strings.HasPrefix(got.contentType, "multipart/form-data; boundary=") {
		t.Fatalf("request: %s %s", got.path, got.contentType)
	}
	var event map[string]any
	if err := json.Unmarshal([]byte(got.fields["event"]), &event); err != nil || event["type"] != "installation_setup" ||
		event["eventId"] != evID || event["installationId"] == nil {
		t.Fatalf("event field: %s", got.fields["event"])
	}
	if _, ok := got.fields["fetch-body"]; !ok {
		t.Fatalf("no fetch-body field: %v", got.fields)
	}
	var env struct {
		APIEndpoint string            `json:"apiEndpoint"`
		APITokens   map[string]string `json:"apiTokens"`
		Integration struct {
			Name    string  `json:"name"`
			Version float64 `json:"version"`
		} `json:"integration"`
		Installation   struct{ ID string } `json:"installation"`
		Secrets        map[string]string   `json:"secrets"`
		SigningSecrets map[string]string   `json:"signingSecrets"`
	}
	if err := json.Unmarshal([]byte(got.fields["environment"]), &env); err != nil {
		t.Fatal(err)
	}
	if env.APIEndpoint != e.URL || env.Integration.Name != "devtool" || env.Installation.ID != event["installationId"] ||
		env.Secrets["TOKEN"] != "s3cr3t-value-never-shown" || env.SigningSecrets["integration"] == "" ||
		env.SigningSecrets["installation"] == "" || env.APITokens["installation"] == "" {
		t.Fatalf("environment: %s", got.fields["environment"])
	}
	// The signature is HMAC-SHA256 of "<t>.<body>" with the installation's signing secret.
	ts, sig, _ := strings.Cut(strings.TrimPrefix(got.signature, "t="), ",v1=")
	m := hmac.New(sha256.New, []byte(env.SigningSecrets["installation"]))
	m.Write([]byte(ts + "."))
	m.Write(got.body)
	if hex.EncodeToString(m.Sum(nil)) != sig {
		t.Fatalf("signature %q does not verify", got.signature)
	}
	// The token given to the script acts for the installation.
	e.Get(apitest.Actor{Name: "script", Token: env.APITokens["installation"]}, inst).Expect(200)

	// Replay sends it again and says so in the trace.
	e.Post(e.Admin, "/v1/integrations/devtool/events/"+evID+"/replay", nil).Expect(202)
	deliverAll(e)
	if _, trace := eventTrace(e, "devtool", evID); !strings.Contains(strings.Join(trace, " | "), "replay requested") || len(tn.requests()) != 4 {
		t.Fatalf("after replay: %d requests, trace %v", len(tn.requests()), trace)
	}
	e.Post(e.Admin, "/v1/integrations/devtool/events/nosuchevent0000000000/replay", nil).ExpectError(404)

	// Turning development mode off: events go to the published script, which answers 200.
	e.Delete(e.Admin, "/v1/integrations/devtool/dev").Expect(205)
	e.Patch(e.Admin, inst, map[string]any{"externalIds": []string{"x"}}).Expect(200)
	deliverAll(e)
	newest := e.Get(e.Admin, "/v1/integrations/devtool/events?limit=1").Expect(200).Items()[0]
	if status, trace := eventTrace(e, "devtool", newest["id"].(string)); status != "success" || len(tn.requests()) != 4 ||
		!strings.Contains(strings.Join(trace, " "), "run the script of version 1") ||
		!strings.Contains(strings.Join(trace, " "), "answer 200 from the script") {
		t.Fatalf("without development mode: %s %v", status, trace)
	}
}

func TestIntegrationDeliveryGivesUp(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500)
	// The published script fails too, so that the event ends failed wherever it goes.
	publish(e, "flaky", map[string]any{"script": "export default { fetch() { throw new Error('flaky script') } }"})
	e.Put(e.Admin, "/v1/integrations/flaky/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": false}).Expect(204)
	e.Post(e.Admin, "/v1/integrations/flaky/installations", map[string]any{"organization": e.Org}).Expect(201)
	deliverAll(e)
	id := e.Get(e.Admin, "/v1/integrations/flaky/events").Expect(200).Items()[0]["id"].(string)
	status, trace := eventTrace(e, "flaky", id)
	// Five failures in a row end development mode, before the sixth and last attempt, which
	// runs the published script: its error fails the event for good.
	if n := len(tn.requests()); status != "failed" || n != 5 || !strings.Contains(trace[len(trace)-1], "the script failed: Error: flaky script") {
		t.Fatalf("status %s after %d requests: %v", status, n, trace)
	}
	e.Post(e.Admin, "/v1/integrations/flaky/tasks", map[string]any{"task": map[string]any{"n": 1}}).Expect(204)
	deliverAll(e)
	if n := len(tn.requests()); n != 5 {
		t.Fatalf("development mode ended, yet the tunnel got %d requests", n)
	}
	// A refresh (the CLI's PUT) starts again.
	e.Put(e.Admin, "/v1/integrations/flaky/dev", map[string]any{"tunnelUrl": tn.srv.URL}).Expect(204)
	e.Post(e.Admin, "/v1/integrations/flaky/tasks", map[string]any{"task": map[string]any{"n": 2}}).Expect(204)
	deliverAll(e)
	if n := len(tn.requests()); n != 10 {
		t.Fatalf("after a refresh, the tunnel got %d requests in all", n)
	}
}

func TestIntegrationDevelopmentModeRules(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t)
	devInstallation(e, "devtool", tn)
	editor := e.Member("Eve", auth.Edit)
	e.Put(editor, "/v1/integrations/devtool/dev", map[string]any{"tunnelUrl": tn.srv.URL}).ExpectError(403)
	e.Put(e.Admin, "/v1/integrations/nothing/dev", map[string]any{"tunnelUrl": tn.srv.URL}).ExpectError(404)
	e.Put(e.Admin, "/v1/integrations/devtool/dev", map[string]any{"tunnelUrl": "ftp://example.test"}).ExpectError(400)
	e.Put(e.Admin, "/v1/integrations/devtool/dev", map[string]any{}).ExpectError(400)
	e.Delete(editor, "/v1/integrations/devtool/dev").ExpectError(403)
	// It lapses without a refresh.
	e.RunDue()
	before := len(tn.requests())
	e.Clock.Advance(31 * time.Minute)
	e.Post(e.Admin, "/v1/integrations/devtool/tasks", map[string]any{"task": map[string]any{}}).Expect(204)
	deliverAll(e)
	if n := len(tn.requests()) - before; before != 1 || n != 0 {
		t.Fatalf("a lapsed tunnel got %d requests", n)
	}

	// The address policy applies to tunnels: loopback is refused unless the operator allows it.
	strict := apitest.NewWithConfig(t, func(c *config.Config) { c.FetchAllowPrivate = false })
	publish(strict, "devtool", nil)
	strict.Put(strict.Admin, "/v1/integrations/devtool/dev", map[string]any{"tunnelUrl": tn.srv.URL}).ExpectError(400)
}

// A retry is a row in the database, not a timer in one process: with a second process on the
// same database (as after a restart), the event is still delivered.
func TestIntegrationDeliveryRetrySurvivesAnotherProcess(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t, 503)
	devInstallation(e, "durable", tn)
	e.RunDue()
	if n := len(tn.requests()); n != 1 {
		t.Fatalf("first attempt: %d requests", n)
	}
	peer := e.Peer()
	e.Clock.Advance(time.Minute)
	peer.RunDue()
	id := e.Get(e.Admin, "/v1/integrations/durable/events").Expect(200).Items()[0]["id"].(string)
	if status, trace := eventTrace(e, "durable", id); status != "success" || len(tn.requests()) != 2 {
		t.Fatalf("after the retry: %s, %d requests, %v", status, len(tn.requests()), trace)
	}
	var env struct{ APIEndpoint string }
	_ = json.Unmarshal([]byte(tn.requests()[1].fields["environment"]), &env)
	if env.APIEndpoint == "" {
		t.Fatalf("no apiEndpoint in the retried delivery")
	}
}

// Development mode sends the owner's own events, and every organization's with all.
func TestIntegrationDevelopmentModeAll(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t)
	publish(e, "shared", nil)
	e.Put(e.Admin, "/v1/integrations/shared/dev", map[string]any{"tunnelUrl": tn.srv.URL}).Expect(204)
	customer := e.NewUser("Cy")
	corp := e.NewOrg(customer, "Cy Corp")
	e.Post(customer, "/v1/integrations/shared/installations", map[string]any{"organization": corp}).Expect(201)
	deliverAll(e)
	if n := len(tn.requests()); n != 0 {
		t.Fatalf("another organization's event went to the tunnel without all: %d requests", n)
	}
	e.Put(e.Admin, "/v1/integrations/shared/dev", map[string]any{"tunnelUrl": tn.srv.URL, "all": true}).Expect(204)
	in := e.Get(customer, "/v1/orgs/"+corp+"/installations").Expect(200).Items()[0]["installation"].(map[string]any)["id"].(string)
	e.Patch(customer, "/v1/integrations/shared/installations/"+in, map[string]any{"externalIds": []string{"c"}}).Expect(200)
	deliverAll(e)
	if n := len(tn.requests()); n != 1 {
		t.Fatalf("with all, the tunnel got %d requests", n)
	}
}

// An event about a space installation carries it in the environment, with its signing secret.
func TestIntegrationDeliverySpaceInstallationEnvironment(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tn := newTunnel(t)
	inst := devInstallation(e, "spacey", tn)
	sp := titledSpace(t, e, "Spacey")
	e.Post(e.Admin, inst+"/spaces", map[string]any{"space": sp}).Expect(201)
	deliverAll(e)
	var found bool
	for _, req := range tn.requests() {
		var env struct {
			SpaceInstallation struct{ Space, Installation string } `json:"spaceInstallation"`
			SigningSecrets    map[string]string                    `json:"signingSecrets"`
		}
		if err := json.Unmarshal([]byte(req.fields["environment"]), &env); err != nil {
			t.Fatal(err)
		}
		if env.SpaceInstallation.Space == "" {
			continue
		}
		found = true
		s := env.SigningSecrets
		if env.SpaceInstallation.Space != sp || s["spaceInstallation"] == "" || s["spaceInstallation"] == s["installation"] {
			t.Fatalf("environment: %s", req.fields["environment"])
		}
	}
	if !found {
		t.Fatalf("no delivery carried the space installation (%d requests)", len(tn.requests()))
	}
}
