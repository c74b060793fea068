package httpapi_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/config"
)

// agentModel is an OpenAI-compatible chat endpoint on loopback for the agent: it titles a
// conversation "Custom domain setup" and answers "Answer <n>: …" quoting the last line of
// the prompt. In mode "fail" every request gets a 500; in mode "notitle" titles come back
// empty while answers still come.
type agentModel struct {
	t    *testing.T
	mu   sync.Mutex
	mode string
	// replies holds each answer request's system and user messages.
	replies [][2]string
	titles  int
}

func (m *agentModel) setMode(mode string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.mode = mode
}

func (m *agentModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.mode == "fail" {
		writeModelFailure(w)
		return
	}
	if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer test-key" {
		m.t.Errorf("unexpected request %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	body, ok := readChat(m.t, w, r)
	if !ok {
		return
	}
	system, user := body.Messages[0].Content, body.Messages[1].Content
	var answer string
	switch {
	case strings.Contains(system, "Write a title"):
		m.titles++
		if m.mode != "notitle" {
			answer = "\"Custom domain setup.\"\nextra line"
		}
	case strings.Contains(system, "documentation agent"):
		m.replies = append(m.replies, [2]string{system, user})
		lines := strings.Split(strings.TrimSpace(user), "\n")
		answer = "Answer " + string(rune('0'+len(m.replies))) + ": about " + lines[len(lines)-1]
	default:
		m.t.Errorf("unexpected system prompt %q", system)
	}
	writeChatAnswer(w, answer)
}

// TestAgentConversationsModel: with a language model the agent answers each message (seeing
// the conversation so far) and titles a new conversation; a model that fails is a 502 with
// nothing recorded.
func TestAgentConversationsModel(t *testing.T) {
	m := &agentModel{t: t, mode: "ok"}
	model := useModel(t, m)
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		model(c)
		c.Language.LLMTimeout = 400 * time.Millisecond
	})
	alice := e.Member("alice", auth.Edit)
	base := orgAgentPath(e.Org)

	t.Run("message then answer and title", func(t *testing.T) {
		r := e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "How do I point my domain at the docs?"}).Expect(201)
		if got := r.Str("conversation.title"); got != "Custom domain setup" {
			t.Errorf("title %q, want the model's, cleaned", got)
		}
		if r.Str("messages.0.role") != "user" || r.Str("messages.1.role") != "assistant" || r.Has("messages.1.author") ||
			r.Str("messages.1.markdown") != "Answer 1: about How do I point my domain at the docs?" {
			t.Fatalf("exchange: %s", r.Body)
		}
		if got := convTitles(e.Get(alice, base).Items())["c1"]; got != "Custom domain setup" {
			t.Errorf("listed title %q", got)
		}
	})
	t.Run("the model sees the conversation so far", func(t *testing.T) {
		r := e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "And for a subdomain?"}).Expect(201)
		if r.Str("conversation.title") != "Custom domain setup" || r.Str("messages.1.markdown") != "Answer 2: about And for a subdomain?" {
			t.Errorf("second exchange: %s", r.Body)
		}
		m.mu.Lock()
		user := m.replies[len(m.replies)-1][1]
		titles := m.titles
		m.mu.Unlock()
		for _, want := range []string{"User: How do I point my domain at the docs?", "Assistant: Answer 1: about", "And for a subdomain?"} {
			if !strings.Contains(user, want) {
				t.Errorf("the prompt lacks %q: %q", want, user)
			}
		}
		if titles != 1 {
			t.Errorf("titled %d times, want once (the first message)", titles)
		}
		msgs := e.Get(alice, base+"/c1/messages").Expect(200)
		roles := []string{}
		for _, it := range msgs.Items() {
			roles = append(roles, it["role"].(string))
		}
		if strings.Join(roles, ",") != "user,assistant,user,assistant" {
			t.Errorf("stored roles %v", roles)
		}
	})
	t.Run("a failing model records nothing", func(t *testing.T) {
		m.setMode("fail")
		defer m.setMode("ok")
		e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "Still there?"}).Expect(502).ExpectMessage("language model")
		e.Post(alice, base+"/c2/messages", map[string]any{"markdown": "New question"}).Expect(502)
		if n := e.Get(alice, base+"/c1/messages").Num("count"); n != 4 {
			t.Errorf("c1 has %v messages after a failed send, want 4", n)
		}
		e.Get(alice, base+"/c2/messages").Expect(404)
		if n := e.Get(alice, base).Num("count"); n != 1 {
			t.Errorf("%v conversations listed after failed sends, want 1", n)
		}
	})
	t.Run("no title from the model: the opening words", func(t *testing.T) {
		m.setMode("notitle")
		defer m.setMode("ok")
		r := e.Post(alice, base+"/c3/messages", map[string]any{"markdown": "Where do I change the logo?"}).Expect(201)
		if r.Str("conversation.title") != "Where do I change the logo?" || !strings.HasPrefix(r.Str("messages.1.markdown"), "Answer") {
			t.Errorf("exchange: %s", r.Body)
		}
	})
	t.Run("a change request's context reaches the model", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Docs"})
		cr := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "Rework the guide"})
		path := changeRequestsPath(sp) + "/" + cr.Str("id") + "/conversations/default/messages"
		e.Post(e.Admin, path, map[string]any{"markdown": "Summarize this change"}).Expect(201)
		m.mu.Lock()
		system := m.replies[len(m.replies)-1][0]
		m.mu.Unlock()
		if !strings.Contains(system, "change request #1 (Rework the guide)") {
			t.Errorf("system prompt lacks the change request: %q", system)
		}
	})
}
