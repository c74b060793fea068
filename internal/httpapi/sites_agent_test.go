package httpapi_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

const emptyDocument = `{"object":"document","data":{},"nodes":[]}`

// customInstructionsOf returns the compact JSON of an agent-settings answer's instructions.
func customInstructionsOf(t *testing.T, r *apitest.Resp) string {
	t.Helper()
	var body struct {
		Editing struct {
			CustomInstructions json.RawMessage `json:"customInstructions"`
		} `json:"editing"`
	}
	r.JSON(&body)
	return compact(t, string(body.Editing.CustomInstructions))
}

func agentSettingsBody(topics, changeRequests, instructions string) string {
	return `{"scans":{"topics":"` + topics + `"},"findings":{"changeRequests":"` + changeRequests +
		`"},"editing":{"customInstructions":` + instructions + `}}`
}

func TestSiteAgentSettings(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, nil) + "/agent-settings"
	reader := e.Member("reader", auth.Read)

	t.Run("never set: the defaults, without updatedAt or updatedBy", func(t *testing.T) {
		for _, a := range []apitest.Actor{e.Admin, reader} {
			r := e.Get(a, path).Expect(200)
			if r.Str("object") != "site-agent-settings" || r.Str("scans.topics") != "never" ||
				r.Str("findings.changeRequests") != "never" || r.Str("urls.location") != e.URL+path {
				t.Errorf("defaults: %s", r.Body)
			}
			if got := customInstructionsOf(t, r); got != emptyDocument {
				t.Errorf("default instructions = %s", got)
			}
			if r.Has("updatedAt") || r.Has("updatedBy") {
				t.Errorf("defaults carry an update: %s", r.Body)
			}
		}
	})

	at := time.Date(2026, 5, 6, 7, 8, 9, 123000000, time.UTC)
	e.Clock.Set(at)
	r := e.Put(e.Admin, path, agentSettingsBody("auto", "auto-fixable", sampleInstructions)).Expect(200)
	if r.Str("scans.topics") != "auto" || r.Str("findings.changeRequests") != "auto-fixable" ||
		customInstructionsOf(t, r) != compact(t, sampleInstructions) || r.Str("updatedAt") != "2026-05-06T07:08:09.123Z" ||
		r.Str("updatedBy") != e.Admin.ID || r.Str("object") != "site-agent-settings" || r.Str("urls.location") != e.URL+path {
		t.Fatalf("PUT answer: %s", r.Body)
	}
	g := e.Get(reader, path).Expect(200)
	if g.Str("scans.topics") != "auto" || g.Str("findings.changeRequests") != "auto-fixable" ||
		customInstructionsOf(t, g) != compact(t, sampleInstructions) || g.Str("updatedBy") != e.Admin.ID ||
		g.Str("updatedAt") != "2026-05-06T07:08:09.123Z" {
		t.Errorf("GET after PUT: %s", g.Body)
	}

	t.Run("a reader may not replace them", func(t *testing.T) {
		e.Put(reader, path, agentSettingsBody("never", "always", emptyDocument)).Expect(403)
		if g := e.Get(e.Admin, path).Expect(200); g.Str("findings.changeRequests") != "auto-fixable" || g.Str("updatedBy") != e.Admin.ID {
			t.Errorf("after the refused PUT: %s", g.Body)
		}
	})

	t.Run("a PUT replaces everything", func(t *testing.T) {
		other := e.Member("other-admin", auth.Admin)
		e.Clock.Set(at.Add(time.Hour))
		e.Put(other, path, agentSettingsBody("never", "always", emptyDocument)).Expect(200)
		g := e.Get(e.Admin, path).Expect(200)
		if g.Str("scans.topics") != "never" || g.Str("findings.changeRequests") != "always" ||
			customInstructionsOf(t, g) != emptyDocument || g.Str("updatedBy") != other.ID || g.Str("updatedAt") != "2026-05-06T08:08:09.123Z" {
			t.Errorf("after the second PUT: %s", g.Body)
		}
	})

	t.Run("who cannot see the site gets 404; guests 403", func(t *testing.T) {
		guest := e.NewUser("guest")
		e.AddMember(e.Org, guest, "")
		e.Get(guest, path).Expect(403)
		stranger := e.NewUser("stranger")
		e.Get(stranger, path).Expect(404)
		e.Put(stranger, path, agentSettingsBody("auto", "never", emptyDocument)).Expect(404)
		// The admin of another organization, naming this site under their own organization.
		otherOrg := e.NewOrg(stranger, "Elsewhere")
		foreign := "/v1/orgs/" + otherOrg + "/sites/" + strings.Split(path, "/")[5] + "/agent-settings"
		e.Get(stranger, foreign).Expect(404)
		e.Put(stranger, foreign, agentSettingsBody("auto", "never", emptyDocument)).Expect(404)
		e.Get(e.Admin, sitesPath(e)+"/nosuchsite/agent-settings").Expect(404)
		e.Do(apitest.Actor{}, "GET", path, nil).Expect(401)
		if g := e.Get(e.Admin, path).Expect(200); g.Str("findings.changeRequests") != "always" {
			t.Errorf("changed by a refused caller: %s", g.Body)
		}
	})
}

func TestSiteAgentSettingsValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, nil) + "/agent-settings"
	e.Put(e.Admin, path, agentSettingsBody("auto", "always", sampleInstructions)).Expect(200)
	cases := []struct {
		name, body string
		msg        []string
	}{
		{"empty body", `{}`, []string{"scans", "required"}},
		{"scans.topics missing", `{"scans":{},"findings":{"changeRequests":"never"},"editing":{"customInstructions":` + emptyDocument + `}}`, []string{"scans.topics", "required"}},
		{"findings missing", `{"scans":{"topics":"auto"},"editing":{"customInstructions":` + emptyDocument + `}}`, []string{"findings", "required"}},
		{"findings.changeRequests missing", `{"scans":{"topics":"auto"},"findings":{},"editing":{"customInstructions":` + emptyDocument + `}}`, []string{"findings.changeRequests", "required"}},
		{"editing missing", `{"scans":{"topics":"auto"},"findings":{"changeRequests":"never"}}`, []string{"editing", "required"}},
		{"customInstructions missing", `{"scans":{"topics":"auto"},"findings":{"changeRequests":"never"},"editing":{}}`, []string{"editing.customInstructions", "required"}},
		{"topics out of the enum", agentSettingsBody("sometimes", "never", emptyDocument), []string{"scans.topics", "auto, never", "sometimes"}},
		{"changeRequests out of the enum", agentSettingsBody("auto", "auto", emptyDocument), []string{"findings.changeRequests", "always, auto-fixable, never"}},
		{"instructions not a document", agentSettingsBody("auto", "never", `"Be brief"`), []string{"editing.customInstructions"}},
		{"instructions with an unknown block", agentSettingsBody("auto", "never", `{"object":"document","data":{},"nodes":[{"object":"block","type":"foo","nodes":[]}]}`),
			[]string{`editing.customInstructions.nodes[0].type`, "foo"}},
		{"topics of the wrong type", `{"scans":{"topics":1},"findings":{"changeRequests":"never"},"editing":{"customInstructions":` + emptyDocument + `}}`, []string{"scans.topics", "string"}},
		{"an unknown field", `{"scans":{"topics":"auto"},"findings":{"changeRequests":"never"},"editing":{"customInstructions":` + emptyDocument + `},"tone":"dry"}`, []string{"tone", "unknown field"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.Put(e.Admin, path, c.body).Expect(400).ExpectMessage(c.msg...)
		})
	}
	g := e.Get(e.Admin, path).Expect(200)
	if g.Str("scans.topics") != "auto" || g.Str("findings.changeRequests") != "always" || customInstructionsOf(t, g) != compact(t, sampleInstructions) {
		t.Errorf("refused PUTs changed the settings: %s", g.Body)
	}
}

// feedbackOf builds an agent feedback body with subject and a usability summary.
func feedbackOf(subject map[string]any) map[string]any {
	return map[string]any{"subject": subject, "feedback": map[string]any{"category": "usability", "summary": "Hard to use"}}
}

func TestSiteAgentFeedback(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	site := newSite(t, e, nil)
	submit, legacy, list := site+"/agents/feedback", site+"/agent-feedback", site+"/agents/feedback"
	reader := e.Member("reader", auth.Read)
	at := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)

	full := map[string]any{
		"reportedBy": map[string]any{"model": "model-x", "userAgent": "claude-code/1.2.3", "correlationId": "call-7", "onDemand": true},
		"subject":    map[string]any{"kind": "cli-command", "command": "docs publish", "flags": []string{"--site", "--force"}},
		"feedback": map[string]any{"category": "could-not-accomplish", "severity": "high", "goal": "Publish the docs",
			"summary": "No dry run", "detail": "The command has no way to preview.", "workaround": "Published to a test site",
			"metrics": map[string]any{"callCount": 3, "successCount": 1, "retryCount": 2}},
	}
	subjects := []map[string]any{
		{"kind": "mcp-tool", "toolName": "search", "target": "searchSpaceContent"},
		{"kind": "api-endpoint", "method": "POST", "path": "/v1/orgs/{organizationId}/sites"},
		{"kind": "documentation", "url": "https://docs.example.com/guide"},
		{"kind": "generic"},
	}
	var ids []string
	for i, sub := range subjects {
		e.Clock.Set(at.Add(time.Duration(i) * time.Minute))
		r := e.Post(reader, submit, feedbackOf(sub)).Expect(201)
		if r.Str("id") == "" || r.Str("result") == "" {
			t.Fatalf("answer: %s", r.Body)
		}
		ids = append(ids, r.Str("id"))
	}
	e.Clock.Set(at.Add(10 * time.Minute))
	fullID := e.Post(e.Admin, submit, full).Expect(201).Str("id")
	e.Clock.Set(at.Add(11 * time.Minute))
	e.Post(reader, legacy, map[string]any{"feedback": "The install page is outdated", "goal": "Install it",
		"url": "https://docs.example.com/install", "spaceId": "space1", "pageId": "page1", "source": "mcp"}).Expect(204)

	t.Run("the admins' list holds everything, newest first, as it was submitted", func(t *testing.T) {
		r := e.Get(e.Admin, list).Expect(200)
		items := r.Items()
		if r.Num("count") != 6 || len(items) != 6 {
			t.Fatalf("list: %s", r.Body)
		}
		legacyItem, fullItem := items[0], items[1]
		want := map[string]any{"object": "site-agent-feedback", "createdBy": reader.ID, "source": "mcp",
			"subject":  map[string]any{"kind": "site-content", "url": "https://docs.example.com/install", "spaceId": "space1", "pageId": "page1"},
			"feedback": map[string]any{"detail": "The install page is outdated", "goal": "Install it"}}
		for k, v := range want {
			if !jsonEqual(legacyItem[k], v) {
				t.Errorf("site-content item %s = %v, want %v", k, legacyItem[k], v)
			}
		}
		if legacyItem["createdAt"] != "2026-07-01T09:11:00.000Z" {
			t.Errorf("createdAt = %v", legacyItem["createdAt"])
		}
		if fullItem["id"] != fullID || fullItem["createdBy"] != e.Admin.ID || fullItem["source"] != nil ||
			!jsonEqual(fullItem["reportedBy"], full["reportedBy"]) || !jsonEqual(fullItem["subject"], full["subject"]) ||
			!jsonEqual(fullItem["feedback"], full["feedback"]) {
			t.Errorf("full item: %v", fullItem)
		}
		for i, it := range items[2:] {
			if it["id"] != ids[len(ids)-1-i] || !jsonEqual(it["subject"], subjects[len(ids)-1-i]) {
				t.Errorf("item %d: %v", i+2, it)
			}
		}
		if walked := e.WalkList(e.Admin, list, 2); len(walked) != 6 {
			t.Errorf("walk in pages of 2: %d items", len(walked))
		}
	})

	t.Run("filters by kind and category", func(t *testing.T) {
		if r := e.Get(e.Admin, list+"?kind=site-content").Expect(200); r.Num("count") != 1 {
			t.Errorf("site-content: %s", r.Body)
		}
		if r := e.Get(e.Admin, list+"?kind=mcp-tool").Expect(200); r.Num("count") != 1 || r.IDs()[0] != ids[0] {
			t.Errorf("mcp-tool: %s", r.Body)
		}
		if r := e.Get(e.Admin, list+"?category=usability").Expect(200); r.Num("count") != 4 {
			t.Errorf("usability: %s", r.Body)
		}
		if r := e.Get(e.Admin, list+"?category=could-not-accomplish&kind=cli-command").Expect(200); r.Num("count") != 1 || r.IDs()[0] != fullID {
			t.Errorf("both: %s", r.Body)
		}
		e.Get(e.Admin, list+"?kind=page").Expect(400).ExpectMessage("kind", "site-content")
		e.Get(e.Admin, list+"?category=bad").Expect(400).ExpectMessage("category", "usability")
	})

	t.Run("permissions", func(t *testing.T) {
		e.Get(reader, list).Expect(403)
		guest := e.NewUser("guest")
		e.AddMember(e.Org, guest, "")
		e.Post(guest, submit, feedbackOf(map[string]any{"kind": "generic"})).Expect(403)
		stranger := e.NewUser("stranger")
		e.Post(stranger, submit, feedbackOf(map[string]any{"kind": "generic"})).Expect(404)
		e.Post(stranger, legacy, map[string]any{"feedback": "x", "url": "https://a.example", "spaceId": "s", "pageId": "p"}).Expect(404)
		e.Get(stranger, list).Expect(404)
		otherOrg := e.NewOrg(stranger, "Elsewhere")
		foreign := "/v1/orgs/" + otherOrg + "/sites/" + strings.Split(site, "/")[5]
		e.Post(stranger, foreign+"/agents/feedback", feedbackOf(map[string]any{"kind": "generic"})).Expect(404)
		e.Get(stranger, foreign+"/agents/feedback").Expect(404)
		e.Post(e.Admin, sitesPath(e)+"/nosuchsite/agents/feedback", feedbackOf(map[string]any{"kind": "generic"})).Expect(404)
		e.Do(apitest.Actor{}, "POST", submit, feedbackOf(map[string]any{"kind": "generic"})).Expect(401)
		if r := e.Get(e.Admin, list+"?limit=0").Expect(200); r.Num("count") != 6 {
			t.Errorf("refused submissions were recorded: %s", r.Body)
		}
	})
}

func TestSiteAgentFeedbackValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	site := newSite(t, e, nil)
	submit, legacy := site+"/agents/feedback", site+"/agent-feedback"
	long := func(n int) string { return strings.Repeat("a", n) }
	withFeedback := func(k string, v any) map[string]any {
		b := feedbackOf(map[string]any{"kind": "generic"})
		b["feedback"].(map[string]any)[k] = v
		return b
	}
	flags := make([]string, 51)
	for i := range flags {
		flags[i] = "--f"
	}
	cases := []struct {
		name string
		body any
		msg  []string
	}{
		{"subject missing", map[string]any{"feedback": map[string]any{"category": "usability", "summary": "s"}}, []string{"subject", "required"}},
		{"feedback missing", map[string]any{"subject": map[string]any{"kind": "generic"}}, []string{"feedback", "required"}},
		{"kind missing", feedbackOf(map[string]any{}), []string{"subject.kind", "required"}},
		{"unknown kind", feedbackOf(map[string]any{"kind": "site-content", "url": "https://a.example"}), []string{"subject.kind", "mcp-tool", "site-content"}},
		{"a field of another kind", feedbackOf(map[string]any{"kind": "generic", "toolName": "x"}), []string{"subject.toolName", "generic"}},
		{"toolName missing", feedbackOf(map[string]any{"kind": "mcp-tool"}), []string{"subject.toolName", "required"}},
		{"toolName too long", feedbackOf(map[string]any{"kind": "mcp-tool", "toolName": long(201)}), []string{"subject.toolName", "200"}},
		{"target too long", feedbackOf(map[string]any{"kind": "mcp-tool", "toolName": "t", "target": long(201)}), []string{"subject.target", "200"}},
		{"command missing", feedbackOf(map[string]any{"kind": "cli-command"}), []string{"subject.command", "required"}},
		{"command too long", feedbackOf(map[string]any{"kind": "cli-command", "command": long(201)}), []string{"subject.command", "200"}},
		{"too many flags", feedbackOf(map[string]any{"kind": "cli-command", "command": "c", "flags": flags}), []string{"subject.flags", "50"}},
		{"a flag too long", feedbackOf(map[string]any{"kind": "cli-command", "command": "c", "flags": []string{"--a", long(101)}}), []string{"subject.flags[1]", "100"}},
		{"method missing", feedbackOf(map[string]any{"kind": "api-endpoint", "path": "/x"}), []string{"subject.method", "required"}},
		{"path missing", feedbackOf(map[string]any{"kind": "api-endpoint", "method": "GET"}), []string{"subject.path", "required"}},
		{"method out of the enum", feedbackOf(map[string]any{"kind": "api-endpoint", "method": "get", "path": "/x"}), []string{"subject.method", "GET, POST"}},
		{"path too long", feedbackOf(map[string]any{"kind": "api-endpoint", "method": "GET", "path": long(501)}), []string{"subject.path", "500"}},
		{"url missing", feedbackOf(map[string]any{"kind": "documentation"}), []string{"subject.url", "required"}},
		{"url not a URI", feedbackOf(map[string]any{"kind": "documentation", "url": "docs/page"}), []string{"subject.url", "absolute URI"}},
		{"url too long", feedbackOf(map[string]any{"kind": "documentation", "url": "https://a.example/" + long(2031)}), []string{"subject.url", "2048"}},
		{"category missing", map[string]any{"subject": map[string]any{"kind": "generic"}, "feedback": map[string]any{"summary": "s"}}, []string{"feedback.category", "required"}},
		{"summary missing", map[string]any{"subject": map[string]any{"kind": "generic"}, "feedback": map[string]any{"category": "usability"}}, []string{"feedback.summary", "required"}},
		{"category out of the enum", withFeedback("category", "speed"), []string{"feedback.category", "could-not-accomplish"}},
		{"severity out of the enum", withFeedback("severity", "critical"), []string{"feedback.severity", "low, medium, high"}},
		{"summary empty", withFeedback("summary", ""), []string{"feedback.summary", "1 to 256"}},
		{"summary too long", withFeedback("summary", long(257)), []string{"feedback.summary", "256"}},
		{"goal too long", withFeedback("goal", long(1025)), []string{"feedback.goal", "1024"}},
		{"detail too long", withFeedback("detail", long(4097)), []string{"feedback.detail", "4096"}},
		{"workaround too long", withFeedback("workaround", long(2049)), []string{"feedback.workaround", "2048"}},
		{"a negative count", withFeedback("metrics", map[string]any{"retryCount": -1}), []string{"feedback.metrics.retryCount", "at least 0"}},
		{"a count not an integer", withFeedback("metrics", map[string]any{"callCount": 1.5}), []string{"callCount", "number"}},
		{"an unknown metric", withFeedback("metrics", map[string]any{"tokens": 1}), []string{"tokens", "unknown field"}},
		{"model too long", map[string]any{"reportedBy": map[string]any{"model": long(101)}, "subject": map[string]any{"kind": "generic"},
			"feedback": map[string]any{"category": "usability", "summary": "s"}}, []string{"reportedBy.model", "100"}},
		{"userAgent too long", map[string]any{"reportedBy": map[string]any{"userAgent": long(513)}, "subject": map[string]any{"kind": "generic"},
			"feedback": map[string]any{"category": "usability", "summary": "s"}}, []string{"reportedBy.userAgent", "512"}},
		{"correlationId too long", map[string]any{"reportedBy": map[string]any{"correlationId": long(101)}, "subject": map[string]any{"kind": "generic"},
			"feedback": map[string]any{"category": "usability", "summary": "s"}}, []string{"reportedBy.correlationId", "100"}},
		{"onDemand not a boolean", map[string]any{"reportedBy": map[string]any{"onDemand": "yes"}, "subject": map[string]any{"kind": "generic"},
			"feedback": map[string]any{"category": "usability", "summary": "s"}}, []string{"reportedBy.onDemand", "boolean"}},
		{"an unknown field", map[string]any{"subject": map[string]any{"kind": "generic"}, "feedback": map[string]any{"category": "usability", "summary": "s"}, "user": "x"},
			[]string{"user", "unknown field"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.Post(e.Admin, submit, c.body).Expect(400).ExpectMessage(c.msg...)
		})
	}

	legacyOf := func(k string, v any) map[string]any {
		b := map[string]any{"feedback": "Outdated", "url": "https://docs.example.com/p", "spaceId": "s1", "pageId": "p1"}
		if v == nil {
			delete(b, k)
		} else {
			b[k] = v
		}
		return b
	}
	legacyCases := []struct {
		name string
		body any
		msg  []string
	}{
		{"feedback missing", legacyOf("feedback", nil), []string{"feedback", "required"}},
		{"feedback empty", legacyOf("feedback", ""), []string{"feedback", "1 to 2048"}},
		{"feedback too long", legacyOf("feedback", long(2049)), []string{"feedback", "2048"}},
		{"url missing", legacyOf("url", nil), []string{"url", "required"}},
		{"url not a URI", legacyOf("url", "p"), []string{"url", "absolute URI"}},
		{"spaceId missing", legacyOf("spaceId", nil), []string{"spaceId", "required"}},
		{"pageId missing", legacyOf("pageId", nil), []string{"pageId", "required"}},
		{"pageId too long", legacyOf("pageId", long(65)), []string{"pageId", "64"}},
		{"goal too long", legacyOf("goal", long(1025)), []string{"goal", "1024"}},
		{"source out of the enum", legacyOf("source", "cli"), []string{"source", "mcp, assistant"}},
	}
	for _, c := range legacyCases {
		t.Run("deprecated: "+c.name, func(t *testing.T) {
			e.Post(e.Admin, legacy, c.body).Expect(400).ExpectMessage(c.msg...)
		})
	}

	// The limits themselves are accepted.
	e.Post(e.Admin, submit, map[string]any{
		"reportedBy": map[string]any{"model": long(100), "userAgent": long(512), "correlationId": long(100)},
		"subject":    map[string]any{"kind": "cli-command", "command": long(200), "flags": flags[:50]},
		"feedback": map[string]any{"category": "efficiency", "summary": long(256), "goal": long(1024), "detail": long(4096),
			"workaround": long(2048), "metrics": map[string]any{"callCount": 0}},
	}).Expect(201)
	e.Post(e.Admin, legacy, legacyOf("feedback", long(2048))).Expect(204)
	if r := e.Get(e.Admin, site+"/agents/feedback?limit=0").Expect(200); r.Num("count") != 2 {
		t.Errorf("after the refusals and two accepted: %s", r.Body)
	}
}

// jsonEqual compares two values by their JSON.
func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	if err1 != nil || err2 != nil {
		return false
	}
	var va, vb any
	_ = json.Unmarshal(ja, &va)
	_ = json.Unmarshal(jb, &vb)
	na, _ := json.Marshal(va)
	nb, _ := json.Marshal(vb)
	return string(na) == string(nb)
}

// TestSiteAgentSchemasMatchAnswers checks the agent settings and feedback answers against
// their schemas in our document: every required property present, none undescribed.
func TestSiteAgentSchemasMatchAnswers(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	e := apitest.New(t)
	check := schemaChecker(t, doc)
	site := newSite(t, e, nil)
	check("SiteAgentSettings", e.Get(e.Admin, site+"/agent-settings").Expect(200).Map())
	check("SiteAgentSettings", e.Put(e.Admin, site+"/agent-settings", agentSettingsBody("auto", "never", sampleInstructions)).Expect(200).Map())
	e.Post(e.Admin, site+"/agents/feedback", map[string]any{"reportedBy": map[string]any{"model": "m"},
		"subject": map[string]any{"kind": "mcp-tool", "toolName": "t"}, "feedback": map[string]any{"category": "usability", "summary": "s"}}).Expect(201)
	e.Post(e.Admin, site+"/agent-feedback", map[string]any{"feedback": "f", "url": "https://a.example", "spaceId": "s", "pageId": "p", "source": "assistant"}).Expect(204)
	items := e.Get(e.Admin, site+"/agents/feedback").Expect(200).Items()
	if len(items) != 2 {
		t.Fatalf("%d items", len(items))
	}
	for _, it := range items {
		check("SiteAgentFeedback", it)
		check("AgentFeedbackSubject", it["subject"].(map[string]any))
		check("AgentFeedbackContent", it["feedback"].(map[string]any))
	}
	check("AgentFeedbackReportedBy", items[1]["reportedBy"].(map[string]any))
}

// TestSiteAgentDataGoesWithTheSite: deleting a site deletes its agent settings and feedback.
func TestSiteAgentDataGoesWithTheSite(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	site := newSite(t, e, nil)
	id := site[strings.LastIndex(site, "/")+1:]
	e.Put(e.Admin, site+"/agent-settings", agentSettingsBody("auto", "never", emptyDocument)).Expect(200)
	e.Post(e.Admin, site+"/agents/feedback", feedbackOf(map[string]any{"kind": "generic"})).Expect(201)
	rows := func() (n int) {
		t.Helper()
		err := e.App.DB.Read().QueryRow(t.Context(), `SELECT (SELECT COUNT(*) FROM site_agent_settings WHERE site_id = ?)
			+ (SELECT COUNT(*) FROM site_agent_feedback WHERE site_id = ?)`, id, id).Scan(&n)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := rows(); n != 2 {
		t.Fatalf("%d rows before the deletion, want 2", n)
	}
	e.Delete(e.Admin, site).Expect(204)
	if n := rows(); n != 0 {
		t.Errorf("%d rows after the deletion", n)
	}
	e.Get(e.Admin, site+"/agent-settings").Expect(404)
	e.Get(e.Admin, site+"/agents/feedback").Expect(404)
}
