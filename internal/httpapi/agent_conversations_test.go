package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func orgAgentPath(orgID string) string { return "/v1/orgs/" + orgID + "/agent/conversations" }

// convTitles maps the ids of a list's conversations to their titles ("" when absent).
func convTitles(items []map[string]any) map[string]string {
	out := map[string]string{}
	for _, it := range items {
		id, _ := it["id"].(string)
		title, _ := it["title"].(string)
		out[id] = title
	}
	return out
}

// TestAgentConversationsOrganization drives a user's conversations with the organization
// agent without a language model: provisioning records nothing, the first message records
// the conversation with a title of its opening words, and no one else, not even an admin,
// sees it.
func TestAgentConversationsOrganization(t *testing.T) {
	e := apitest.New(t)
	alice := e.Member("alice", auth.Edit)
	bob := e.Member("bob", auth.Read)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	base := orgAgentPath(e.Org)

	empty := e.Get(alice, base).Expect(200)
	if empty.Num("count") != 0 || len(empty.Items()) != 0 {
		t.Fatalf("a new organization lists conversations: %s", empty.Body)
	}
	t.Run("provisioning records nothing", func(t *testing.T) {
		e.Put(alice, base+"/c1", nil).Expect(204)
		e.Put(alice, base+"/c1", nil).Expect(204) // again: harmless
		if n := e.Get(alice, base).Num("count"); n != 0 {
			t.Fatalf("a provisioned conversation is listed (%v)", n)
		}
		e.Patch(alice, base+"/c1", map[string]any{"title": "Named"}).Expect(404)
		e.Delete(alice, base+"/c1").Expect(404)
		e.Get(alice, base+"/c1/messages").Expect(404)
		e.Put(alice, base+"/bad%20id", nil).Expect(400).ExpectMessage("conversationId")
		e.Put(alice, base+"/"+strings.Repeat("x", 129), nil).Expect(400).ExpectMessage("conversationId", "128")
		e.Put(alice, base+"/"+strings.Repeat("x", 128), nil).Expect(204)
	})
	t.Run("who may use the agent", func(t *testing.T) {
		e.Get(outsider, base).Expect(404)
		e.Put(outsider, base+"/c1", nil).Expect(404)
		e.Post(outsider, base+"/c1/messages", map[string]any{"markdown": "hi"}).Expect(404)
		e.Get(guest, base).Expect(403)
		e.Post(guest, base+"/c1/messages", map[string]any{"markdown": "hi"}).Expect(403)
		e.Get(apitest.Anonymous, base).Expect(401)
		e.Get(alice, orgAgentPath("nosuchorg")).Expect(404)
	})

	first := "How do I set up a custom domain for our docs site, step by step?"
	var createdAt string
	t.Run("the first message records the conversation", func(t *testing.T) {
		r := e.Post(alice, base+"/c1/messages", map[string]any{"markdown": first}).Expect(201)
		if loc := r.Header.Get("Location"); !strings.HasSuffix(loc, base+"/c1/messages") {
			t.Errorf("Location %q", loc)
		}
		if got := r.Str("conversation.object"); got != "agent-conversation" {
			t.Errorf("object %q", got)
		}
		if r.Str("conversation.id") != "c1" || r.Bool("conversation.shared") || r.Has("conversation.changeRequest") {
			t.Errorf("conversation: %s", r.Body)
		}
		if got, want := r.Str("conversation.title"), "How do I set up a custom domain…"; got != want {
			t.Errorf("title %q, want the opening words %q", got, want)
		}
		msgs, _ := r.Get("messages")
		if l, _ := msgs.([]any); len(l) != 1 {
			t.Fatalf("without a model, want the message alone: %s", r.Body)
		}
		if r.Str("messages.0.role") != "user" || r.Str("messages.0.author") != alice.ID || r.Str("messages.0.markdown") != first {
			t.Errorf("message: %s", r.Body)
		}
		createdAt = r.Str("conversation.createdAt")
		l := e.Get(alice, base).Expect(200)
		if l.Num("count") != 1 || convTitles(l.Items())["c1"] != "How do I set up a custom domain…" {
			t.Fatalf("list after the first message: %s", l.Body)
		}
	})
	t.Run("another member, even an admin, gets 404", func(t *testing.T) {
		for _, who := range []apitest.Actor{bob, e.Admin} {
			if n := e.Get(who, base).Expect(200).Num("count"); n != 0 {
				t.Errorf("%s lists %v conversations of alice's", who.Name, n)
			}
			e.Patch(who, base+"/c1", map[string]any{"title": "Mine now"}).Expect(404)
			e.Delete(who, base+"/c1").Expect(404)
			e.Get(who, base+"/c1/messages").Expect(404)
		}
		// The same id is bob's own conversation, apart from alice's.
		e.Post(bob, base+"/c1/messages", map[string]any{"markdown": "Where are the billing settings?"}).Expect(201)
		if got := convTitles(e.Get(bob, base).Items())["c1"]; got != "Where are the billing settings?" {
			t.Errorf("bob's c1 title %q", got)
		}
		if n := len(e.Get(alice, base+"/c1/messages").Expect(200).Items()); n != 1 {
			t.Errorf("alice's c1 has %d messages after bob wrote to his", n)
		}
	})
	t.Run("a later message keeps the title", func(t *testing.T) {
		e.Clock.Advance(time.Minute)
		r := e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "And with a subdomain?", "shared": false}).Expect(201)
		if r.Str("conversation.title") != "How do I set up a custom domain…" || r.Str("conversation.createdAt") != createdAt ||
			r.Str("conversation.updatedAt") == createdAt {
			t.Errorf("after a second message: %s", r.Body)
		}
		msgs := e.Get(alice, base+"/c1/messages").Expect(200)
		if msgs.Num("count") != 2 || msgs.Items()[0]["markdown"] != first || msgs.Items()[1]["markdown"] != "And with a subdomain?" {
			t.Errorf("messages, oldest first: %s", msgs.Body)
		}
	})
	t.Run("limits", func(t *testing.T) {
		e.Post(alice, base+"/c1/messages", map[string]any{"markdown": ""}).Expect(400).ExpectMessage("markdown")
		e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "  \n "}).Expect(400).ExpectMessage("markdown")
		e.Post(alice, base+"/c1/messages", map[string]any{}).Expect(400).ExpectMessage("markdown")
		e.Post(alice, base+"/c1/messages", map[string]any{"markdown": strings.Repeat("é", 20001)}).Expect(400).ExpectMessage("markdown", "20000")
		e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "hi", "shared": true}).Expect(400).ExpectMessage("shared")
		e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "hi", "other": 1}).Expect(400)
		e.Post(alice, base+"/c9/messages", map[string]any{"markdown": strings.Repeat("é", 20000)}).Expect(201)
		e.Patch(alice, base+"/c1", map[string]any{}).Expect(400).ExpectMessage("title")
		e.Patch(alice, base+"/c1", map[string]any{"title": " "}).Expect(400).ExpectMessage("title")
		e.Patch(alice, base+"/c1", map[string]any{"title": strings.Repeat("t", 256)}).Expect(400).ExpectMessage("title", "255")
		e.Patch(alice, base+"/c1", map[string]any{"title": 3}).Expect(400)
		e.Get(alice, base+"?limit=1001").Expect(400).ExpectMessage("limit")
		e.Get(alice, base+"?limit=1000").Expect(200)
		e.Get(alice, base+"?page=forged").Expect(400).ExpectMessage("page")
		if got := convTitles(e.Get(alice, base).Items())["c1"]; got != "How do I set up a custom domain…" {
			t.Errorf("refused changes changed the title to %q", got)
		}
		if n := e.Get(alice, base+"/c1/messages").Num("count"); n != 2 {
			t.Errorf("refused messages were stored: %v", n)
		}
	})
	t.Run("rename then list", func(t *testing.T) {
		long := strings.Repeat("t", 255)
		r := e.Patch(alice, base+"/c1", map[string]any{"title": "  " + long + " "}).Expect(200)
		if r.Str("title") != long || r.Str("object") != "agent-conversation" || r.Str("id") != "c1" {
			t.Errorf("rename answer: %.300s", r.Body)
		}
		r = e.Patch(alice, base+"/c1", map[string]any{"title": "Custom domains"}).Expect(200)
		if got := convTitles(e.Get(alice, base).Items())["c1"]; got != "Custom domains" {
			t.Errorf("list after rename: %q", got)
		}
	})
	t.Run("paging", func(t *testing.T) {
		for i := range 5 {
			e.Clock.Advance(time.Second)
			e.Post(alice, fmt.Sprintf("%s/p%d/messages", base, i), map[string]any{"markdown": fmt.Sprintf("Question %d", i)}).Expect(201)
		}
		all := e.WalkList(alice, base, 2)
		seen := map[string]bool{}
		for _, it := range all {
			seen[it["id"].(string)] = true
		}
		if len(all) != 7 || len(seen) != 7 {
			t.Fatalf("walked %d conversations (%d distinct), want 7", len(all), len(seen))
		}
		if all[0]["id"] != "p4" || all[4]["id"] != "p0" {
			t.Errorf("want the newest first: %v", all)
		}
		page := e.Get(alice, base+"?limit=2").Expect(200)
		if page.Num("count") != 7 || len(page.Items()) != 2 || !page.Has("next.page") {
			t.Errorf("first page: %s", page.Body)
		}
	})
	t.Run("delete then list", func(t *testing.T) {
		e.Delete(alice, base+"/c1").Expect(http.StatusResetContent)
		if _, there := convTitles(e.Get(alice, base).Items())["c1"]; there {
			t.Fatal("a deleted conversation is listed")
		}
		e.Get(alice, base+"/c1/messages").Expect(404)
		e.Patch(alice, base+"/c1", map[string]any{"title": "Back"}).Expect(404)
		e.Delete(alice, base+"/c1").Expect(404)
		e.Delete(alice, base+"/nosuch").Expect(404)
		// bob's conversation of the same id stays.
		if _, there := convTitles(e.Get(bob, base).Items())["c1"]; !there {
			t.Error("deleting alice's c1 deleted bob's")
		}
		// A message to the id again starts a new conversation.
		r := e.Post(alice, base+"/c1/messages", map[string]any{"markdown": "Starting over"}).Expect(201)
		if r.Str("conversation.title") != "Starting over" {
			t.Errorf("restarted: %s", r.Body)
		}
		if n := e.Get(alice, base+"/c1/messages").Num("count"); n != 1 {
			t.Errorf("a restarted conversation has %v messages, want 1", n)
		}
	})
}

// TestAgentConversationsChangeRequest drives a change request's conversations: whoever sees
// the change request sees its shared conversations; the edit role writes; a private one is
// its creator's alone.
func TestAgentConversationsChangeRequest(t *testing.T) {
	e := apitest.New(t)
	alice := e.Member("alice", auth.Edit)
	bob := e.Member("bob", auth.Edit)
	reader := e.Member("reader", auth.Read)
	outsider := e.NewUser("outsider")
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Docs"})
	cr := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "Rework the guide"})
	if cr.Status >= 300 {
		t.Fatalf("create a change request: %d %s", cr.Status, cr.Body)
	}
	crID, crNum := cr.Str("id"), fmt.Sprint(int(cr.Num("number")))
	base := changeRequestsPath(sp) + "/" + crID + "/conversations"
	byNumber := changeRequestsPath(sp) + "/" + crNum + "/conversations"

	t.Run("the change request must be visible", func(t *testing.T) {
		// The new space is private: members of the organization do not see it yet.
		e.Get(reader, base).Expect(404)
		e.Post(alice, base+"/default/messages", map[string]any{"markdown": "hi"}).Expect(404)
		e.Get(outsider, base).Expect(404)
		e.Get(e.Admin, changeRequestsPath(sp)+"/nosuchcr/conversations").Expect(404)
		e.Get(e.Admin, "/v1/spaces/nosuchspace/change-requests/1/conversations").Expect(404)
		e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"visibility": "unlisted"}).Expect(200)
		e.Get(reader, base).Expect(200)
	})
	t.Run("shared by default", func(t *testing.T) {
		r := e.Post(alice, base+"/default/messages", map[string]any{"markdown": "Which pages does this change touch?"}).Expect(201)
		if r.Str("conversation.id") != "default" || !r.Bool("conversation.shared") || r.Has("conversation.changeRequest") ||
			r.Str("conversation.title") != "Which pages does this change touch?" {
			t.Errorf("the default conversation: %s", r.Body)
		}
		for _, who := range []apitest.Actor{reader, bob, e.Admin} {
			for _, path := range []string{base, byNumber} {
				if got := convTitles(e.Get(who, path).Expect(200).Items())["default"]; got != "Which pages does this change touch?" {
					t.Errorf("%s lists %s: default titled %q", who.Name, path, got)
				}
			}
		}
		if n := e.Get(reader, base+"/default/messages").Expect(200).Num("count"); n != 1 {
			t.Errorf("reader reads %v messages", n)
		}
		e.Post(bob, byNumber+"/default/messages", map[string]any{"markdown": "The guide and its children."}).Expect(201)
		if n := e.Get(alice, base+"/default/messages").Num("count"); n != 2 {
			t.Errorf("two editors' messages: %v", n)
		}
	})
	t.Run("the edit role writes", func(t *testing.T) {
		e.Post(reader, base+"/default/messages", map[string]any{"markdown": "hi"}).Expect(403)
		e.Patch(reader, base+"/default", map[string]any{"title": "Mine"}).Expect(403)
		e.Delete(reader, base+"/default").Expect(403)
		e.Post(reader, base+"/other/messages", map[string]any{"markdown": "hi"}).Expect(403)
	})
	t.Run("a private conversation", func(t *testing.T) {
		e.Post(alice, base+"/default/messages", map[string]any{"markdown": "hi", "shared": false}).Expect(400).ExpectMessage("shared")
		e.Post(alice, base+"/fresh/messages", map[string]any{"markdown": "hi", "shared": false, "x": 1}).Expect(400)
		e.Post(alice, base+"/default2/messages", map[string]any{"markdown": "hi", "shared": true}).Expect(201)
		e.Post(alice, base+"/default2/messages", map[string]any{"markdown": "hi", "shared": false}).Expect(400).ExpectMessage("shared")
		r := e.Post(alice, base+"/mine/messages", map[string]any{"markdown": "Draft a summary for me", "shared": false}).Expect(201)
		if r.Bool("conversation.shared") {
			t.Fatalf("shared: false was not kept: %s", r.Body)
		}
		if _, there := convTitles(e.Get(alice, base).Items())["mine"]; !there {
			t.Error("its creator does not list it")
		}
		for _, who := range []apitest.Actor{bob, reader, e.Admin} {
			if _, there := convTitles(e.Get(who, base).Items())["mine"]; there {
				t.Errorf("%s lists alice's private conversation", who.Name)
			}
			e.Get(who, base+"/mine/messages").Expect(404)
		}
		e.Patch(bob, base+"/mine", map[string]any{"title": "Mine"}).Expect(404)
		e.Delete(bob, base+"/mine").Expect(404)
		e.Post(bob, base+"/mine/messages", map[string]any{"markdown": "hi"}).Expect(404)
		if n := e.Get(alice, base+"/mine/messages").Num("count"); n != 1 {
			t.Errorf("alice's private conversation has %v messages", n)
		}
		if n := e.Get(bob, base).Num("count"); n != 2 {
			t.Errorf("bob counts %v conversations, want the 2 shared ones", n)
		}
	})
	t.Run("rename, delete, unknown ids", func(t *testing.T) {
		r := e.Patch(bob, byNumber+"/default", map[string]any{"title": "Scope of the rework"}).Expect(200)
		if r.Str("title") != "Scope of the rework" || !r.Bool("shared") {
			t.Errorf("rename: %s", r.Body)
		}
		if got := convTitles(e.Get(reader, base).Items())["default"]; got != "Scope of the rework" {
			t.Errorf("list after rename: %q", got)
		}
		e.Patch(bob, base+"/nosuch", map[string]any{"title": "x"}).Expect(404)
		e.Delete(bob, base+"/nosuch").Expect(404)
		e.Get(bob, base+"/nosuch/messages").Expect(404)
		e.Patch(bob, base+"/default", map[string]any{"title": strings.Repeat("t", 256)}).Expect(400).ExpectMessage("title", "255")
		e.Delete(bob, base+"/default").Expect(http.StatusResetContent)
		if _, there := convTitles(e.Get(reader, base).Items())["default"]; there {
			t.Error("a deleted conversation is listed")
		}
		e.Get(reader, base+"/default/messages").Expect(404)
		e.Get(alice, base+"?limit=1001").Expect(400).ExpectMessage("limit")
		// A change request's conversations are not the organization agent's.
		if n := e.Get(alice, orgAgentPath(e.Org)).Num("count"); n != 0 {
			t.Errorf("the organization agent lists %v conversations", n)
		}
	})
	t.Run("an archived change request takes no messages", func(t *testing.T) {
		e.Patch(e.Admin, changeRequestsPath(sp)+"/"+crID, map[string]any{"status": "archived"}).Expect(200)
		e.Post(alice, base+"/default2/messages", map[string]any{"markdown": "still there?"}).Expect(409).ExpectMessage("archived")
		if n := e.Get(alice, base+"/default2/messages").Num("count"); n != 1 {
			t.Errorf("a refused message was stored: %v", n)
		}
		// Its conversations stay readable, and can be renamed and deleted.
		e.Patch(alice, base+"/default2", map[string]any{"title": "Old"}).Expect(200)
		e.Delete(alice, base+"/default2").Expect(http.StatusResetContent)
	})
}

// TestAgentConversationsConcurrentFirstMessages: members sending the first messages of one
// change request conversation at once make one conversation holding every message.
func TestAgentConversationsConcurrentFirstMessages(t *testing.T) {
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Docs"})
	cr := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "Race"})
	base := changeRequestsPath(sp) + "/" + cr.Str("id") + "/conversations"
	const n = 8
	statuses := make(chan int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			statuses <- e.Post(e.Admin, base+"/default/messages", map[string]any{"markdown": fmt.Sprintf("Message %d", i)}).Status
		}()
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != 201 {
			t.Errorf("a concurrent send answered %d", s)
		}
	}
	if c := e.Get(e.Admin, base).Expect(200).Num("count"); c != 1 {
		t.Fatalf("%v conversations, want 1", c)
	}
	msgs := e.WalkList(e.Admin, base+"/default/messages", 3)
	seen := map[string]bool{}
	for _, m := range msgs {
		seen[m["markdown"].(string)] = true
	}
	if len(msgs) != n || len(seen) != n {
		t.Errorf("%d messages (%d distinct), want %d", len(msgs), len(seen), n)
	}
}

// TestAgentConversationsGoWithTheirSpace: when a deleted space is purged, its change
// requests' conversations and their messages go with it.
func TestAgentConversationsGoWithTheirSpace(t *testing.T) {
	e := apitest.New(t)
	ctx := context.Background()
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Short-lived"})
	cr := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "Doomed"})
	base := changeRequestsPath(sp) + "/" + cr.Str("id") + "/conversations"
	e.Post(e.Admin, base+"/default/messages", map[string]any{"markdown": "First"}).Expect(201)
	e.Post(e.Admin, base+"/default/messages", map[string]any{"markdown": "Second"}).Expect(201)
	e.Post(e.Admin, orgAgentPath(e.Org)+"/mine/messages", map[string]any{"markdown": "Kept"}).Expect(201)
	count := func(table string) int {
		t.Helper()
		var n int
		if err := e.App.DB.Read().QueryRow(ctx, `SELECT COUNT(*) FROM `+table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	if count("agent_conversations") != 2 || count("agent_conversation_messages") != 3 {
		t.Fatalf("before: %d conversations, %d messages", count("agent_conversations"), count("agent_conversation_messages"))
	}
	e.Delete(e.Admin, "/v1/spaces/"+sp).Expect(204)
	e.Clock.Advance(8 * 24 * time.Hour)
	if _, err := e.App.Jobs.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if c, m := count("agent_conversations"), count("agent_conversation_messages"); c != 1 || m != 1 {
		t.Errorf("after the purge: %d conversations, %d messages; want the organization agent's alone (1, 1)", c, m)
	}
	if n := e.Get(e.Admin, orgAgentPath(e.Org)).Num("count"); n != 1 {
		t.Errorf("the organization agent lists %v conversations", n)
	}
}
