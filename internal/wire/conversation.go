package wire

import (
	"encoding/json"

	"docsd/internal/conversation"
	"docsd/internal/richtext"
)

// Conversation is the `conversation` object.
type Conversation struct {
	Object      string           `json:"object"`
	ID          string           `json:"id"`
	Subject     string           `json:"subject,omitempty"`
	CreatedAt   Time             `json:"createdAt"`
	ProcessedAt *Time            `json:"processedAt,omitempty"`
	Source      string           `json:"source"`
	URLs        ConversationURLs `json:"urls"`
}

type ConversationURLs struct {
	Location string `json:"location"`
	Source   string `json:"source,omitempty"`
}

func (u URLs) FromConversation(c conversation.Conversation) Conversation {
	return Conversation{Object: "conversation", ID: c.ID, Subject: c.Subject, CreatedAt: Time(c.CreatedAt),
		ProcessedAt: TimePtr(c.ProcessedAt), Source: c.Source,
		URLs: ConversationURLs{Location: u.OrgLocation(c.OrgID) + "/conversations/" + Esc(c.ID), Source: absoluteURL(c.Metadata.URL)}}
}

// absoluteURL keeps a source URL only when it is absolute (the API's format: uri).
func absoluteURL(s string) string {
	if len(s) > 8 && (s[:7] == "http://" || s[:8] == "https://") {
		return s
	}
	return ""
}

// ConversationDetail is getConversationById's answer.
type ConversationDetail struct {
	Conversation Conversation          `json:"conversation"`
	Parts        []conversation.Part   `json:"parts"`
	Metadata     conversation.Metadata `json:"metadata"`
}

func (u URLs) FromConversationDetail(c conversation.Conversation) ConversationDetail {
	parts := c.Parts
	if parts == nil {
		parts = []conversation.Part{}
	}
	return ConversationDetail{Conversation: u.FromConversation(c), Parts: parts, Metadata: c.Metadata}
}

// ConversationIssue is the `conversation-issue` object.
type ConversationIssue struct {
	Object       string      `json:"object"`
	ID           string      `json:"id"`
	Title        string      `json:"title"`
	Summary      string      `json:"summary"`
	CreatedAt    Time        `json:"createdAt"`
	IngestedAt   Time        `json:"ingestedAt"`
	Conversation string      `json:"conversation"`
	Cluster      string      `json:"cluster,omitempty"`
	URLs         LocationURL `json:"urls"`
}

// IssueWithConversation is `{issue, conversation}`.
type IssueWithConversation struct {
	Issue        ConversationIssue `json:"issue"`
	Conversation Conversation      `json:"conversation"`
}

func (u URLs) FromIssueView(v conversation.IssueView) IssueWithConversation {
	is := v.Issue
	return IssueWithConversation{Conversation: u.FromConversation(v.Conversation), Issue: ConversationIssue{
		Object: "conversation-issue", ID: is.ID, Title: is.Title, Summary: is.Summary, CreatedAt: Time(is.CreatedAt),
		IngestedAt: Time(is.IngestedAt), Conversation: is.ConversationID, Cluster: is.ClusterID,
		URLs: LocationURL{Location: u.OrgLocation(is.OrgID) + "/conversations-issues/" + Esc(is.ID)}}}
}

// IssuesCluster is the `issues-cluster` object, with status, docsd's extension: pending
// while the docs check has not seen its latest issues, analysed after.
type IssuesCluster struct {
	Object      string         `json:"object"`
	ID          string         `json:"id"`
	Label       string         `json:"label"`
	CreatedAt   Time           `json:"createdAt"`
	UpdatedAt   Time           `json:"updatedAt"`
	Icon        string         `json:"icon"`
	Summary     string         `json:"summary"`
	WeeklyPulse [13]int        `json:"weeklyPulse"`
	Sources     map[string]int `json:"sources"`
	Stats       ClusterStats   `json:"stats"`
	URLs        AppURLs        `json:"urls"`
	Status      string         `json:"status"`
}

type ClusterStats struct {
	Issues         int `json:"issues"`
	Conversations  int `json:"conversations"`
	TasksTotal     int `json:"tasksTotal"`
	TasksBacklog   int `json:"tasksBacklog"`
	TasksStarted   int `json:"tasksStarted"`
	TasksCompleted int `json:"tasksCompleted"`
	TasksCancelled int `json:"tasksCancelled"`
}

// AppURLs are `urls` with the API location and the app's address.
type AppURLs struct {
	Location string `json:"location"`
	App      string `json:"app"`
}

func (u URLs) FromCluster(v conversation.ClusterView) IssuesCluster {
	total := 0
	for _, n := range v.Tasks {
		total += n
	}
	return IssuesCluster{Object: "issues-cluster", ID: v.ID, Label: v.Label, CreatedAt: Time(v.CreatedAt),
		UpdatedAt: Time(v.UpdatedAt), Icon: v.Icon, Summary: v.Summary, WeeklyPulse: v.Pulse, Sources: v.Sources,
		Stats: ClusterStats{Issues: v.Issues, Conversations: v.Conversations, TasksTotal: total,
			TasksBacklog: v.Tasks[conversation.TaskBacklog], TasksStarted: v.Tasks[conversation.TaskStarted],
			TasksCompleted: v.Tasks[conversation.TaskCompleted], TasksCancelled: v.Tasks[conversation.TaskCanceled]},
		URLs: AppURLs{Location: u.OrgLocation(v.OrgID) + "/conversations-clusters/" + Esc(v.ID),
			App: u.App("/o/" + Esc(v.OrgID) + "/insights/" + Esc(v.ID))}, Status: v.Status}
}

// AgentTask is the `agent-task` object.
type AgentTask struct {
	Object       string            `json:"object"`
	ID           string            `json:"id"`
	Title        string            `json:"title"`
	Description  string            `json:"description"`
	Instructions richtext.Document `json:"instructions"`
	Status       string            `json:"status"`
	CreatedAt    Time              `json:"createdAt"`
	UpdatedAt    Time              `json:"updatedAt"`
	Cluster      string            `json:"cluster,omitempty"`
	Space        string            `json:"space"`
	// ChangeRequest is the change request the language model drafted for the task.
	ChangeRequest string  `json:"changeRequest,omitempty"`
	URLs          AppURLs `json:"urls"`
}

func (u URLs) FromAgentTask(t conversation.Task) AgentTask {
	return AgentTask{Object: "agent-task", ID: t.ID, Title: t.Title, Description: t.Description,
		Instructions: paragraphDocument(t.Description), Status: t.Status, CreatedAt: Time(t.CreatedAt),
		UpdatedAt: Time(t.UpdatedAt), Cluster: t.ClusterID, Space: t.SpaceID, ChangeRequest: t.ChangeRequest,
		URLs: AppURLs{Location: u.OrgLocation(t.OrgID) + "/agent-tasks/" + Esc(t.ID),
			App: u.App("/o/" + Esc(t.OrgID) + "/agent-tasks/" + Esc(t.ID))}}
}

// paragraphDocument is a rich-text document of one paragraph.
func paragraphDocument(text string) richtext.Document {
	leaf := map[string]any{"object": "leaf", "text": text, "marks": []any{}}
	doc := map[string]any{"object": "document", "data": map[string]any{}, "nodes": []any{map[string]any{
		"object": "block", "type": "paragraph", "data": map[string]any{},
		"nodes": []any{map[string]any{"object": "text", "leaves": []any{leaf}}}}}}
	b, _ := json.Marshal(doc)
	return richtext.FromStore(b)
}

// AgentsSetupState is getAgentSetupState's answer. docsd ingests conversations through the
// API only, so email is empty.
type AgentsSetupState struct {
	Email    string         `json:"email"`
	Stats    AgentsStats    `json:"stats"`
	Settings map[string]any `json:"settings"`
}

type AgentsStats struct {
	BacklogTasks   int            `json:"backlogTasks"`
	StartedTasks   int            `json:"startedTasks"`
	CompletedTasks int            `json:"completedTasks"`
	CanceledTasks  int            `json:"canceledTasks"`
	Conversations  int            `json:"conversations"`
	Issues         int            `json:"issues"`
	IssuesClusters int            `json:"issuesClusters"`
	Sources        map[string]int `json:"sources"`
}

func FromSetup(st conversation.SetupStats) AgentsSetupState {
	return AgentsSetupState{Settings: map[string]any{}, Stats: AgentsStats{BacklogTasks: st.Tasks[conversation.TaskBacklog],
		StartedTasks: st.Tasks[conversation.TaskStarted], CompletedTasks: st.Tasks[conversation.TaskCompleted],
		CanceledTasks: st.Tasks[conversation.TaskCanceled], Conversations: st.Conversations, Issues: st.Issues,
		IssuesClusters: st.Clusters, Sources: st.Sources}}
}
