package httpapi_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// modelStandIn is an OpenAI-compatible server on loopback with chat completions and
// embeddings, as conversations use them. In mode "ok" it sharpens issues (titles "Sharp:
// <topic> …"), embeds texts by topic (billing, sign-in, other: three orthogonal vectors)
// and drafts page edits (the page plus an "## Answers" section); in mode "fail" every
// request gets a 500; in mode "hang" no answer comes before the client gives up; in mode
// "noembed" it has no embeddings endpoint (404), as some chat-only servers; in mode
// "nodraft" it answers all but the drafts, which get a 500. setMode changes the mode.
type modelStandIn struct {
	t    *testing.T
	mode string

	mu                       sync.Mutex
	sharpens, embeds, drafts int
	draftUsers, sharpenUsers []string
	embedModels, chatSystems []string
}

// topicOf tells the subject of a text by its words.
func topicOf(s string) string {
	s = strings.ToLower(s)
	for _, w := range []string{"refund", "charged", "invoice", "billing"} {
		if strings.Contains(s, w) {
			return "billing"
		}
	}
	for _, w := range []string{"password", "locked", "sign-in"} {
		if strings.Contains(s, w) {
			return "sign-in"
		}
	}
	return "other"
}

func (m *modelStandIn) setMode(mode string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mode = mode
}

func (m *modelStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	mode := m.mode
	m.mu.Unlock()
	switch mode {
	case "fail":
		writeModelFailure(w)
		return
	case "hang":
		io.Copy(io.Discard, r.Body) // so that the server notices the client hang up
		select {                    // bounded: the client's timeout ends the request long before
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
		return
	}
	if mode == "noembed" && r.URL.Path == "/v1/embeddings" { // a chat-only server
		http.NotFound(w, r)
		return
	}
	if r.Header.Get("Authorization") != "Bearer test-key" {
		m.t.Errorf("%s without the key", r.URL.Path)
	}
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/v1/embeddings":
		var body struct {
			Model string   `json:"model"`
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			m.t.Errorf("embeddings body: %v", err)
		}
		m.mu.Lock()
		m.embeds++
		m.embedModels = append(m.embedModels, body.Model)
		m.mu.Unlock()
		var data []any
		for i, text := range body.Input {
			v := map[string][]float64{"billing": {1, 0.1, 0}, "sign-in": {0, 1, 0.1}, "other": {0.1, 0, 1}}[topicOf(text)]
			data = append(data, map[string]any{"object": "embedding", "index": i, "embedding": v})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "model": body.Model, "data": data,
			"usage": map[string]any{"prompt_tokens": 7 * len(body.Input), "total_tokens": 7 * len(body.Input)}})
	case "/v1/chat/completions":
		body, ok := readChat(m.t, w, r)
		if !ok {
			return
		}
		system, user := body.Messages[0].Content, body.Messages[1].Content
		var answer string
		m.mu.Lock()
		m.chatSystems = append(m.chatSystems, system)
		switch {
		case strings.Contains(system, "documentation issues found"):
			m.sharpens++
			m.sharpenUsers = append(m.sharpenUsers, user)
			var in struct {
				Messages []struct{ Role, Body string } `json:"messages"`
				Issues   []struct{ Title, Summary string }
			}
			if err := json.Unmarshal([]byte(user), &in); err != nil {
				m.t.Errorf("sharpen user message: %v: %s", err, user)
			}
			var out []map[string]string
			for _, is := range in.Issues {
				topic := topicOf(is.Title + " " + is.Summary)
				out = append(out, map[string]string{"title": "Sharp: " + topic + " — " + is.Title,
					"summary": "The user needs " + topic + " help: " + is.Summary})
			}
			b, _ := json.Marshal(out)
			answer = "Here you are:\n```json\n" + string(b) + "\n```"
		case strings.Contains(system, "You edit a documentation page") && mode == "nodraft":
			m.mu.Unlock()
			writeModelFailure(w)
			return
		case strings.Contains(system, "You edit a documentation page"):
			m.drafts++
			m.draftUsers = append(m.draftUsers, user)
			page := user[strings.Index(user, "in markdown:\n\n")+len("in markdown:\n\n"):]
			answer = "```markdown\n" + strings.TrimRight(page, "\n") + "\n\n## Answers\n\nHow to solve what users ask about " +
				topicOf(user) + ".\n```"
		default:
			m.t.Errorf("unexpected system prompt %q", system)
		}
		m.mu.Unlock()
		writeChatAnswer(w, answer)
	default:
		m.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
	}
}

// modelConversations are two subjects in words TF-IDF cannot relate: three billing
// questions that share no content word, two sign-in ones likewise, and a thank-you.
var modelConversations = []map[string]any{
	{"id": "b1", "subject": "Refund", "parts": []any{userPart("How do I get a refund for last month?")}},
	{"id": "b2", "subject": "Card", "parts": []any{userPart("Why was my card charged twice this week?")}},
	{"id": "b3", "subject": "Copy", "parts": []any{userPart("Where can I download an invoice as a PDF file?")}},
	{"id": "s1", "subject": "Reset", "parts": []any{userPart("I forgot my password, how do I reset it?")}},
	{"id": "s2", "subject": "Attempts", "parts": []any{userPart("Why am I locked out after three attempts?")}},
	{"id": "t1", "subject": "Thanks", "parts": []any{userPart("All good now, thank you."),
		map[string]any{"type": "message", "role": "assistant", "body": "Glad to hear it."}}},
}

func userPart(body string) map[string]any {
	return map[string]any{"type": "message", "role": "user", "body": body}
}

// modelEnv is a server whose language model is the stand-in, with a short timeout, and a
// space whose one page answers none of the questions.
func modelEnv(t *testing.T, stand *modelStandIn) (*apitest.Env, string) {
	t.Helper()
	model := useModel(t, stand)
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		model(c)
		c.Language.LLMEmbeddingModel = "test-embed"
		c.Language.LLMTimeout = 400 * time.Millisecond
	})
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Help center"})
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("welcome", "", "Welcome", "welcome", "# Welcome\n\nThis is the help center of the product.\n").tree)
	e.RunDue()
	e.Post(e.Admin, "/v1/orgs/"+e.Org+"/conversations", modelConversations).Expect(204)
	waitProcessed(t, e, len(modelConversations))
	return e, sp
}

// issuesByConversation maps each conversation's external id to its issues' title and cluster.
func issuesByConversation(t *testing.T, e *apitest.Env) map[string][2]string {
	t.Helper()
	base := "/v1/orgs/" + e.Org
	bySubject := map[string]string{}
	for _, c := range modelConversations {
		bySubject[c["subject"].(string)] = c["id"].(string)
	}
	ext := map[string]string{}
	for _, c := range e.WalkList(e.Admin, base+"/conversations", 100) {
		ext[c["id"].(string)] = bySubject[c["subject"].(string)]
	}
	out := map[string][2]string{}
	for _, it := range e.WalkList(e.Admin, base+"/conversations-issues", 100) {
		is := it["issue"].(map[string]any)
		id := ext[is["conversation"].(string)]
		if _, dup := out[id]; dup {
			t.Fatalf("conversation %s has more than one issue", id)
		}
		out[id] = [2]string{is["title"].(string), is["cluster"].(string)}
	}
	return out
}

func TestConversationsWithLanguageModel(t *testing.T) {
	stand := &modelStandIn{t: t, mode: "ok"}
	e, sp := modelEnv(t, stand)
	base := "/v1/orgs/" + e.Org
	got := issuesByConversation(t, e)
	if len(got) != 5 {
		t.Fatalf("issues of %d conversations, want 5 (the thank-you has none): %v", len(got), got)
	}
	for id, is := range got {
		if !strings.HasPrefix(is[0], "Sharp: ") {
			t.Errorf("conversation %s: title %q is not the model's", id, is[0])
		}
	}
	// Embeddings put each subject in one cluster, which TF-IDF alone does not (see below).
	if got["b1"][1] != got["b2"][1] || got["b1"][1] != got["b3"][1] || got["s1"][1] != got["s2"][1] ||
		got["b1"][1] == got["s1"][1] {
		t.Fatalf("clusters by embeddings: %v", got)
	}
	clusters := e.Get(e.Admin, base+"/conversations-clusters").Expect(200)
	if n := len(clusters.Items()); n != 2 {
		t.Fatalf("%d clusters, want 2: %v", n, clusters.Map())
	}
	issue := e.Get(e.Admin, base+"/conversations-issues?cluster="+got["b1"][1]).Expect(200)
	if !strings.HasPrefix(issue.Str("items.0.issue.summary"), "The user needs billing help") {
		t.Errorf("summary is not the model's: %v", issue.Map())
	}

	// Each cluster the page does not answer is a task with a drafted change request to the
	// space's page: the model's edit, opened in the space, the space itself unchanged.
	tasks := e.WalkList(e.Admin, base+"/agent-tasks", 100)
	if len(tasks) != 2 {
		t.Fatalf("%d agent tasks, want 2: %v", len(tasks), tasks)
	}
	for _, tk := range tasks {
		cr, _ := tk["changeRequest"].(string)
		if cr == "" || tk["space"] != sp {
			t.Fatalf("task without a drafted change request in %s: %v", sp, tk)
		}
		one := e.Get(e.Admin, base+"/agent-tasks/"+tk["id"].(string)).Expect(200)
		if one.Str("changeRequest") != cr {
			t.Fatalf("getAgentTask: changeRequest %q, want %q", one.Str("changeRequest"), cr)
		}
		view := e.Get(e.Admin, "/v1/spaces/"+sp+"/change-requests/"+cr).Expect(200)
		if view.Str("status") != "open" || !strings.HasPrefix(view.Str("subject"), "Document: ") {
			t.Fatalf("drafted change request: %v", view.Map())
		}
		page := e.Get(e.Admin, "/v1/spaces/"+sp+"/change-requests/"+cr+"/content/page/welcome?format=markdown").Expect(200)
		if md := page.Str("markdown"); !strings.Contains(md, "This is the help center of the product.") ||
			!strings.Contains(md, "## Answers") {
			t.Fatalf("drafted page: %q", md)
		}
	}
	head := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/page/welcome?format=markdown").Expect(200)
	if strings.Contains(head.Str("markdown"), "Answers") {
		t.Fatalf("the draft reached the space's head: %q", head.Str("markdown"))
	}

	stand.mu.Lock()
	if stand.sharpens != 5 || stand.drafts != 2 || stand.embeds != 1 || stand.embedModels[0] != "test-embed" {
		t.Errorf("requests: %d sharpen, %d drafts, %d embeddings (%v); want 5, 2, 1 (test-embed)",
			stand.sharpens, stand.drafts, stand.embeds, stand.embedModels)
	}
	for _, u := range stand.draftUsers {
		if !strings.Contains(u, "Sharp: ") || !strings.Contains(u, "# Welcome") {
			t.Errorf("draft prompt lacks the questions or the page: %q", u)
		}
	}
	if len(stand.sharpenUsers) > 0 && !strings.Contains(strings.Join(stand.sharpenUsers, "\n"), "charged twice") {
		t.Errorf("sharpen prompts lack the conversations: %q", stand.sharpenUsers)
	}
	stand.mu.Unlock()
	if n := testutil.ToFloat64(e.App.LLMMetrics.Tokens.WithLabelValues("embedding")); n != 35 {
		t.Errorf("embedding tokens counted: %v, want 35", n)
	}
	if n := testutil.ToFloat64(e.App.LLMMetrics.Tokens.WithLabelValues("prompt")); n != 7*50 {
		t.Errorf("prompt tokens counted: %v, want 350", n)
	}

	// Re-ingesting one conversation moves nothing and asks the model for that one only.
	e.Post(e.Admin, base+"/conversations", modelConversations[1]).Expect(204)
	waitProcessed(t, e, len(modelConversations))
	again := issuesByConversation(t, e)
	if again["b2"][1] != got["b2"][1] || len(e.WalkList(e.Admin, base+"/agent-tasks", 100)) != 2 {
		t.Fatalf("re-ingestion moved the issue or added tasks: %v → %v", got, again)
	}
	stand.mu.Lock()
	defer stand.mu.Unlock()
	if stand.sharpens != 6 || stand.embeds != 2 {
		t.Errorf("after re-ingestion: %d sharpen, %d embeddings requests, want 6 and 2", stand.sharpens, stand.embeds)
	}
}

// A model that fails or does not answer in time leaves the local results: titles from the
// conversations, TF-IDF clusters, tasks without drafts; processing still completes.
func TestConversationsLanguageModelFallback(t *testing.T) {
	for _, mode := range []string{"fail", "hang"} {
		t.Run(mode, func(t *testing.T) {
			stand := &modelStandIn{t: t, mode: mode}
			started := time.Now()
			e, _ := modelEnv(t, stand)
			took := time.Since(started)
			got := issuesByConversation(t, e)
			if len(got) != 5 || got["b2"][0] != "Why was my card charged twice this week?" {
				t.Fatalf("local issues: %v", got)
			}
			clusters := map[string]bool{}
			for _, is := range got {
				clusters[is[1]] = true
			}
			if len(clusters) < 4 { // TF-IDF sees no shared words in either subject
				t.Fatalf("%d clusters by TF-IDF, want at least 4: %v", len(clusters), got)
			}
			tasks := e.WalkList(e.Admin, "/v1/orgs/"+e.Org+"/agent-tasks", 100)
			if len(tasks) != len(clusters) {
				t.Fatalf("%d tasks for %d unanswered clusters", len(tasks), len(clusters))
			}
			for _, tk := range tasks {
				if _, has := tk["changeRequest"]; has {
					t.Fatalf("a task has a change request from a failed model: %v", tk)
				}
			}
			if n := testutil.ToFloat64(e.App.LLMMetrics.Requests.WithLabelValues("error")); n < 2 {
				t.Errorf("failed model requests counted: %v", n)
			}
			t.Logf("mode %s: processed with the fallback in %v", mode, took.Round(time.Millisecond))
		})
	}
}

// A model whose server has no embeddings endpoint still sharpens titles and drafts change
// requests; clustering falls back to TF-IDF.
func TestConversationsChatModelWithoutEmbeddings(t *testing.T) {
	stand := &modelStandIn{t: t, mode: "noembed"}
	e, sp := modelEnv(t, stand)
	got := issuesByConversation(t, e)
	clusters := map[string]bool{}
	for id, is := range got {
		if !strings.HasPrefix(is[0], "Sharp: ") {
			t.Errorf("conversation %s: title %q is not the model's", id, is[0])
		}
		clusters[is[1]] = true
	}
	if len(got) != 5 || len(clusters) < 4 {
		t.Fatalf("%d issues in %d clusters, want 5 in at least 4 (TF-IDF): %v", len(got), len(clusters), got)
	}
	tasks := e.WalkList(e.Admin, "/v1/orgs/"+e.Org+"/agent-tasks", 100)
	if len(tasks) != len(clusters) {
		t.Fatalf("%d tasks for %d clusters", len(tasks), len(clusters))
	}
	for _, tk := range tasks {
		cr, _ := tk["changeRequest"].(string)
		if cr == "" {
			t.Fatalf("task without a drafted change request: %v", tk)
		}
		e.Get(e.Admin, "/v1/spaces/"+sp+"/change-requests/"+cr).Expect(200)
	}
}
