package store

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"time"

	"docsd/internal/conversation"
	"docsd/internal/paging"
)

// Conversations adapts the DB to conversation.Store.
type Conversations struct{ DB *DB }

const conversationColumns = `c.id, c.organization_id, c.source, c.external_id, c.subject, c.parts, c.metadata, c.created_at,
	c.ingested_at, c.processed_at`

func scanConversation(scan func(...any) error, extra ...any) (conversation.Conversation, error) {
	var c conversation.Conversation
	var parts, meta string
	var created, ingested int64
	var processed *int64
	err := scan(append([]any{&c.ID, &c.OrgID, &c.Source, &c.ExternalID, &c.Subject, &parts, &meta, &created, &ingested, &processed}, extra...)...)
	if errors.Is(err, ErrNotFound) {
		return c, conversation.ErrNotFound
	}
	if err != nil {
		return c, err
	}
	c.CreatedAt, c.IngestedAt = FromMicros(created), FromMicros(ingested)
	if processed != nil {
		t := FromMicros(*processed)
		c.ProcessedAt = &t
	}
	if err := json.Unmarshal([]byte(parts), &c.Parts); err != nil {
		return c, err
	}
	return c, json.Unmarshal([]byte(meta), &c.Metadata)
}

func (s Conversations) Ingest(ctx context.Context, orgID string, cs []conversation.Conversation, now time.Time, jobKind string) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		for _, c := range cs {
			parts, _ := json.Marshal(c.Parts)
			meta, _ := json.Marshal(c.Metadata)
			if _, err := q.Exec(ctx, `INSERT INTO conversations (id, organization_id, source, external_id, subject, parts,
				metadata, created_at, ingested_at, processed_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
				ON CONFLICT (organization_id, source, external_id) DO UPDATE SET subject = excluded.subject,
				parts = excluded.parts, metadata = excluded.metadata, created_at = excluded.created_at,
				ingested_at = excluded.ingested_at, processed_at = NULL`,
				c.ID, orgID, c.Source, c.ExternalID, c.Subject, string(parts), string(meta), Micros(c.CreatedAt),
				Micros(c.IngestedAt)); err != nil {
				return err
			}
		}
		return q.EnqueueJob(ctx, jobKind, map[string]string{"org": orgID}, time.Time{}, "")
	})
}

func (s Conversations) Conversations(ctx context.Context, orgID, source string, page paging.Request) (paging.Result[conversation.Conversation], error) {
	l := List{Select: conversationColumns, From: `FROM conversations c`, Where: []string{`c.organization_id = ?`},
		Args: []any{orgID}, Order: []string{`c.created_at`, `c.id`}, Desc: true}
	if source != "" {
		l.Where, l.Args = append(l.Where, `c.source = ?`), append(l.Args, source)
	}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (conversation.Conversation, []any, error) {
		c, err := scanConversation(scan)
		return c, []any{Micros(c.CreatedAt), c.ID}, err
	})
}

func (s Conversations) Conversation(ctx context.Context, orgID, id string) (conversation.Conversation, error) {
	return scanConversation(s.DB.Read().QueryRow(ctx, `SELECT `+conversationColumns+` FROM conversations c
		WHERE c.id = ? AND c.organization_id = ?`, id, orgID).Scan)
}

const issueColumns = `i.id, i.organization_id, i.conversation_id, i.cluster_id, i.title, i.summary, i.created_at, i.ingested_at`

func scanIssueView(scan func(...any) error) (conversation.IssueView, error) {
	var v conversation.IssueView
	var created, ingested int64
	c, err := scanConversation(func(dest ...any) error {
		return scan(append([]any{&v.Issue.ID, &v.Issue.OrgID, &v.Issue.ConversationID, &v.Issue.ClusterID, &v.Issue.Title,
			&v.Issue.Summary, &created, &ingested}, dest...)...)
	})
	v.Conversation = c
	v.Issue.CreatedAt, v.Issue.IngestedAt = FromMicros(created), FromMicros(ingested)
	return v, err
}

func (s Conversations) Issues(ctx context.Context, orgID, cluster, conv string, page paging.Request) (paging.Result[conversation.IssueView], error) {
	l := List{Select: issueColumns + `, ` + conversationColumns,
		From:  `FROM conversation_issues i JOIN conversations c ON c.id = i.conversation_id`,
		Where: []string{`i.organization_id = ?`}, Args: []any{orgID}, Order: []string{`i.created_at`, `i.id`}, Desc: true,
		CountFrom: `FROM conversation_issues i`}
	if cluster != "" {
		l.Where, l.Args = append(l.Where, `i.cluster_id = ?`), append(l.Args, cluster)
	}
	if conv != "" {
		l.Where, l.Args = append(l.Where, `i.conversation_id = ?`), append(l.Args, conv)
	}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (conversation.IssueView, []any, error) {
		v, err := scanIssueView(scan)
		return v, []any{Micros(v.Issue.CreatedAt), v.Issue.ID}, err
	})
}

func (s Conversations) Issue(ctx context.Context, orgID, id string) (conversation.IssueView, error) {
	return scanIssueView(s.DB.Read().QueryRow(ctx, `SELECT `+issueColumns+`, `+conversationColumns+`
		FROM conversation_issues i JOIN conversations c ON c.id = i.conversation_id
		WHERE i.id = ? AND i.organization_id = ?`, id, orgID).Scan)
}

const clusterColumns = `id, organization_id, label, icon, summary, status, centroid, created_at, updated_at, embedding`

func scanCluster(scan func(...any) error) (conversation.Cluster, error) {
	var c conversation.Cluster
	var centroid, embedding string
	var created, updated int64
	err := scan(&c.ID, &c.OrgID, &c.Label, &c.Icon, &c.Summary, &c.Status, &centroid, &created, &updated, &embedding)
	if errors.Is(err, ErrNotFound) {
		return c, conversation.ErrNotFound
	}
	if err != nil {
		return c, err
	}
	c.CreatedAt, c.UpdatedAt = FromMicros(created), FromMicros(updated)
	if c.Embedding, err = vectorFrom(embedding); err != nil {
		return c, err
	}
	return c, json.Unmarshal([]byte(centroid), &c.Centroid)
}

// vectorJSON stores an embedding: ” for none.
func vectorJSON(v []float64) string {
	if len(v) == 0 {
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func vectorFrom(raw string) ([]float64, error) {
	if raw == "" {
		return nil, nil
	}
	var v []float64
	return v, json.Unmarshal([]byte(raw), &v)
}

// clusterViews adds the counts to clusters: issues, conversations and sources from their
// issues, tasks by status, and the weekly pulse of their issues' dates.
func (s Conversations) clusterViews(ctx context.Context, orgID string, clusters []conversation.Cluster, now time.Time) ([]conversation.ClusterView, error) {
	views := make([]conversation.ClusterView, len(clusters))
	byID := map[string]*conversation.ClusterView{}
	dates := map[string][]time.Time{}
	convs := map[string]map[string]bool{}
	for i, c := range clusters {
		views[i] = conversation.ClusterView{Cluster: c, Sources: map[string]int{}, Tasks: map[string]int{}}
		byID[c.ID] = &views[i]
		convs[c.ID] = map[string]bool{}
	}
	q := s.DB.Read()
	rows, err := q.Query(ctx, `SELECT i.cluster_id, i.conversation_id, c.source, i.created_at FROM conversation_issues i
		JOIN conversations c ON c.id = i.conversation_id WHERE i.organization_id = ?`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var cluster, conv, source string
		var created int64
		if err := rows.Scan(&cluster, &conv, &source, &created); err != nil {
			return nil, err
		}
		if v := byID[cluster]; v != nil {
			v.Issues++
			v.Sources[source]++
			convs[cluster][conv] = true
			dates[cluster] = append(dates[cluster], FromMicros(created))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	trows, err := q.Query(ctx, `SELECT cluster_id, status FROM agent_tasks WHERE organization_id = ?`, orgID)
	if err != nil {
		return nil, err
	}
	defer trows.Close()
	for trows.Next() {
		var cluster, status string
		if err := trows.Scan(&cluster, &status); err != nil {
			return nil, err
		}
		if v := byID[cluster]; v != nil {
			v.Tasks[status]++
		}
	}
	for id, v := range byID {
		v.Conversations = len(convs[id])
		v.Pulse = conversation.Pulse(now, dates[id])
	}
	return views, trows.Err()
}

func (s Conversations) Clusters(ctx context.Context, orgID, status string, order conversation.ClusterOrder, now time.Time) ([]conversation.ClusterView, error) {
	query, args := `SELECT `+clusterColumns+` FROM issue_clusters WHERE organization_id = ?`, []any{orgID}
	if status != "" {
		query, args = query+` AND status = ?`, append(args, status)
	}
	rows, err := s.DB.Read().Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	var clusters []conversation.Cluster
	for rows.Next() {
		c, err := scanCluster(rows.Scan)
		if err != nil {
			rows.Close()
			return nil, err
		}
		clusters = append(clusters, c)
	}
	rows.Close()
	views, err := s.clusterViews(ctx, orgID, clusters, now)
	if err != nil {
		return nil, err
	}
	key := func(v conversation.ClusterView) float64 {
		switch order.By {
		case "issues":
			return float64(v.Issues)
		case "conversations":
			return float64(v.Conversations)
		case "tasksTotal":
			n := 0
			for _, c := range v.Tasks {
				n += c
			}
			return float64(n)
		case "tasksBacklog":
			return float64(v.Tasks[conversation.TaskBacklog])
		case "tasksStarted":
			return float64(v.Tasks[conversation.TaskStarted])
		}
		return float64(v.UpdatedAt.UnixMicro())
	}
	sort.SliceStable(views, func(i, j int) bool {
		a, b := key(views[i]), key(views[j])
		if a == b {
			return views[i].ID < views[j].ID
		}
		return (a > b) == order.Desc
	})
	return views, nil
}

func (s Conversations) Cluster(ctx context.Context, orgID, id string, now time.Time) (conversation.ClusterView, error) {
	c, err := scanCluster(s.DB.Read().QueryRow(ctx, `SELECT `+clusterColumns+` FROM issue_clusters
		WHERE id = ? AND organization_id = ?`, id, orgID).Scan)
	if err != nil {
		return conversation.ClusterView{}, err
	}
	views, err := s.clusterViews(ctx, orgID, []conversation.Cluster{c}, now)
	if err != nil {
		return conversation.ClusterView{}, err
	}
	return views[0], nil
}

const taskColumns = `id, organization_id, cluster_id, space_id, title, description, status, created_at, updated_at, change_request_id`

func scanTask(scan func(...any) error) (conversation.Task, error) {
	var t conversation.Task
	var created, updated int64
	err := scan(&t.ID, &t.OrgID, &t.ClusterID, &t.SpaceID, &t.Title, &t.Description, &t.Status, &created, &updated, &t.ChangeRequest)
	if errors.Is(err, ErrNotFound) {
		return t, conversation.ErrNotFound
	}
	t.CreatedAt, t.UpdatedAt = FromMicros(created), FromMicros(updated)
	return t, err
}

func (s Conversations) Tasks(ctx context.Context, orgID string, f conversation.TaskFilter, page paging.Request) (paging.Result[conversation.Task], error) {
	l := List{Select: taskColumns, From: `FROM agent_tasks`, Where: []string{`organization_id = ?`}, Args: []any{orgID},
		Order: []string{`created_at`, `id`}, Desc: true}
	if f.Cluster != "" {
		l.Where, l.Args = append(l.Where, `cluster_id = ?`), append(l.Args, f.Cluster)
	}
	if f.Space != "" {
		l.Where, l.Args = append(l.Where, `space_id = ?`), append(l.Args, f.Space)
	}
	if len(f.Statuses) > 0 {
		l.Where = append(l.Where, `status IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(f.Statuses)), ", ")+`)`)
		for _, st := range f.Statuses {
			l.Args = append(l.Args, st)
		}
	}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (conversation.Task, []any, error) {
		t, err := scanTask(scan)
		return t, []any{Micros(t.CreatedAt), t.ID}, err
	})
}

func (s Conversations) Task(ctx context.Context, orgID, id string) (conversation.Task, error) {
	return scanTask(s.DB.Read().QueryRow(ctx, `SELECT `+taskColumns+` FROM agent_tasks WHERE id = ? AND organization_id = ?`, id, orgID).Scan)
}

func (s Conversations) SetTaskStatus(ctx context.Context, orgID, id, status string, now time.Time) (conversation.Task, error) {
	err := s.DB.Write(ctx, now, func(q *Q) error {
		_, err := q.Exec(ctx, `UPDATE agent_tasks SET status = ?, updated_at = ? WHERE id = ? AND organization_id = ?`,
			status, Micros(now), id, orgID)
		return err
	})
	if err != nil {
		return conversation.Task{}, err
	}
	return s.Task(ctx, orgID, id)
}

func (s Conversations) SetTaskChangeRequest(ctx context.Context, orgID, id, changeRequest string, now time.Time) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		_, err := q.Exec(ctx, `UPDATE agent_tasks SET change_request_id = ?, updated_at = ? WHERE id = ? AND organization_id = ?`,
			changeRequest, Micros(now), id, orgID)
		return err
	})
}

func (s Conversations) OpenedDraft(ctx context.Context, t conversation.Task, author, subject string) (string, error) {
	found, err := column[string](ctx, s.DB.Read(), `SELECT cr.id FROM change_requests cr WHERE cr.space_id = ?
		AND cr.created_by = ? AND cr.subject = ? AND cr.created_at >= ? AND cr.status = 'open'
		AND NOT EXISTS (SELECT 1 FROM agent_tasks t WHERE t.change_request_id = cr.id)
		ORDER BY cr.created_at, cr.id LIMIT 1`, t.SpaceID, author, subject, Micros(t.CreatedAt))
	if err != nil || len(found) == 0 {
		return "", err
	}
	return found[0], nil
}

func (s Conversations) Setup(ctx context.Context, orgID string) (conversation.SetupStats, error) {
	st := conversation.SetupStats{Tasks: map[string]int{}, Sources: map[string]int{}}
	q := s.DB.Read()
	for _, c := range []struct {
		query string
		dest  *int
	}{
		{`SELECT COUNT(*) FROM conversations WHERE organization_id = ?`, &st.Conversations},
		{`SELECT COUNT(*) FROM conversation_issues WHERE organization_id = ?`, &st.Issues},
		{`SELECT COUNT(*) FROM issue_clusters WHERE organization_id = ?`, &st.Clusters},
	} {
		if err := q.QueryRow(ctx, c.query, orgID).Scan(c.dest); err != nil {
			return st, err
		}
	}
	for query, into := range map[string]map[string]int{
		`SELECT status, COUNT(*) FROM agent_tasks WHERE organization_id = ? GROUP BY status`:   st.Tasks,
		`SELECT source, COUNT(*) FROM conversations WHERE organization_id = ? GROUP BY source`: st.Sources,
	} {
		rows, err := q.Query(ctx, query, orgID)
		if err != nil {
			return st, err
		}
		for rows.Next() {
			var k string
			var n int
			if err := rows.Scan(&k, &n); err != nil {
				rows.Close()
				return st, err
			}
			into[k] = n
		}
		rows.Close()
	}
	return st, nil
}

func (s Conversations) Process(ctx context.Context, orgID string, now time.Time, fn func(w conversation.Writer) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		var id string
		if err := q.QueryRow(ctx, `SELECT id FROM organizations WHERE id = ?`+q.ForUpdate(), orgID).Scan(&id); err != nil {
			if errors.Is(err, ErrNotFound) {
				return nil // the organization is gone, and its conversations with it
			}
			return err
		}
		return fn(convWriter{q})
	})
}

// convWriter is conversation.Writer inside a write transaction.
type convWriter struct{ q *Q }

func (w convWriter) Unprocessed(ctx context.Context, orgID string, limit int) ([]conversation.Conversation, error) {
	rows, err := w.q.Query(ctx, `SELECT `+conversationColumns+` FROM conversations c
		WHERE c.organization_id = ? AND c.processed_at IS NULL ORDER BY c.created_at, c.id LIMIT ?`, orgID, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []conversation.Conversation
	for rows.Next() {
		c, err := scanConversation(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (w convWriter) clusters(ctx context.Context, query string, args ...any) ([]conversation.Cluster, error) {
	rows, err := w.q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []conversation.Cluster
	for rows.Next() {
		c, err := scanCluster(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func (w convWriter) AllClusters(ctx context.Context, orgID string) ([]conversation.Cluster, error) {
	return w.clusters(ctx, `SELECT `+clusterColumns+` FROM issue_clusters WHERE organization_id = ? ORDER BY created_at, id`, orgID)
}

func (w convWriter) PendingClusters(ctx context.Context, orgID string) ([]conversation.Cluster, error) {
	return w.clusters(ctx, `SELECT `+clusterColumns+` FROM issue_clusters WHERE organization_id = ? AND status = ?
		ORDER BY created_at, id`, orgID, conversation.ClusterPending)
}

func (w convWriter) AllIssueTerms(ctx context.Context, orgID string) ([]map[string]float64, error) {
	rows, err := w.q.Query(ctx, `SELECT terms FROM conversation_issues WHERE organization_id = ?`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []map[string]float64
	for rows.Next() {
		var raw string
		if err := rows.Scan(&raw); err != nil {
			return nil, err
		}
		var tf map[string]float64
		if err := json.Unmarshal([]byte(raw), &tf); err != nil {
			return nil, err
		}
		out = append(out, tf)
	}
	return out, rows.Err()
}

func (w convWriter) IssuesOf(ctx context.Context, conversationID string) ([]conversation.Issue, error) {
	rows, err := w.q.Query(ctx, `SELECT cluster_id, terms, embedding FROM conversation_issues WHERE conversation_id = ?`, conversationID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []conversation.Issue
	for rows.Next() {
		var is conversation.Issue
		var raw, embedding string
		if err := rows.Scan(&is.ClusterID, &raw, &embedding); err != nil {
			return nil, err
		}
		var err error
		if is.Embedding, err = vectorFrom(embedding); err != nil {
			return nil, err
		}
		if err := json.Unmarshal([]byte(raw), &is.Terms); err != nil {
			return nil, err
		}
		out = append(out, is)
	}
	return out, rows.Err()
}

func (w convWriter) ReplaceIssues(ctx context.Context, c conversation.Conversation, issues []conversation.Issue, now time.Time) error {
	if _, err := w.q.Exec(ctx, `DELETE FROM conversation_issues WHERE conversation_id = ?`, c.ID); err != nil {
		return err
	}
	for _, is := range issues {
		terms, _ := json.Marshal(is.Terms)
		if _, err := w.q.Exec(ctx, `INSERT INTO conversation_issues (id, organization_id, conversation_id, cluster_id, title,
			summary, terms, created_at, ingested_at, embedding) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, is.ID, is.OrgID,
			is.ConversationID, is.ClusterID, is.Title, is.Summary, string(terms), Micros(is.CreatedAt), Micros(is.IngestedAt),
			vectorJSON(is.Embedding)); err != nil {
			return err
		}
	}
	_, err := w.q.Exec(ctx, `UPDATE conversations SET processed_at = ? WHERE id = ?`, Micros(now), c.ID)
	return err
}

func (w convWriter) PutCluster(ctx context.Context, c conversation.Cluster) error {
	centroid, _ := json.Marshal(c.Centroid)
	_, err := w.q.Exec(ctx, `INSERT INTO issue_clusters (`+clusterColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET label = excluded.label, icon = excluded.icon, summary = excluded.summary,
		status = excluded.status, centroid = excluded.centroid, updated_at = excluded.updated_at,
		embedding = excluded.embedding`,
		c.ID, c.OrgID, c.Label, c.Icon, c.Summary, c.Status, string(centroid), Micros(c.CreatedAt), Micros(c.UpdatedAt),
		vectorJSON(c.Embedding))
	return err
}

func (w convWriter) HasTask(ctx context.Context, clusterID string) (bool, error) {
	var n int
	err := w.q.QueryRow(ctx, `SELECT COUNT(*) FROM agent_tasks WHERE cluster_id = ?`, clusterID).Scan(&n)
	return n > 0, err
}

func (w convWriter) InsertTask(ctx context.Context, t conversation.Task) error {
	_, err := w.q.Exec(ctx, `INSERT INTO agent_tasks (`+taskColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.ID, t.OrgID, t.ClusterID, t.SpaceID, t.Title, t.Description, t.Status, Micros(t.CreatedAt), Micros(t.UpdatedAt),
		t.ChangeRequest)
	return err
}

func (w convWriter) Enqueue(ctx context.Context, kind string, payload any, dedupeKey string) error {
	return w.q.EnqueueJob(ctx, kind, payload, time.Time{}, dedupeKey)
}

func (w convWriter) OrgSpaces(ctx context.Context, orgID string) ([]string, error) {
	return column[string](ctx, w.q, `SELECT id FROM spaces WHERE organization_id = ? AND deleted_at IS NULL ORDER BY created_at, id`, orgID)
}

func (w convWriter) OrgAdmin(ctx context.Context, orgID string) (string, error) {
	ids, err := column[string](ctx, w.q, `SELECT user_id FROM members WHERE organization_id = ? AND role = 'admin'
		AND disabled = FALSE ORDER BY joined_at, user_id LIMIT 1`, orgID)
	if err != nil || len(ids) == 0 {
		return "", err
	}
	return ids[0], nil
}
