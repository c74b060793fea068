package httpapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"docsd/internal/apitest"
)

// chatStandIn is an OpenAI-compatible chat-completions server on loopback: it checks each
// request, answers the first one with 429, then "translates" each segment by prefixing it
// with "ES ", keeping its placeholders, as a model told to would.
type chatStandIn struct {
	t        *testing.T
	mu       sync.Mutex
	requests int
	systems  []string
	users    [][]string // the segments of each answered request
}

func (c *chatStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.requests++
	if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
		c.t.Errorf("request %s %s with Authorization %q", r.Method, r.URL.Path, r.Header.Get("Authorization"))
		http.Error(w, "bad request", 400)
		return
	}
	if c.requests == 1 {
		w.Header().Set("Retry-After-Ms", "10")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		w.Write([]byte(`{"error":{"message":"slow down","type":"rate_limit"}}`))
		return
	}
	body, ok := readChat(c.t, w, r)
	if !ok {
		return
	}
	if body.Model != "test-model" {
		c.t.Errorf("model %q", body.Model)
	}
	var segs []string
	if err := json.Unmarshal([]byte(body.Messages[1].Content), &segs); err != nil {
		c.t.Errorf("user message is not a JSON array of segments: %q", body.Messages[1].Content)
	}
	c.systems = append(c.systems, body.Messages[0].Content)
	c.users = append(c.users, segs)
	out := make([]string, len(segs))
	for i, s := range segs {
		out[i] = "ES " + s
	}
	answer, _ := json.Marshal(out)
	writeChatAnswer(w, "```json\n"+string(answer)+"\n```")
}

func TestTranslationRunWithLanguageModel(t *testing.T) {
	stand := &chatStandIn{t: t}
	e := apitest.NewWithConfig(t, useModel(t, stand))
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	replaceContent(t, e, e.Admin, src, sourceTree())
	// The source's own head move is processed before there is a translation, so that the
	// first run is the only one until the edit below (a change seen later re-runs it).
	e.RunDue()
	e.Put(e.Admin, "/v1/orgs/"+e.Org+"/translations-glossary", map[string]any{"operations": []any{
		map[string]any{"type": "insert", "translations": map[string]any{"en": "server", "fr": "serveur"}},
	}}).Expect(204)
	base := "/v1/orgs/" + e.Org + "/translations"
	id := e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": "fr",
		"instructions": docWith("Use the formal register.")}).Expect(201).Str("id")
	e.Post(e.Admin, base+"/"+id+"/run", nil).Expect(204)
	tr := waitForRuns(t, e, base+"/"+id, 1)
	if tr.Str("provider") != "llm" || tr.Num("stats.runs") != 1 || tr.Num("stats.latestPages") != 3 || tr.Has("error") {
		t.Fatalf("after the first run: %v", tr.Map())
	}
	stand.mu.Lock()
	requests, system := stand.requests, stand.systems[0]
	stand.mu.Unlock()
	if requests != 4 { // the 429, retried, then one request for each of the other two pages
		t.Errorf("%d requests to the model, want 4 (one refused with 429 and retried)", requests)
	}
	if !strings.Contains(system, "Use the formal register.") || !strings.Contains(system, "from en to fr") {
		t.Errorf("system prompt lacks the instructions or the languages: %q", system)
	}
	out := resultTree(t, e, tr)
	p1 := out.Pages["p1"]
	if p1.Title != "ES Getting started" || !strings.Contains(p1.Markdown, codeBlock) ||
		!strings.Contains(p1.Markdown, "# ES Getting started\n") || !strings.Contains(p1.Markdown, "](https://example.com/guide)") ||
		!strings.Contains(p1.Markdown, "`docsd serve` to start the serveur") {
		t.Fatalf("p1: %q %q", p1.Title, p1.Markdown)
	}
	if got := testutil.ToFloat64(e.App.LLMMetrics.Tokens.WithLabelValues("prompt")); got != 3*50 {
		t.Errorf("prompt tokens counted: %v, want 150 (three requests of 50, as the stand-in answers)", got)
	}

	// One page edited: one request, with that page's segments only.
	edited := sourceTree()
	pg := edited.Pages["p3"]
	pg.Markdown = "When it does not start, read the logs.\n"
	edited.Pages["p3"] = pg
	replaceContent(t, e, e.Admin, src, edited)
	tr = waitForRuns(t, e, base+"/"+id, 2)
	stand.mu.Lock()
	defer stand.mu.Unlock()
	if stand.requests != 5 || len(stand.users[3]) != 1 || !strings.Contains(stand.users[3][0], "read the logs") {
		t.Fatalf("second run: %d requests, last segments %q", stand.requests, stand.users[len(stand.users)-1])
	}
	if tr.Num("stats.latestPages") != 1 || tr.Num("stats.totalPages") != 3 {
		t.Fatalf("second run's stats: %v", tr.Map()["stats"])
	}
}
