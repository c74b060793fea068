package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/paging"
	"docsd/internal/richtext"
	"docsd/internal/site"
)

func (t siteTx) AgentSettings(ctx context.Context, siteID string) (site.AgentSettings, error) {
	a := site.AgentSettings{SiteID: siteID}
	var doc string
	var updated int64
	err := t.q.QueryRow(ctx, `SELECT scan_topics, finding_change_requests, custom_instructions, updated_at, updated_by
		FROM site_agent_settings WHERE site_id = ?`, siteID).
		Scan(&a.ScanTopics, &a.FindingChangeRequests, &doc, &updated, &a.UpdatedBy)
	if err != nil {
		return a, siteErr(err)
	}
	at := FromMicros(updated)
	a.CustomInstructions, a.UpdatedAt = richtext.FromStore([]byte(doc)), &at
	return a, nil
}

func (t siteTx) PutAgentSettings(ctx context.Context, a site.AgentSettings) error {
	if a.UpdatedAt == nil {
		return errors.New("store: site agent settings without an update time")
	}
	_, err := t.q.Exec(ctx, `INSERT INTO site_agent_settings (site_id, scan_topics, finding_change_requests,
		custom_instructions, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (site_id) DO UPDATE SET scan_topics = excluded.scan_topics,
		finding_change_requests = excluded.finding_change_requests, custom_instructions = excluded.custom_instructions,
		updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
		a.SiteID, a.ScanTopics, a.FindingChangeRequests, string(a.CustomInstructions.JSON()), Micros(*a.UpdatedAt), a.UpdatedBy)
	return err
}

func (t siteTx) InsertFeedback(ctx context.Context, f site.Feedback) error {
	reporter := ""
	if f.ReportedBy != nil {
		b, err := json.Marshal(f.ReportedBy)
		if err != nil {
			return err
		}
		reporter = string(b)
	}
	subject, err := json.Marshal(f.Subject)
	if err != nil {
		return err
	}
	content, err := json.Marshal(f.Content)
	if err != nil {
		return err
	}
	category := ""
	if f.Content.Category != nil {
		category = *f.Content.Category
	}
	_, err = t.q.Exec(ctx, `INSERT INTO site_agent_feedback (id, site_id, created_at, created_by, source, kind, category,
		reported_by, subject, feedback) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		f.ID, f.SiteID, Micros(f.CreatedAt), f.CreatedBy, f.Source, f.Subject.Kind, category, reporter, string(subject), string(content))
	return siteErr(err)
}

const feedbackColumns = `id, site_id, created_at, created_by, source, reported_by, subject, feedback`

func scanFeedback(scan func(...any) error) (site.Feedback, error) {
	var f site.Feedback
	var created int64
	var reporter, subject, content string
	if err := scan(&f.ID, &f.SiteID, &created, &f.CreatedBy, &f.Source, &reporter, &subject, &content); err != nil {
		return f, siteErr(err)
	}
	f.CreatedAt = FromMicros(created)
	if reporter != "" {
		f.ReportedBy = &site.FeedbackReporter{}
		if err := json.Unmarshal([]byte(reporter), f.ReportedBy); err != nil {
			return f, err
		}
	}
	if err := json.Unmarshal([]byte(subject), &f.Subject); err != nil {
		return f, err
	}
	return f, json.Unmarshal([]byte(content), &f.Content)
}

func (t siteTx) ListFeedback(ctx context.Context, siteID string, f site.FeedbackFilter, page paging.Request) (paging.Result[site.Feedback], error) {
	l := List{Select: feedbackColumns, From: `FROM site_agent_feedback`, Where: []string{"site_id = ?"}, Args: []any{siteID}, Desc: true}
	if f.Kind != "" {
		l.Where, l.Args = append(l.Where, "kind = ?"), append(l.Args, f.Kind)
	}
	if f.Category != "" {
		l.Where, l.Args = append(l.Where, "category = ?"), append(l.Args, f.Category)
	}
	return pageByCreation(ctx, t.q, l, page, scanFeedback, func(f site.Feedback) (time.Time, string) { return f.CreatedAt, f.ID })
}
