package conversation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/search"
)

// Orgs tells a caller's role in an organization (org.Service does).
type Orgs interface {
	Role(ctx context.Context, c auth.Caller, orgID string) (auth.Role, bool, error)
}

// Searcher finds the pages of spaces that match a query (search.Service does).
type Searcher interface {
	Search(ctx context.Context, spaceIDs []string, query string) ([]search.SpaceResult, error)
}

// Service answers the conversation, issue, cluster and agent-task operations.
type Service struct {
	store  Store
	orgs   Orgs
	search Searcher
	clock  clock.Clock
	log    *slog.Logger
	model  Model // nil without a language model
	pages  Pages
}

// NewService returns the service.
func NewService(st Store, orgs Orgs, s Searcher, clk clock.Clock, log *slog.Logger) *Service {
	return &Service{store: st, orgs: orgs, search: s, clock: clk, log: log}
}

// access lets members read (404 for others, 403 for guests); write needs the edit role.
func (s *Service) access(ctx context.Context, c auth.Caller, orgID string, write bool) error {
	role, member, err := s.orgs.Role(ctx, c, orgID)
	if err != nil {
		return err
	}
	if !member {
		return apperr.NotFoundf("organization %s not found", orgID)
	}
	if role == auth.Guest {
		return apperr.Forbiddenf("guests may not use conversations")
	}
	if write && !role.AtLeast(auth.Edit) {
		return apperr.Forbiddenf("this needs the edit role in the organization (you have %s)", role)
	}
	return nil
}

// sourceRe is the API's ConversationSource.
var sourceRe = regexp.MustCompile(`^(email|integration:[^:]+:[^:]+)$`)

// Input is one conversation as ingested.
type Input struct {
	ID       string
	Subject  string
	Parts    []Part
	Metadata Metadata
}

// Ingest stores conversations (edit role), idempotently by (source, id): a conversation
// ingested again is updated and processed again. Processing follows in a job.
func (s *Service) Ingest(ctx context.Context, c auth.Caller, orgID, source string, in []Input) error {
	if !sourceRe.MatchString(source) {
		return apperr.Invalidf("source: must be email or integration:<name>:<id> (got %q)", source)
	}
	if len(in) == 0 {
		return apperr.Invalidf("body: at least one conversation")
	}
	if len(in) > MaxBatch {
		return apperr.Invalidf("body: at most %d conversations per request (got %d)", MaxBatch, len(in))
	}
	now := s.clock.Now()
	seen := map[string]bool{}
	out := make([]Conversation, 0, len(in))
	for i, x := range in {
		field := fmt.Sprintf("[%d]", i)
		switch {
		case x.ID == "" || len(x.ID) > 255:
			return apperr.Invalidf("%s.id: 1 to 255 characters", field)
		case len(x.Subject) > 512:
			return apperr.Invalidf("%s.subject: at most 512 characters", field)
		case x.Parts == nil:
			return apperr.Invalidf("%s.parts: is required", field)
		case seen[x.ID]:
			return apperr.Invalidf("%s.id: %q appears twice in the request", field, x.ID)
		}
		seen[x.ID] = true
		for j, p := range x.Parts {
			if p.Type != "message" {
				return apperr.Invalidf("%s.parts[%d].type: must be message", field, j)
			}
			if p.Role != "user" && p.Role != "assistant" && p.Role != "team-member" {
				return apperr.Invalidf("%s.parts[%d].role: must be user, assistant or team-member", field, j)
			}
		}
		created := now
		if x.Metadata.CreatedAt != nil {
			created = x.Metadata.CreatedAt.UTC()
		}
		out = append(out, Conversation{ID: ids.New(), OrgID: orgID, Source: source, ExternalID: x.ID, Subject: x.Subject,
			Parts: x.Parts, Metadata: x.Metadata, CreatedAt: created, IngestedAt: now})
	}
	if err := s.access(ctx, c, orgID, true); err != nil {
		return err
	}
	return s.store.Ingest(ctx, orgID, out, now, JobKind)
}

func (s *Service) Conversations(ctx context.Context, c auth.Caller, orgID, source string, page paging.Request) (paging.Result[Conversation], error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return paging.Result[Conversation]{}, err
	}
	return s.store.Conversations(ctx, orgID, source, page)
}

func (s *Service) Conversation(ctx context.Context, c auth.Caller, orgID, id string) (Conversation, error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return Conversation{}, err
	}
	return notFound(s.store.Conversation(ctx, orgID, id))("conversation", id)
}

func (s *Service) Issues(ctx context.Context, c auth.Caller, orgID, cluster, conversation string, page paging.Request) (paging.Result[IssueView], error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return paging.Result[IssueView]{}, err
	}
	return s.store.Issues(ctx, orgID, cluster, conversation, page)
}

func (s *Service) Issue(ctx context.Context, c auth.Caller, orgID, id string) (IssueView, error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return IssueView{}, err
	}
	return notFound(s.store.Issue(ctx, orgID, id))("conversation issue", id)
}

// Clusters lists the organization's clusters in the order asked, all at once (an
// organization has at most a few hundred).
func (s *Service) Clusters(ctx context.Context, c auth.Caller, orgID, status string, order ClusterOrder) ([]ClusterView, error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return nil, err
	}
	return s.store.Clusters(ctx, orgID, status, order, s.clock.Now())
}

func (s *Service) Cluster(ctx context.Context, c auth.Caller, orgID, id string) (ClusterView, error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return ClusterView{}, err
	}
	return notFound(s.store.Cluster(ctx, orgID, id, s.clock.Now()))("conversations issues cluster", id)
}

func (s *Service) Tasks(ctx context.Context, c auth.Caller, orgID string, f TaskFilter, page paging.Request) (paging.Result[Task], error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return paging.Result[Task]{}, err
	}
	for _, st := range f.Statuses {
		if st != TaskBacklog && st != TaskStarted && st != TaskCompleted && st != TaskCanceled {
			return paging.Result[Task]{}, apperr.Invalidf("status: must be backlog, started, completed or canceled (got %q)", st)
		}
	}
	return s.store.Tasks(ctx, orgID, f, page)
}

func (s *Service) Task(ctx context.Context, c auth.Caller, orgID, id string) (Task, error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return Task{}, err
	}
	return notFound(s.store.Task(ctx, orgID, id))("agent task", id)
}

// SetTaskStatus moves a task to backlog, started or canceled (edit role). A completed task
// stays completed.
func (s *Service) SetTaskStatus(ctx context.Context, c auth.Caller, orgID, id, status string) (Task, error) {
	if status != TaskBacklog && status != TaskStarted && status != TaskCanceled {
		return Task{}, apperr.Invalidf("status: must be backlog, started or canceled (got %q)", status)
	}
	if err := s.access(ctx, c, orgID, true); err != nil {
		return Task{}, err
	}
	t, err := notFound(s.store.Task(ctx, orgID, id))("agent task", id)
	if err != nil {
		return t, err
	}
	if t.Status == TaskCompleted {
		return t, apperr.New(apperr.Conflict, "agent task %s is completed", id)
	}
	return notFound(s.store.SetTaskStatus(ctx, orgID, id, status, s.clock.Now()))("agent task", id)
}

// Setup is getAgentSetupState's answer.
func (s *Service) Setup(ctx context.Context, c auth.Caller, orgID string) (SetupStats, error) {
	if err := s.access(ctx, c, orgID, false); err != nil {
		return SetupStats{}, err
	}
	return s.store.Setup(ctx, orgID)
}

func notFound[T any](v T, err error) func(kind, id string) (T, error) {
	return func(kind, id string) (T, error) {
		if errors.Is(err, ErrNotFound) {
			return v, apperr.NotFoundf("%s %s not found", kind, id)
		}
		return v, err
	}
}

// similarity is the least cosine similarity for an issue to join a cluster.
const similarity = 0.2

// processBatch bounds the conversations one job processes; the job queues itself again
// for the rest.
const processBatch = 500

type jobPayload struct {
	Org string `json:"org"`
}

// HandleJob processes an organization's conversations that are new or changed: their issues
// are extracted again and join clusters; then each cluster with new issues is checked
// against the organization's content, and one the docs do not answer gets an agent task.
func (s *Service) HandleJob(ctx context.Context, raw json.RawMessage) error {
	var p jobPayload
	if json.Unmarshal(raw, &p) != nil || p.Org == "" {
		return nil
	}
	now := s.clock.Now()
	more := false
	// With a model, the conversations are read first and the model asked outside any
	// transaction; a conversation ingested again meanwhile keeps its local result.
	var model map[string]enriched
	if s.model != nil {
		var convs []Conversation
		if err := s.store.Process(ctx, p.Org, now, func(w Writer) error {
			var err error
			convs, err = w.Unprocessed(ctx, p.Org, processBatch)
			return err
		}); err != nil {
			return err
		}
		model = s.enrich(ctx, convs)
	}
	err := s.store.Process(ctx, p.Org, now, func(w Writer) error {
		convs, err := w.Unprocessed(ctx, p.Org, processBatch+1)
		if err != nil {
			return err
		}
		if len(convs) > processBatch {
			convs, more = convs[:processBatch], true
		}
		clusters, err := w.AllClusters(ctx, p.Org)
		if err != nil {
			return err
		}
		all, err := w.AllIssueTerms(ctx, p.Org)
		if err != nil {
			return err
		}
		extracted := make([][]Issue, len(convs))
		for i, c := range convs {
			if m, ok := model[c.ID]; ok && m.ingestedAt.Equal(c.IngestedAt) {
				extracted[i] = m.issues
			} else {
				extracted[i] = extractIssues(c)
			}
			for _, is := range extracted[i] {
				all = append(all, is.Terms)
			}
		}
		weights := newIDF(all)
		changed := map[string]*Cluster{}
		byID := map[string]int{}
		for k := range clusters {
			byID[clusters[k].ID] = k
		}
		for i, c := range convs {
			// A conversation ingested again leaves its clusters before its new issues join.
			old, err := w.IssuesOf(ctx, c.ID)
			if err != nil {
				return err
			}
			for _, is := range old {
				if k, ok := byID[is.ClusterID]; ok {
					addTerms(clusters[k].Centroid, is.Terms, -1)
					addVec(&clusters[k].Embedding, is.Embedding, -1)
					changed[clusters[k].ID] = &clusters[k]
				}
			}
			for j := range extracted[i] {
				is := &extracted[i][j]
				is.ID, is.OrgID, is.ConversationID, is.CreatedAt, is.IngestedAt = ids.New(), c.OrgID, c.ID, c.CreatedAt, now
				// Scores are similarities over their threshold: embeddings where the issue
				// and the cluster both have them, TF-IDF otherwise.
				best, bestScore := -1, 1.0
				for k := range clusters {
					var score float64
					if len(is.Embedding) > 0 && len(clusters[k].Embedding) == len(is.Embedding) {
						score = cosineVec(is.Embedding, clusters[k].Embedding) / embeddingSimilarity
					} else {
						score = weights.cosine(is.Terms, clusters[k].Centroid) / similarity
					}
					if score >= bestScore {
						best, bestScore = k, score
					}
				}
				if best < 0 {
					clusters = append(clusters, Cluster{ID: ids.New(), OrgID: c.OrgID, Centroid: map[string]float64{}, CreatedAt: now})
					best = len(clusters) - 1
					byID[clusters[best].ID] = best
					changed = rebase(changed, clusters)
				}
				cl := &clusters[best]
				addTerms(cl.Centroid, is.Terms, 1)
				addVec(&cl.Embedding, is.Embedding, 1)
				is.ClusterID = cl.ID
				if cl.Summary == "" {
					cl.Summary = is.Summary
				}
				changed[cl.ID] = cl
			}
			if err := w.ReplaceIssues(ctx, c, extracted[i], now); err != nil {
				return err
			}
		}
		for _, cl := range changed {
			if top := weights.topTerms(cl.Centroid, 3); len(top) > 0 {
				label := strings.Join(top, ", ")
				cl.Label, cl.Icon = strings.ToUpper(label[:1])+label[1:], iconFor(top)
			} else if cl.Label == "" {
				cl.Label, cl.Icon = "Other questions", iconFor(nil)
			}
			cl.Status, cl.UpdatedAt = ClusterPending, now
			if err := w.PutCluster(ctx, *cl); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := s.checkDocs(ctx, p.Org, now); err != nil || !more {
		return err
	}
	return errors.New("conversations: more to process") // retried soon, for the next batch
}

// rebase points changed at the clusters' current elements after the slice grew (append
// may have moved them).
func rebase(changed map[string]*Cluster, clusters []Cluster) map[string]*Cluster {
	out := make(map[string]*Cluster, len(changed))
	for k := range clusters {
		if _, ok := changed[clusters[k].ID]; ok {
			out[clusters[k].ID] = &clusters[k]
		}
	}
	return out
}

// checkDocs searches the organization's content for each pending cluster's subject; a
// cluster that no page matches becomes a backlog agent task on the organization's first
// space (the one that would hold a new page). The searches run outside any write
// transaction (a search may bring an index up to date, which writes). With a model, each new
// task gets a drafted change request: the model's edit of the page nearest the subject.
func (s *Service) checkDocs(ctx context.Context, orgID string, now time.Time) error {
	var pending []Cluster
	var spaces []string
	var weights idf
	var admin string
	err := s.store.Process(ctx, orgID, now, func(w Writer) error {
		var err error
		if pending, err = w.PendingClusters(ctx, orgID); err != nil {
			return err
		}
		all, err := w.AllIssueTerms(ctx, orgID)
		weights = newIDF(all)
		if err != nil {
			return err
		}
		if spaces, err = w.OrgSpaces(ctx, orgID); err != nil {
			return err
		}
		if s.model != nil && s.pages != nil {
			admin, err = w.OrgAdmin(ctx, orgID)
		}
		return err
	})
	if err != nil || len(pending) == 0 {
		return err
	}
	unanswered := map[string]bool{}
	nearest := map[string][2]string{} // cluster → space and page the draft edits
	for _, cl := range pending {
		if len(spaces) == 0 {
			break
		}
		answered := false
		terms := weights.topTerms(cl.Centroid, 5)
		for _, term := range terms[:min(2, len(terms))] {
			res, err := s.search.Search(ctx, spaces, term)
			if err != nil && !apperr.Is(err, apperr.Invalid) {
				return err
			}
			if len(res) > 0 {
				answered = true
				break
			}
		}
		unanswered[cl.ID] = !answered
		if answered || admin == "" {
			continue
		}
		// The page nearest the subject: the best match of its next terms, else the first
		// space's first page.
		nearest[cl.ID] = [2]string{spaces[0], ""}
		for _, term := range terms[min(2, len(terms)):] {
			res, err := s.search.Search(ctx, spaces, term)
			if err != nil && !apperr.Is(err, apperr.Invalid) {
				return err
			}
			if len(res) > 0 && len(res[0].Pages) > 0 {
				nearest[cl.ID] = [2]string{res[0].ID, res[0].Pages[0].ID}
				break
			}
		}
	}
	// Each new task's draft is a job enqueued with the task: a process that stops before
	// drafting leaves the job to the next, and the job links at most one change request.
	return s.store.Process(ctx, orgID, now, func(w Writer) error {
		for _, cl := range pending {
			cl.Status = ClusterAnalysed
			if err := w.PutCluster(ctx, cl); err != nil {
				return err
			}
			if !unanswered[cl.ID] {
				continue
			}
			if has, err := w.HasTask(ctx, cl.ID); err != nil || has {
				if err != nil {
					return err
				}
				continue
			}
			sp := spaces[0]
			n, draft := nearest[cl.ID]
			if draft {
				sp = n[0]
			}
			t := Task{ID: ids.New(), OrgID: orgID, ClusterID: cl.ID, SpaceID: sp, Status: TaskBacklog,
				Title: "Document: " + cl.Label, CreatedAt: now, UpdatedAt: now,
				Description: "Users ask about this and no page of the organization's content matches it. For example: " + cl.Summary}
			if err := w.InsertTask(ctx, t); err != nil {
				return err
			}
			if draft {
				if err := w.Enqueue(ctx, DraftJobKind, draftPayload{Org: orgID, Task: t.ID, Page: n[1], Author: admin},
					DraftJobKind+":"+t.ID); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// draftPayload is a DraftJobKind job's: the task, the page its draft edits ("" for the
// space's first) and the user the change request is opened as.
type draftPayload struct {
	Org    string `json:"org"`
	Task   string `json:"task"`
	Page   string `json:"page,omitempty"`
	Author string `json:"author"`
}

// HandleDraftJob drafts the change request of one agent task. It is idempotent: a task that
// has its change request is left alone, and a change request opened by an attempt that
// stopped before linking it is reused, so retries never open a second one. A failure (the
// model down) is retried by the queue; a task or page that is gone ends the job.
func (s *Service) HandleDraftJob(ctx context.Context, raw json.RawMessage) error {
	var p draftPayload
	if json.Unmarshal(raw, &p) != nil || p.Org == "" || p.Task == "" || p.Author == "" {
		return nil
	}
	if s.model == nil || s.pages == nil {
		return nil // the model is no longer configured: the task stands without a draft
	}
	t, err := s.store.Task(ctx, p.Org, p.Task)
	if errors.Is(err, ErrNotFound) || apperr.Is(err, apperr.NotFound) {
		return nil
	}
	if err != nil || t.ChangeRequest != "" {
		return err
	}
	err = s.draftTask(ctx, auth.Caller{UserID: p.Author}, t, p.Page)
	if apperr.Is(err, apperr.NotFound) || apperr.Is(err, apperr.Forbidden) {
		s.log.Warn("agent task: no drafted change request", "task", t.ID, "err", err)
		return nil // the page, space or author's rights are gone; retrying cannot help
	}
	return err
}

// draftTask asks the model for an edit of the page that answers the task's cluster, opens it
// as a change request in the task's space and links it from the task.
func (s *Service) draftTask(ctx context.Context, c auth.Caller, t Task, pageID string) error {
	pageID, title, md, err := s.pages.Page(ctx, c, t.SpaceID, pageID)
	if err != nil {
		return err
	}
	res, err := s.store.Issues(ctx, t.OrgID, t.ClusterID, "", paging.Request{Limit: 20})
	if err != nil {
		return err
	}
	var questions []string
	for _, iv := range res.Items {
		questions = append(questions, iv.Issue.Title+": "+iv.Issue.Summary)
	}
	edited, err := s.draft(ctx, title, md, questions)
	if err != nil {
		return err
	}
	subject := shorten(t.Title, 100)
	cr, err := s.store.OpenedDraft(ctx, t, c.UserID, subject)
	if err != nil {
		return err
	}
	if cr == "" {
		if cr, err = s.pages.Open(ctx, c, t.SpaceID, subject); err != nil {
			return err
		}
	}
	if err := s.pages.Edit(ctx, c, t.SpaceID, cr, pageID, edited); err != nil {
		return err
	}
	return s.store.SetTaskChangeRequest(ctx, t.OrgID, t.ID, cr, s.clock.Now())
}
