package httpapi_test

import (
	"strings"
	"testing"

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
	publish(e, "greeter", map[string]any{"script": script})
	res := e.Post(e.Admin, "/v1/integrations/greeter/render", map[string]any{"componentId": "greeting",
		"props": map[string]any{"name": "Ann"}, "context": map[string]any{"type": "document", "theme": "light"},
		"action": map[string]any{"action": "increment"}}).Expect(200)
	if body := string(res.Body); !strings.Contains(body, `"count":1`) || !strings.Contains(body, `"Ann"`) {
		t.Fatalf("render: %s", body)
	}
	e.Post(e.Admin, "/v1/integrations/greeter/render", map[string]any{"componentId": "nothing",
		"props": map[string]any{}, "context": map[string]any{"type": "document", "theme": "light"}}).ExpectError(502)
}
