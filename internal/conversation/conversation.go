// Package conversation ingests support conversations, extracts the documentation issues
// their users raise, groups the issues into clusters by text similarity, and turns clusters
// that no page of the organization's content answers into agent tasks. Processing runs in a
// durable job after each ingestion.
//
// Extraction and clustering are local and deterministic: a conversation's user messages
// give its issues (questions and problem statements), and issues join the cluster whose
// TF-IDF centroid is nearest by cosine similarity, or start a new one. With a language model
// configured (model.go), the model sharpens the issues' titles and summaries, embeddings
// replace TF-IDF where issue and cluster both have them, and each new agent task gets a
// change request drafted by the model; the local results stand when the model fails.
package conversation

import (
	"context"
	"errors"
	"time"

	"docsd/internal/paging"
)

// JobKind processes an organization's newly ingested conversations.
const JobKind = "conversations.process"

// DraftJobKind drafts the change request of one new agent task (with a language model). It
// is enqueued in the transaction that creates the task, so a process that stops before the
// draft is made leaves the job for the next one.
const DraftJobKind = "agentTasks.draft"

// MaxBatch is the most conversations one ingestConversation request may carry.
const MaxBatch = 100

// Agent task statuses, as the API lists them.
const (
	TaskBacklog   = "backlog"
	TaskStarted   = "started"
	TaskCompleted = "completed"
	TaskCanceled  = "canceled"
)

// Cluster statuses: pending while it has issues the docs check has not seen, analysed after.
const (
	ClusterPending  = "pending"
	ClusterAnalysed = "analysed"
)

// Part is one message of a conversation.
type Part struct {
	Type string `json:"type"`
	Role string `json:"role"`
	Body string `json:"body"`
}

// Metadata is what the source says about a conversation.
type Metadata struct {
	URL        string            `json:"url,omitempty"`
	Attributes map[string]string `json:"attributes,omitempty"`
	CreatedAt  *time.Time        `json:"createdAt,omitempty"`
}

// Conversation is one ingested conversation; ExternalID is the source's id for it.
type Conversation struct {
	ID, OrgID, Source, ExternalID string
	Subject                       string
	Parts                         []Part
	Metadata                      Metadata
	CreatedAt                     time.Time // the source's date, else the first ingestion
	IngestedAt                    time.Time
	ProcessedAt                   *time.Time
}

// Issue is a documentation issue raised in a conversation.
type Issue struct {
	ID, OrgID, ConversationID, ClusterID string
	Title, Summary                       string
	Terms                                map[string]float64 // term frequencies
	// Embedding is the model's vector of the issue's title and summary; nil when no model
	// is configured or it failed.
	Embedding             []float64
	CreatedAt, IngestedAt time.Time
}

// Cluster groups issues about one subject.
type Cluster struct {
	ID, OrgID, Label, Icon, Summary string
	Status                          string
	Centroid                        map[string]float64 // summed term frequencies of its issues
	// Embedding is the sum of its issues' embeddings (those that have one); nil if none.
	Embedding            []float64
	CreatedAt, UpdatedAt time.Time
}

// ClusterView is a cluster with its counts.
type ClusterView struct {
	Cluster
	Issues, Conversations int
	Sources               map[string]int
	Tasks                 map[string]int // by status
	Pulse                 [13]int
}

// Task is an agent task: a change the docs need for a cluster.
type Task struct {
	ID, OrgID, ClusterID, SpaceID string
	Title, Description            string
	Status                        string
	// ChangeRequest is the change request the model drafted for the task, "" without one.
	ChangeRequest        string
	CreatedAt, UpdatedAt time.Time
}

// IssueView is an issue with its conversation.
type IssueView struct {
	Issue        Issue
	Conversation Conversation
}

// ClusterOrder is listConversationsIssuesClusters' order.
type ClusterOrder struct {
	By   string // updatedAt, issues, conversations, tasksTotal, tasksBacklog, tasksStarted
	Desc bool
}

// ErrNotFound is returned by Store for what does not exist.
var ErrNotFound = errors.New("conversation: not found")

// Store keeps conversations, issues, clusters and tasks.
type Store interface {
	// Ingest inserts or updates conversations by (source, external id) and enqueues the
	// processing job in the same transaction.
	Ingest(ctx context.Context, orgID string, cs []Conversation, now time.Time, jobKind string) error
	Conversations(ctx context.Context, orgID, source string, page paging.Request) (paging.Result[Conversation], error)
	Conversation(ctx context.Context, orgID, id string) (Conversation, error)
	Issues(ctx context.Context, orgID, cluster, conversation string, page paging.Request) (paging.Result[IssueView], error)
	Issue(ctx context.Context, orgID, id string) (IssueView, error)
	Clusters(ctx context.Context, orgID, status string, order ClusterOrder, now time.Time) ([]ClusterView, error)
	Cluster(ctx context.Context, orgID, id string, now time.Time) (ClusterView, error)
	Tasks(ctx context.Context, orgID string, f TaskFilter, page paging.Request) (paging.Result[Task], error)
	Task(ctx context.Context, orgID, id string) (Task, error)
	SetTaskStatus(ctx context.Context, orgID, id, status string, now time.Time) (Task, error)
	// SetTaskChangeRequest links a task to the change request drafted for it.
	SetTaskChangeRequest(ctx context.Context, orgID, id, changeRequest string, now time.Time) error
	// OpenedDraft is the change request that author opened in the task's space with subject
	// since the task was created and that no task links, "" if none: the draft of an attempt
	// that stopped between opening it and linking it.
	OpenedDraft(ctx context.Context, t Task, author, subject string) (string, error)
	Setup(ctx context.Context, orgID string) (SetupStats, error)
	// Process runs fn in one write transaction holding the organization's processing lock.
	Process(ctx context.Context, orgID string, now time.Time, fn func(w Writer) error) error
}

// Writer is what processing reads and writes inside its transaction.
type Writer interface {
	Unprocessed(ctx context.Context, orgID string, limit int) ([]Conversation, error)
	AllClusters(ctx context.Context, orgID string) ([]Cluster, error)
	AllIssueTerms(ctx context.Context, orgID string) ([]map[string]float64, error)
	// IssuesOf returns a conversation's current issues (cluster and terms).
	IssuesOf(ctx context.Context, conversationID string) ([]Issue, error)
	// ReplaceIssues replaces a conversation's issues and marks it processed.
	ReplaceIssues(ctx context.Context, c Conversation, issues []Issue, now time.Time) error
	PutCluster(ctx context.Context, c Cluster) error
	PendingClusters(ctx context.Context, orgID string) ([]Cluster, error)
	HasTask(ctx context.Context, clusterID string) (bool, error)
	InsertTask(ctx context.Context, t Task) error
	// Enqueue adds a job in the transaction; a queued job with the same dedupe key is kept.
	Enqueue(ctx context.Context, kind string, payload any, dedupeKey string) error
	OrgSpaces(ctx context.Context, orgID string) ([]string, error)
	// OrgAdmin is the organization's longest-standing enabled admin, "" if none: the author
	// of the change requests drafted for agent tasks.
	OrgAdmin(ctx context.Context, orgID string) (string, error)
}

// TaskFilter is listAgentTasks' filters.
type TaskFilter struct {
	Cluster, Space string
	Statuses       []string
}

// SetupStats are getAgentSetupState's counts.
type SetupStats struct {
	Tasks                           map[string]int
	Conversations, Issues, Clusters int
	Sources                         map[string]int
}
