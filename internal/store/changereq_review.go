package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"docsd/internal/changereq"
	"docsd/internal/mergerules"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

const reviewColumns = `r.id, r.change_request_id, r.reviewer_id, ru.email, ru.display_name, ru.photo_url,
	r.requested_by, bu.email, bu.display_name, bu.photo_url, r.revision_id, r.status, r.outdated, r.created_at, r.updated_at`

const reviewFrom = ` FROM change_request_reviews r JOIN users ru ON ru.id = r.reviewer_id
	LEFT JOIN users bu ON bu.id = r.requested_by`

func scanReview(scan func(...any) error) (changereq.Review, error) {
	var r changereq.Review
	var rEmail, rName, rPhoto, by, bEmail, bName, bPhoto sql.NullString
	var created, updated int64
	err := scan(&r.ID, &r.ChangeRequestID, &r.Reviewer.ID, &rEmail, &rName, &rPhoto, &by, &bEmail, &bName, &bPhoto,
		&r.Revision, &r.Status, &r.Outdated, &created, &updated)
	if err != nil {
		return r, err
	}
	r.Reviewer.Email, r.Reviewer.DisplayName, r.Reviewer.PhotoURL = rEmail.String, rName.String, rPhoto.String
	r.RequestedBy = changereq.User{ID: by.String, Email: bEmail.String, DisplayName: bName.String, PhotoURL: bPhoto.String}
	r.CreatedAt, r.UpdatedAt = FromMicros(created), FromMicros(updated)
	return r, nil
}

func (t changeReqTx) InsertReview(ctx context.Context, r changereq.Review) error {
	if _, err := t.q.Exec(ctx, `UPDATE change_request_reviews SET outdated = TRUE
		WHERE change_request_id = ? AND reviewer_id = ? AND outdated = FALSE`, r.ChangeRequestID, r.Reviewer.ID); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `INSERT INTO change_request_reviews (id, change_request_id, reviewer_id, requested_by,
		revision_id, status, outdated, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, FALSE, ?, ?)`,
		r.ID, r.ChangeRequestID, r.Reviewer.ID, nullString(r.RequestedBy.ID), r.Revision, r.Status,
		Micros(r.CreatedAt), Micros(r.UpdatedAt))
	if err != nil {
		return err
	}
	return t.q.Emit(outbox.ChangeRequestReviewed, "", "", r.ChangeRequestID, struct {
		Review   string `json:"review"`
		Reviewer string `json:"reviewer"`
		Status   string `json:"status"`
	}{r.ID, r.Reviewer.ID, string(r.Status)})
}

func (t changeReqTx) Review(ctx context.Context, changeRequestID, id string) (changereq.Review, error) {
	r, err := scanReview(t.q.QueryRow(ctx, `SELECT `+reviewColumns+reviewFrom+
		` WHERE r.change_request_id = ? AND r.id = ?`, changeRequestID, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return r, changereq.ErrReviewNotFound
	}
	return r, err
}

func (t changeReqTx) Reviews(ctx context.Context, changeRequestID string, outdated *bool, page paging.Request) (paging.Result[changereq.Review], error) {
	l := List{Select: reviewColumns, From: reviewFrom, Order: []string{"r.created_at", "r.id"},
		CountFrom: ` FROM change_request_reviews r`,
		Where:     []string{"r.change_request_id = ?"}, Args: []any{changeRequestID}}
	if outdated != nil {
		l.Where, l.Args = append(l.Where, "r.outdated = ?"), append(l.Args, *outdated)
	}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (changereq.Review, []any, error) {
		r, err := scanReview(scan)
		return r, []any{Micros(r.CreatedAt), r.ID}, err
	})
}

func (t changeReqTx) CurrentReviews(ctx context.Context, changeRequestID string) ([]changereq.Review, error) {
	rows, err := t.q.Query(ctx, `SELECT `+reviewColumns+reviewFrom+
		` WHERE r.change_request_id = ? AND r.outdated = FALSE ORDER BY r.created_at, r.id`, changeRequestID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []changereq.Review
	for rows.Next() {
		r, err := scanReview(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func (t changeReqTx) RequestReviewer(ctx context.Context, r changereq.RequestedReviewer) error {
	// A new request supersedes what the user said before.
	if _, err := t.q.Exec(ctx, `UPDATE change_request_reviews SET outdated = TRUE
		WHERE change_request_id = ? AND reviewer_id = ? AND outdated = FALSE`, r.ChangeRequestID, r.User.ID); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `INSERT INTO change_request_requested_reviewers (change_request_id, user_id, requested_by,
		revision_id, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (change_request_id, user_id) DO UPDATE SET requested_by = excluded.requested_by,
		revision_id = excluded.revision_id, created_at = excluded.created_at`,
		r.ChangeRequestID, r.User.ID, nullString(r.RequestedBy.ID), r.Revision, Micros(r.CreatedAt))
	return err
}

const requestedColumns = `q.change_request_id, q.user_id, uu.email, uu.display_name, uu.photo_url,
	q.requested_by, bu.email, bu.display_name, bu.photo_url, q.revision_id, q.created_at`

const requestedFrom = ` FROM change_request_requested_reviewers q JOIN users uu ON uu.id = q.user_id
	LEFT JOIN users bu ON bu.id = q.requested_by`

func scanRequested(scan func(...any) error) (changereq.RequestedReviewer, error) {
	var r changereq.RequestedReviewer
	var uEmail, uName, uPhoto, by, bEmail, bName, bPhoto sql.NullString
	var created int64
	err := scan(&r.ChangeRequestID, &r.User.ID, &uEmail, &uName, &uPhoto, &by, &bEmail, &bName, &bPhoto,
		&r.Revision, &created)
	if err != nil {
		return r, err
	}
	r.User.Email, r.User.DisplayName, r.User.PhotoURL = uEmail.String, uName.String, uPhoto.String
	r.RequestedBy = changereq.User{ID: by.String, Email: bEmail.String, DisplayName: bName.String, PhotoURL: bPhoto.String}
	r.CreatedAt = FromMicros(created)
	return r, nil
}

func (t changeReqTx) RequestedReviewer(ctx context.Context, changeRequestID, userID string) (changereq.RequestedReviewer, bool, error) {
	r, err := scanRequested(t.q.QueryRow(ctx, `SELECT `+requestedColumns+requestedFrom+
		` WHERE q.change_request_id = ? AND q.user_id = ?`, changeRequestID, userID).Scan)
	if errors.Is(err, ErrNotFound) {
		return r, false, nil
	}
	return r, err == nil, err
}

func (t changeReqTx) RequestedReviewers(ctx context.Context, changeRequestID string, page paging.Request) (paging.Result[changereq.RequestedReviewer], error) {
	l := List{Select: requestedColumns, From: requestedFrom, Order: []string{"q.created_at", "q.user_id"},
		CountFrom: ` FROM change_request_requested_reviewers q`,
		Where:     []string{"q.change_request_id = ?"}, Args: []any{changeRequestID}}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (changereq.RequestedReviewer, []any, error) {
		r, err := scanRequested(scan)
		return r, []any{Micros(r.CreatedAt), r.User.ID}, err
	})
}

func (t changeReqTx) RemoveRequestedReviewer(ctx context.Context, changeRequestID, userID string) (bool, error) {
	res, err := t.q.Exec(ctx, `DELETE FROM change_request_requested_reviewers WHERE change_request_id = ? AND user_id = ?`,
		changeRequestID, userID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (t changeReqTx) OrganizationMergeRules(ctx context.Context, orgID string) (mergerules.Config, error) {
	var raw string
	if err := t.q.QueryRow(ctx, `SELECT merge_rules FROM organizations WHERE id = ?`, orgID).Scan(&raw); err != nil {
		return mergerules.Config{}, err
	}
	cfg := mergerules.Default()
	return cfg, json.Unmarshal([]byte(raw), &cfg)
}
