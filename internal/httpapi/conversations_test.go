package httpapi_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// supportConversation is one conversation of the test corpus: realistic support questions
// on four subjects (SSO, PDF export, custom domains, API tokens), and some thanks with no
// question at all.
type supportConversation struct {
	ID      string           `json:"id"`
	Topic   string           `json:"topic"`
	DaysAgo int              `json:"daysAgo"`
	Subject string           `json:"subject"`
	Parts   []map[string]any `json:"parts"`
}

func loadCorpus(t *testing.T) []supportConversation {
	t.Helper()
	raw, err := os.ReadFile("testdata/support_conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	var cs []supportConversation
	if err := json.Unmarshal(raw, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

func conversationBody(c supportConversation, now time.Time) map[string]any {
	return map[string]any{"id": c.ID, "subject": c.Subject, "parts": c.Parts, "metadata": map[string]any{
		"url": "https://support.example.com/c/" + c.ID, "attributes": map[string]any{"topic": c.Topic},
		"createdAt": now.AddDate(0, 0, -c.DaysAgo).UTC().Format(time.RFC3339)}}
}

// waitProcessed runs due jobs until every conversation is processed (bounded to 60 s).
func waitProcessed(t *testing.T, e *apitest.Env, want int) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		e.RunDue()
		items := e.WalkList(e.Admin, "/v1/orgs/"+e.Org+"/conversations", 1000)
		done := 0
		for _, it := range items {
			if it["processedAt"] != nil {
				done++
			}
		}
		if done == want && len(items) == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d conversations processed", done, len(items))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestConversationsClusteredIntoIssues(t *testing.T) {
	e := apitest.New(t)
	base := "/v1/orgs/" + e.Org
	// A space whose content answers the PDF questions, so only the other subjects need work.
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Help center"})
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().
		doc("pdf", "", "Export to PDF", "pdf", "# Export to PDF\n\nExport a space or a change request as a PDF document.\n").tree)
	e.RunDue()

	corpus := loadCorpus(t)
	now := e.Clock.Now()
	topicOf := map[string]string{}
	var batch []any
	for _, c := range corpus {
		batch = append(batch, conversationBody(c, now))
	}
	tooMany := append(append([]any{}, batch...), batch[:1]...)
	e.Post(e.Admin, base+"/conversations", tooMany[:101]).ExpectError(400).ExpectMessage("at most 100")
	e.Post(e.Admin, base+"/conversations", map[string]any{"id": "x"}).ExpectError(400).ExpectMessage("parts")
	e.Post(e.Admin, base+"/conversations", batch[:100]).Expect(204)
	e.Post(e.Admin, base+"/conversations", batch[100:200]).Expect(204)
	for _, b := range batch[200:] {
		e.Post(e.Admin, base+"/conversations", b).Expect(204) // the single-conversation variant
	}
	reader := e.Member("reader", auth.Read)
	e.Post(reader, base+"/conversations", batch[0]).ExpectError(403)
	waitProcessed(t, e, len(corpus))

	// Re-ingesting the same conversations updates them: no duplicate conversations or issues.
	issuesBefore := int(e.Get(e.Admin, base+"/conversations-issues?limit=1").Expect(200).Num("count"))
	e.Post(e.Admin, base+"/conversations", batch[:100]).Expect(204)
	waitProcessed(t, e, len(corpus))
	if n := int(e.Get(e.Admin, base+"/conversations-issues?limit=1").Expect(200).Num("count")); n != issuesBefore {
		t.Fatalf("re-ingestion changed the issues from %d to %d", issuesBefore, n)
	}

	// Purity: each cluster's share of its most common subject.
	issues := e.WalkList(e.Admin, base+"/conversations-issues", 1000)
	convTopic := map[string]string{}
	for _, it := range issues {
		conv := it["conversation"].(map[string]any)["id"].(string)
		if _, ok := convTopic[conv]; !ok {
			detail := e.Get(reader, base+"/conversations/"+conv).Expect(200)
			convTopic[conv] = detail.Str("metadata.attributes.topic")
		}
	}
	byCluster := map[string]map[string]int{}
	for _, it := range issues {
		is := it["issue"].(map[string]any)
		cl := is["cluster"].(string)
		if byCluster[cl] == nil {
			byCluster[cl] = map[string]int{}
		}
		topic := convTopic[is["conversation"].(string)]
		if topic == "none" {
			t.Errorf("a conversation with no question gave an issue: %v", is)
		}
		byCluster[cl][topic]++
	}
	majority := 0
	for _, topics := range byCluster {
		best := 0
		for _, n := range topics {
			best = max(best, n)
		}
		majority += best
	}
	purity := float64(majority) / float64(len(issues))
	t.Logf("%d conversations, %d issues, %d clusters, purity %.3f", len(corpus), len(issues), len(byCluster), purity)
	if purity < 0.9 || len(byCluster) < 4 || len(byCluster) > 16 {
		t.Fatalf("purity %.3f over %d clusters (want ≥ 0.9 over 4 to 16): %v", purity, len(byCluster), byCluster)
	}
	_ = topicOf

	clusters := e.WalkList(e.Admin, base+"/conversations-clusters?orderBy=issues&order=desc", 1000)
	pulseSum, issueSum := 0.0, 0.0
	prev := 1e9
	for _, c := range clusters {
		for _, n := range c["weeklyPulse"].([]any) {
			pulseSum += n.(float64)
		}
		n := c["stats"].(map[string]any)["issues"].(float64)
		if n > prev {
			t.Fatalf("clusters not ordered by issues")
		}
		prev = n
		issueSum += n
	}
	if int(issueSum) != len(issues) || pulseSum != issueSum {
		t.Fatalf("issues %d, clusters count %v, weekly pulses sum %v", len(issues), issueSum, pulseSum)
	}
	top := clusters[0]["id"].(string)
	e.Get(e.Admin, base+"/conversations-clusters/"+top).Expect(200)
	e.Get(e.Admin, base+"/conversations-clusters/missing").ExpectError(404)
	if got := e.Get(e.Admin, base+"/conversations-issues?cluster="+top+"&limit=1").Expect(200).Num("count"); got != clusters[0]["stats"].(map[string]any)["issues"].(float64) {
		t.Fatalf("cluster filter: %v", got)
	}
	issueID := issues[0]["issue"].(map[string]any)["id"].(string)
	e.Get(e.Admin, base+"/conversations-issues/"+issueID).Expect(200)
	e.Get(e.Admin, base+"/conversations-issues/missing").ExpectError(404)
	e.Get(e.Admin, base+"/conversations?source=email").Expect(200)
	e.Get(e.Admin, base+"/conversations/missing").ExpectError(404)

	// Clusters the content does not answer became agent tasks; the PDF one did not.
	tasks := e.WalkList(e.Admin, base+"/agent-tasks?status=backlog", 1000)
	if len(tasks) == 0 {
		t.Fatal("no agent task")
	}
	for _, tk := range tasks {
		cl := tk["cluster"].(string)
		if byCluster[cl]["pdf"] > len(issues)/10 {
			t.Errorf("the PDF cluster got a task though a page answers it: %v", tk["title"])
		}
	}
	task := tasks[0]["id"].(string)
	e.Patch(e.Admin, base+"/agent-tasks/"+task, map[string]any{"status": "started"}).Expect(200)
	e.Patch(e.Admin, base+"/agent-tasks/"+task, map[string]any{"status": "completed"}).ExpectError(400)
	e.Patch(reader, base+"/agent-tasks/"+task, map[string]any{"status": "canceled"}).ExpectError(403)
	if st := e.Get(e.Admin, base+"/agent-tasks/"+task).Expect(200).Str("status"); st != "started" {
		t.Fatalf("task status %s", st)
	}
	if n := e.Get(e.Admin, base+"/agent-tasks?status=started").Expect(200).Num("count"); n != 1 {
		t.Fatalf("started tasks: %v", n)
	}
	e.Get(e.Admin, base+"/agent-tasks/missing").ExpectError(404)
	setup := e.Get(e.Admin, base+"/agents-setup").Expect(200)
	if setup.Num("stats.conversations") != float64(len(corpus)) || setup.Num("stats.startedTasks") != 1 ||
		setup.Num("stats.issues") != float64(len(issues)) {
		t.Fatalf("setup: %v", setup.Map())
	}
	e.Get(e.NewUser("outsider"), base+"/agents-setup").ExpectError(404)
	_ = context.Background()
}
