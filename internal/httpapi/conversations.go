package httpapi

import (
	"bytes"
	"io"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/conversation"
	"docsd/internal/paging"
	"docsd/internal/validate"
	"docsd/internal/wire"
)

func (s *Server) conversationRoutes() {
	s.handle("POST /v1/orgs/{organizationId}/conversations", s.ingestConversation)
	s.handle("GET /v1/orgs/{organizationId}/conversations", s.listConversations)
	s.handle("GET /v1/orgs/{organizationId}/conversations/{conversationId}", s.getConversationById)
	s.handle("GET /v1/orgs/{organizationId}/conversations-issues", s.listConversationsIssues)
	s.handle("GET /v1/orgs/{organizationId}/conversations-issues/{issueId}", s.getConversationIssueById)
	s.handle("GET /v1/orgs/{organizationId}/conversations-clusters", s.listConversationsIssuesClusters)
	s.handle("GET /v1/orgs/{organizationId}/conversations-clusters/{clusterId}", s.getConversationsIssuesCluster)
	s.handle("GET /v1/orgs/{organizationId}/agent-tasks", s.listAgentTasks)
	s.handle("GET /v1/orgs/{organizationId}/agent-tasks/{agentTaskId}", s.getAgentTask)
	s.handle("PATCH /v1/orgs/{organizationId}/agent-tasks/{agentTaskId}", s.updateAgentTask)
	s.handle("GET /v1/orgs/{organizationId}/agents-setup", s.getAgentSetupState)
}

type conversationInput struct {
	ID       string                `json:"id"`
	Subject  string                `json:"subject"`
	Parts    []conversation.Part   `json:"parts"`
	Metadata conversation.Metadata `json:"metadata"`
}

// ingestConversation takes one conversation or an array of them (at most
// conversation.MaxBatch), answers 204 once they are stored, and processes them in a job.
// Their source is the `source` query parameter (docsd's extension: `email` or
// `integration:<name>:<id>`), by default `integration:api:<the caller's user id>`.
func (s *Server) ingestConversation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		return apperr.Invalidf("request body: %v", err)
	}
	var many []conversationInput
	trimmed := bytes.TrimLeft(raw, " \t\r\n")
	r.Body = io.NopCloser(bytes.NewReader(raw))
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if err := decode(r, &many); err != nil {
			return err
		}
	} else {
		var one conversationInput
		if err := decode(r, &one); err != nil {
			return err
		}
		many = []conversationInput{one}
	}
	in := make([]conversation.Input, len(many))
	for i, x := range many {
		in[i] = conversation.Input{ID: x.ID, Subject: x.Subject, Parts: x.Parts, Metadata: x.Metadata}
	}
	source := r.URL.Query().Get("source")
	if source == "" {
		source = "integration:api:" + c.UserID
	}
	if err := s.Conversations.Ingest(r.Context(), c, r.PathValue("organizationId"), source, in); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listConversations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	source := r.URL.Query().Get("source")
	list := "conversations/" + orgID + "/" + source
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Conversations.Conversations(r.Context(), c, orgID, source, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromConversation)
}

func (s *Server) getConversationById(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	conv, err := s.Conversations.Conversation(r.Context(), c, r.PathValue("organizationId"), r.PathValue("conversationId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromConversationDetail(conv))
}

func (s *Server) listConversationsIssues(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	q := r.URL.Query()
	list := "conversation-issues/" + orgID + "/" + q.Get("cluster") + "/" + q.Get("conversation")
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Conversations.Issues(r.Context(), c, orgID, q.Get("cluster"), q.Get("conversation"), page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromIssueView)
}

func (s *Server) getConversationIssueById(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Conversations.Issue(r.Context(), c, r.PathValue("organizationId"), r.PathValue("issueId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromIssueView(v))
}

// listConversationsIssuesClusters sorts the clusters as asked (order, orderBy) and pages
// through them by position.
func (s *Server) listConversationsIssuesClusters(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	q := r.URL.Query()
	order := conversation.ClusterOrder{By: q.Get("orderBy"), Desc: q.Get("order") != "asc"}
	if order.By == "" {
		order.By = "updatedAt"
	}
	if err := validate.First(validate.OneOf("order", cmpOr(q.Get("order"), "desc"), "asc", "desc"),
		validate.OneOf("orderBy", order.By, "updatedAt", "issues", "conversations", "tasksTotal", "tasksBacklog", "tasksStarted")); err != nil {
		return err
	}
	status := q.Get("status")
	if status != "" {
		if err := validate.OneOf("status", status, conversation.ClusterPending, "analysing"); err != nil {
			return err
		}
	}
	list := "clusters/" + orgID + "/" + order.By + "/" + q.Get("order") + "/" + status
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	all, err := s.Conversations.Clusters(r.Context(), c, orgID, status, order)
	if err != nil {
		return err
	}
	return writeList(s, w, list, pageOf(all, page), s.urls.FromCluster)
}

// pageOf is one page of an ordered slice, its cursor the position after the page.
func pageOf[T any](all []T, page paging.Request) paging.Result[T] {
	start := 0
	if len(page.After) == 1 {
		if f, ok := page.After[0].(float64); ok && f >= 0 {
			start = min(int(f), len(all))
		}
	}
	end := min(start+page.Limit, len(all))
	res := paging.Result[T]{Items: all[start:end], Count: len(all)}
	if end < len(all) {
		res.Next = []any{end}
	}
	return res
}

func cmpOr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func (s *Server) getConversationsIssuesCluster(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Conversations.Cluster(r.Context(), c, r.PathValue("organizationId"), r.PathValue("clusterId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCluster(v))
}

func (s *Server) listAgentTasks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	q := r.URL.Query()
	f := conversation.TaskFilter{Cluster: q.Get("cluster"), Space: q.Get("space"), Statuses: q["status"]}
	list := "agent-tasks/" + orgID + "/" + f.Cluster + "/" + f.Space + "/" + q.Encode()
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Conversations.Tasks(r.Context(), c, orgID, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromAgentTask)
}

func (s *Server) getAgentTask(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	t, err := s.Conversations.Task(r.Context(), c, r.PathValue("organizationId"), r.PathValue("agentTaskId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromAgentTask(t))
}

func (s *Server) updateAgentTask(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Status *string `json:"status"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Status == nil {
		return validate.Required("status")
	}
	t, err := s.Conversations.SetTaskStatus(r.Context(), c, r.PathValue("organizationId"), r.PathValue("agentTaskId"), *body.Status)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromAgentTask(t))
}

func (s *Server) getAgentSetupState(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	st, err := s.Conversations.Setup(r.Context(), c, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	return ok(w, wire.FromSetup(st))
}
