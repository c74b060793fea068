package httpapi_test

import (
	"strings"
	"testing"
	"time"

	"docsd/internal/conversation"
	"docsd/internal/store"
)

// A new agent task's draft is a durable job enqueued with the task: when the process that
// created the task cannot draft it (here the model fails its drafts and the process is then
// left, as one that stopped), another process on the same database drafts it later, and the
// draft is made exactly once, even when an attempt stopped between opening the change
// request and linking it to the task.
func TestAgentTaskDraftIsDurable(t *testing.T) {
	stand := &modelStandIn{t: t, mode: "nodraft"}
	e, sp := modelEnv(t, stand)
	base := "/v1/orgs/" + e.Org
	tasks := e.WalkList(e.Admin, base+"/agent-tasks", 100)
	if len(tasks) != 2 {
		t.Fatalf("%d agent tasks, want 2: %v", len(tasks), tasks)
	}
	for _, tk := range tasks {
		if cr, _ := tk["changeRequest"].(string); cr != "" {
			t.Fatalf("task drafted while the model refused drafts: %v", tk)
		}
	}
	if n := len(e.WalkList(e.Admin, "/v1/spaces/"+sp+"/change-requests", 100)); n != 0 {
		t.Fatalf("%d change requests opened without a draft, want 0", n)
	}

	// Another process on the database, the model back: the queued draft jobs run there (or in
	// the first process's workers; either way once).
	stand.setMode("ok")
	p := e.Peer()
	drafted := map[string]string{} // task → change request
	deadline := time.Now().Add(60 * time.Second)
	for len(drafted) < 2 {
		e.Clock.Advance(2 * time.Hour) // past any retry's backoff
		p.RunDue()
		for _, tk := range p.WalkList(p.Admin, base+"/agent-tasks", 100) {
			if cr, _ := tk["changeRequest"].(string); cr != "" {
				drafted[tk["id"].(string)] = cr
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("drafts after the restart: %v", drafted)
		}
	}
	crs := p.WalkList(p.Admin, "/v1/spaces/"+sp+"/change-requests", 100)
	if len(crs) != 2 {
		t.Fatalf("%d change requests, want one per task: %v", len(crs), crs)
	}
	for task, cr := range drafted {
		md := p.Get(p.Admin, "/v1/spaces/"+sp+"/change-requests/"+cr+"/content/page/welcome?format=markdown").Expect(200)
		if !strings.Contains(md.Str("markdown"), "## Answers") {
			t.Fatalf("task %s: change request %s lacks the draft: %q", task, cr, md.Str("markdown"))
		}
	}
	stand.mu.Lock()
	draftsBefore := stand.drafts
	stand.mu.Unlock()

	// The job again (a retry after a lost lease): the task has its draft, nothing is asked.
	var task, cr string
	for task, cr = range drafted {
		break
	}
	payload := map[string]string{"org": e.Org, "task": task, "page": "", "author": e.Admin.ID}
	if err := p.App.Jobs.Enqueue(t.Context(), conversation.DraftJobKind, payload, time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	p.RunDue()
	stand.mu.Lock()
	if stand.drafts != draftsBefore {
		t.Errorf("a drafted task was drafted again: %d model drafts, want %d", stand.drafts, draftsBefore)
	}
	stand.mu.Unlock()

	// An attempt that stopped after opening the change request and before linking it: the
	// retry finds the change request it opened and links it, opening no second one.
	if err := p.App.DB.Write(t.Context(), e.Clock.Now(), func(q *store.Q) error {
		_, err := q.Exec(t.Context(), `UPDATE agent_tasks SET change_request_id = '' WHERE id = ?`, task)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got, ok := p.Get(p.Admin, base+"/agent-tasks/"+task).Expect(200).Map()["changeRequest"]; ok {
		t.Fatalf("task still links %v", got)
	}
	if err := p.App.Jobs.Enqueue(t.Context(), conversation.DraftJobKind, payload, time.Time{}, ""); err != nil {
		t.Fatal(err)
	}
	p.RunDue()
	if got := p.Get(p.Admin, base+"/agent-tasks/"+task).Expect(200).Str("changeRequest"); got != cr {
		t.Fatalf("after the interrupted attempt the task links %q, want %q", got, cr)
	}
	if n := len(p.WalkList(p.Admin, "/v1/spaces/"+sp+"/change-requests", 100)); n != 2 {
		t.Fatalf("%d change requests after the retry, want 2", n)
	}
}
