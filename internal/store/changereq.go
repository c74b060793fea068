package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"docsd/internal/changereq"
	"docsd/internal/content"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

// ChangeRequests adapts the DB to changereq.Store.
type ChangeRequests struct{ DB *DB }

func (s ChangeRequests) Read() changereq.Tx { return changeReqTx{s.DB.Read()} }

func (s ChangeRequests) Write(ctx context.Context, now time.Time, fn func(changereq.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(changeReqTx{q}) })
}

type changeReqTx struct{ q *Q }

const changeReqColumns = `cr.id, cr.space_id, s.organization_id, cr.number, cr.status, cr.subject, cr.description,
	cr.created_by, u.email, u.display_name, u.photo_url, cr.revision_id, cr.revision_initial,
	cr.revision_merged_ancestor, cr.revision_merged, cr.created_at, cr.updated_at, cr.open_comments`

const changeReqFrom = ` FROM change_requests cr JOIN spaces s ON s.id = cr.space_id LEFT JOIN users u ON u.id = cr.created_by`

func scanChangeReq(scan func(...any) error) (changereq.ChangeRequest, error) {
	var cr changereq.ChangeRequest
	var desc, by, email, name, photo, ancestor, merged sql.NullString
	var created, updated int64
	err := scan(&cr.ID, &cr.SpaceID, &cr.OrganizationID, &cr.Number, &cr.Status, &cr.Subject, &desc, &by, &email,
		&name, &photo, &cr.Revision, &cr.RevisionInitial, &ancestor, &merged, &created, &updated,
		&cr.OpenComments)
	if err != nil {
		return cr, err
	}
	if desc.Valid {
		cr.Description = []byte(desc.String)
	}
	cr.CreatedBy = changereq.User{ID: by.String, Email: email.String, DisplayName: name.String, PhotoURL: photo.String}
	cr.RevisionMergedAncestor, cr.RevisionMerged = ancestor.String, merged.String
	cr.CreatedAt, cr.UpdatedAt = FromMicros(created), FromMicros(updated)
	return cr, nil
}

func nullText(b []byte) any {
	if b == nil {
		return nil
	}
	return string(b)
}

func nullString(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func (t changeReqTx) Insert(ctx context.Context, cr changereq.ChangeRequest) (int64, error) {
	var n int64
	if err := t.q.QueryRow(ctx, `SELECT COALESCE(MAX(number), 0) + 1 FROM change_requests WHERE space_id = ?`,
		cr.SpaceID).Scan(&n); err != nil {
		return 0, err
	}
	_, err := t.q.Exec(ctx, `INSERT INTO change_requests (id, space_id, number, status, subject, description,
		created_by, revision_id, revision_initial, revision_merged_ancestor, revision_merged, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		cr.ID, cr.SpaceID, n, cr.Status, cr.Subject, nullText(cr.Description), nullString(cr.CreatedBy.ID),
		cr.Revision, cr.RevisionInitial, nullString(cr.RevisionMergedAncestor), nullString(cr.RevisionMerged),
		Micros(cr.CreatedAt), Micros(cr.UpdatedAt))
	if errors.Is(err, ErrUniqueViolation) {
		return 0, changereq.ErrNumberTaken
	}
	if err != nil {
		return 0, err
	}
	return n, t.q.Emit(outbox.ChangeRequestOpened, "", cr.SpaceID, cr.ID, changeRequestEvent{Number: n, Status: cr.Status})
}

// changeRequestEvent is the data of change request events.
type changeRequestEvent struct {
	Number   int64  `json:"number,omitempty"`
	Status   string `json:"status"`
	Revision string `json:"revision,omitempty"`
}

func (t changeReqTx) Get(ctx context.Context, spaceID, ref string) (changereq.ChangeRequest, error) {
	number := int64(-1)
	if changereq.IsNumber(ref) {
		number, _ = strconv.ParseInt(ref, 10, 64)
	}
	cr, err := scanChangeReq(t.q.QueryRow(ctx, `SELECT `+changeReqColumns+changeReqFrom+
		` WHERE cr.space_id = ? AND (cr.id = ? OR cr.number = ?)`, spaceID, ref, number).Scan)
	if errors.Is(err, ErrNotFound) {
		return cr, changereq.ErrNotFound
	}
	return cr, err
}

func (t changeReqTx) MergedAs(ctx context.Context, spaceID, revisionID string) (changereq.ChangeRequest, error) {
	cr, err := scanChangeReq(t.q.QueryRow(ctx, `SELECT `+changeReqColumns+changeReqFrom+
		` WHERE cr.space_id = ? AND cr.revision_merged = ?`, spaceID, revisionID).Scan)
	if errors.Is(err, ErrNotFound) {
		return cr, changereq.ErrNotFound
	}
	return cr, err
}

func (t changeReqTx) AddContributor(ctx context.Context, id, userID string, edited bool, at time.Time) error {
	if !edited {
		_, err := t.q.Exec(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id) VALUES (?, ?)
			ON CONFLICT (change_request_id, user_id) DO NOTHING`, id, userID)
		return err
	}
	_, err := t.q.Exec(ctx, `INSERT INTO change_request_contributors (change_request_id, user_id, edits, updated_at)
		VALUES (?, ?, 1, ?)
		ON CONFLICT (change_request_id, user_id) DO UPDATE SET edits = change_request_contributors.edits + 1,
			updated_at = excluded.updated_at`, id, userID, Micros(at))
	return err
}

func (t changeReqTx) Contributors(ctx context.Context, id string, page paging.Request) (paging.Result[changereq.Contributor], error) {
	l := List{Select: `k.user_id, u.email, u.display_name, u.photo_url, k.edits, k.updated_at`,
		From:  ` FROM change_request_contributors k JOIN users u ON u.id = k.user_id`,
		Where: []string{`k.change_request_id = ?`, `k.edits > 0`}, Args: []any{id},
		Order: []string{`k.updated_at`, `k.user_id`}, Desc: true}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (changereq.Contributor, []any, error) {
		var k changereq.Contributor
		var email, name, photo sql.NullString
		var at int64
		err := scan(&k.User.ID, &email, &name, &photo, &k.Edits, &at)
		k.User.Email, k.User.DisplayName, k.User.PhotoURL, k.UpdatedAt = email.String, name.String, photo.String, FromMicros(at)
		return k, []any{at, k.User.ID}, err
	})
}

func (t changeReqTx) Content() content.Tx { return contentTx(t) }

func (t changeReqTx) Update(ctx context.Context, cr changereq.ChangeRequest, prevRevision string) (bool, error) {
	// The status as it was tells a merge or a closing from another update, for the event.
	var was string
	if err := t.q.QueryRow(ctx, `SELECT status FROM change_requests WHERE id = ?`, cr.ID).Scan(&was); err != nil {
		return false, err
	}
	res, err := t.q.Exec(ctx, `UPDATE change_requests SET status = ?, subject = ?, description = ?, revision_id = ?,
		revision_merged_ancestor = ?, revision_merged = ?, updated_at = ?
		WHERE id = ? AND revision_id = ?`,
		cr.Status, cr.Subject, nullText(cr.Description), cr.Revision, nullString(cr.RevisionMergedAncestor),
		nullString(cr.RevisionMerged), Micros(cr.UpdatedAt), cr.ID, prevRevision)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n != 1 {
		return false, err
	}
	kind := outbox.ChangeRequestUpdated
	switch {
	case cr.Status == changereq.Merged && was != changereq.Merged:
		kind = outbox.ChangeRequestMerged
	case cr.Status == changereq.Archived && was != changereq.Archived:
		kind = outbox.ChangeRequestClosed
	}
	return true, t.q.Emit(kind, "", cr.SpaceID, cr.ID, changeRequestEvent{Status: cr.Status, Revision: cr.Revision})
}

func (t changeReqTx) List(ctx context.Context, spaceIDs []string, f changereq.Filter, page paging.Request) (paging.Result[changereq.ChangeRequest], error) {
	l := List{Select: changeReqColumns, From: changeReqFrom, Order: []string{"cr.created_at", "cr.id"}, Desc: true,
		CountFrom: ` FROM change_requests cr`}
	in := "cr.space_id IN ("
	for i, id := range spaceIDs {
		if i > 0 {
			in += ", "
		}
		in += "?"
		l.Args = append(l.Args, id)
	}
	l.Where = append(l.Where, in+")")
	if f.Status != "" {
		l.Where, l.Args = append(l.Where, "cr.status = ?"), append(l.Args, f.Status)
	}
	if f.Creator != "" {
		l.Where, l.Args = append(l.Where, "cr.created_by = ?"), append(l.Args, f.Creator)
	}
	if f.Contributor != "" {
		l.Where = append(l.Where, `EXISTS (SELECT 1 FROM change_request_contributors k
			WHERE k.change_request_id = cr.id AND k.user_id = ?)`)
		l.Args = append(l.Args, f.Contributor)
	}
	if f.RequestedReviewer != "" {
		l.Where = append(l.Where, `EXISTS (SELECT 1 FROM change_request_requested_reviewers q
			WHERE q.change_request_id = cr.id AND q.user_id = ?)`)
		l.Args = append(l.Args, f.RequestedReviewer)
	}
	if f.ConversationsIssuesCluster != "" {
		// Conversation clusters do not exist yet, so nothing matches.
		l.Where = append(l.Where, "1 = 0")
	}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (changereq.ChangeRequest, []any, error) {
		cr, err := scanChangeReq(scan)
		return cr, []any{Micros(cr.CreatedAt), cr.ID}, err
	})
}
