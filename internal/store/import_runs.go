package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/importrun"
	"docsd/internal/paging"
)

// ImportRuns keeps import runs and upload slots (importrun.Store).
type ImportRuns struct{ DB *DB }

const importRunColumns = `id, organization_id, space_id, change_request_id, page_id, source, status, reason, pages,
	errors, revision, created_by, created_at, updated_at, started_at, completed_at`

func scanImportRun(scan func(...any) error) (importrun.Run, error) {
	var r importrun.Run
	var cr, page, reason, revision sql.NullString
	var source, pages, errs string
	var created, updated int64
	var started, completed sql.NullInt64
	if err := scan(&r.ID, &r.OrgID, &r.Target.Space, &cr, &page, &source, &r.Status, &reason, &pages, &errs, &revision,
		&r.CreatedBy, &created, &updated, &started, &completed); err != nil {
		return r, err
	}
	r.Target.ChangeRequest, r.Target.Page, r.Reason, r.Revision = cr.String, page.String, reason.String, revision.String
	if err := json.Unmarshal([]byte(source), &r.Source); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(pages), &r.Pages); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(errs), &r.Errors); err != nil {
		return r, err
	}
	r.CreatedAt, r.UpdatedAt = FromMicros(created), FromMicros(updated)
	r.StartedAt, r.CompletedAt = TimePtr(started), TimePtr(completed)
	return r, nil
}

// CreateRun stores a pending run and enqueues its job in the same transaction.
func (s ImportRuns) CreateRun(ctx context.Context, now time.Time, r importrun.Run, jobKind string, payload any) error {
	source, err := json.Marshal(r.Source)
	if err != nil {
		return err
	}
	return s.DB.Write(ctx, now, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO import_runs (`+importRunColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, NULL, '[]', '[]', NULL, ?, ?, ?, NULL, NULL)`,
			r.ID, r.OrgID, r.Target.Space, nullString(r.Target.ChangeRequest), nullString(r.Target.Page), string(source),
			r.Status, r.CreatedBy, Micros(r.CreatedAt), Micros(r.CreatedAt))
		if err != nil || jobKind == "" {
			return err
		}
		return q.EnqueueJob(ctx, jobKind, payload, time.Time{}, "import-run:"+r.ID)
	})
}

// Run returns a run of the organization.
func (s ImportRuns) Run(ctx context.Context, orgID, id string) (importrun.Run, error) {
	r, err := scanImportRun(s.DB.Read().QueryRow(ctx, `SELECT `+importRunColumns+` FROM import_runs WHERE id = ? AND organization_id = ?`, id, orgID).Scan)
	if errors.Is(err, ErrNotFound) {
		return r, apperr.NotFoundf("import run %s not found", id)
	}
	return r, err
}

// RunByID returns a run.
func (s ImportRuns) RunByID(ctx context.Context, id string) (importrun.Run, error) {
	r, err := scanImportRun(s.DB.Read().QueryRow(ctx, `SELECT `+importRunColumns+` FROM import_runs WHERE id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return r, apperr.NotFoundf("import run %s not found", id)
	}
	return r, err
}

// RunSpaces lists the spaces the organization's runs target.
func (s ImportRuns) RunSpaces(ctx context.Context, orgID string) ([]string, error) {
	return column[string](ctx, s.DB.Read(), `SELECT DISTINCT space_id FROM import_runs WHERE organization_id = ?`, orgID)
}

// ListRuns lists the organization's runs that target spaceIDs, most recent first.
func (s ImportRuns) ListRuns(ctx context.Context, orgID string, spaceIDs []string, f importrun.Filter, page paging.Request) (paging.Result[importrun.Run], error) {
	l := List{Select: importRunColumns, From: `FROM import_runs`, Order: []string{"created_at", "id"}, Desc: true,
		Where: []string{"organization_id = ?"}, Args: []any{orgID}}
	if len(spaceIDs) == 0 {
		return paging.Result[importrun.Run]{Items: []importrun.Run{}}, nil
	}
	l.Where = append(l.Where, "space_id IN ("+strings.TrimSuffix(strings.Repeat("?, ", len(spaceIDs)), ", ")+")")
	for _, id := range spaceIDs {
		l.Args = append(l.Args, id)
	}
	if f.Space != "" {
		l.Where, l.Args = append(l.Where, "space_id = ?"), append(l.Args, f.Space)
	}
	if f.ChangeRequest != "" {
		l.Where, l.Args = append(l.Where, "change_request_id = ?"), append(l.Args, f.ChangeRequest)
	}
	switch f.Status {
	case "":
	case "active":
		l.Where = append(l.Where, "status IN ('pending', 'in-progress')")
	default:
		l.Where, l.Args = append(l.Where, "status = ?"), append(l.Args, f.Status)
	}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (importrun.Run, []any, error) {
		r, err := scanImportRun(scan)
		return r, []any{Micros(r.CreatedAt), r.ID}, err
	})
}

// SetStatus moves a run from one of from to status. Starting sets started_at; ending in
// failure records the reason.
func (s ImportRuns) SetStatus(ctx context.Context, now time.Time, id string, from []string, status, reason string) (bool, error) {
	var ok bool
	err := s.DB.Write(ctx, now, func(q *Q) error {
		args := []any{status, nullString(reason), Micros(now)}
		started := ""
		switch status {
		case importrun.InProgress:
			started = ", started_at = ?"
			args = append(args, Micros(now))
		case importrun.Completed:
			started = ", completed_at = ?"
			args = append(args, Micros(now))
		}
		args = append(args, id)
		for _, f := range from {
			args = append(args, f)
		}
		res, err := q.Exec(ctx, `UPDATE import_runs SET status = ?, reason = ?, updated_at = ?`+started+`
			WHERE id = ? AND status IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(from)), ", ")+`)`, args...)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}

// ImportRuns gives a content transaction's import-run writes (importrun.TxSource).
func (t contentTx) ImportRuns() importrun.Tx { return importRunTx{t.q} }

type importRunTx struct{ q *Q }

// CompleteRun marks an in-progress run completed, within the content's transaction.
func (t importRunTx) CompleteRun(ctx context.Context, now time.Time, id, revision string, pages []importrun.Page, errs []string) (bool, error) {
	if pages == nil {
		pages = []importrun.Page{}
	}
	if errs == nil {
		errs = []string{}
	}
	p, err := json.Marshal(pages)
	if err != nil {
		return false, err
	}
	e, err := json.Marshal(errs)
	if err != nil {
		return false, err
	}
	res, err := t.q.Exec(ctx, `UPDATE import_runs SET status = 'completed', revision = ?, pages = ?, errors = ?,
		updated_at = ?, completed_at = ? WHERE id = ? AND status = 'in-progress'`,
		nullString(revision), string(p), string(e), Micros(now), Micros(now), id)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

const uploadColumns = `id, organization_id, object_key, kind, name, content_type, size, created_by, created_at,
	expires_at, uploaded_at, blob_hash`

func scanUpload(scan func(...any) error) (importrun.Upload, error) {
	var u importrun.Upload
	var created, expires int64
	var uploaded sql.NullInt64
	var hash sql.NullString
	err := scan(&u.ID, &u.OrgID, &u.Key, &u.Kind, &u.Name, &u.ContentType, &u.Size, &u.CreatedBy, &created, &expires, &uploaded, &hash)
	u.CreatedAt, u.ExpiresAt, u.UploadedAt, u.BlobHash = FromMicros(created), FromMicros(expires), TimePtr(uploaded), hash.String
	return u, err
}

// CreateUpload stores an upload slot.
func (s ImportRuns) CreateUpload(ctx context.Context, u importrun.Upload) error {
	return s.DB.Write(ctx, u.CreatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO storage_uploads (`+uploadColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
			u.ID, u.OrgID, u.Key, u.Kind, u.Name, u.ContentType, u.Size, u.CreatedBy, Micros(u.CreatedAt), Micros(u.ExpiresAt))
		return err
	})
}

// Upload returns an upload slot.
func (s ImportRuns) Upload(ctx context.Context, id string) (importrun.Upload, error) {
	u, err := scanUpload(s.DB.Read().QueryRow(ctx, `SELECT `+uploadColumns+` FROM storage_uploads WHERE id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return u, apperr.NotFoundf("upload %s not found", id)
	}
	return u, err
}

// UploadByKey returns an upload slot of the organization by its key.
func (s ImportRuns) UploadByKey(ctx context.Context, orgID, key string) (importrun.Upload, error) {
	u, err := scanUpload(s.DB.Read().QueryRow(ctx, `SELECT `+uploadColumns+` FROM storage_uploads WHERE object_key = ? AND organization_id = ?`, key, orgID).Scan)
	if errors.Is(err, ErrNotFound) {
		return u, apperr.NotFoundf("no upload with key %q in this organization", key)
	}
	return u, err
}

// MarkUploaded records an upload slot's bytes, once.
func (s ImportRuns) MarkUploaded(ctx context.Context, now time.Time, id, blobHash string) (bool, error) {
	var ok bool
	err := s.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE storage_uploads SET uploaded_at = ?, blob_hash = ? WHERE id = ? AND uploaded_at IS NULL`,
			Micros(now), nullString(blobHash), id)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n == 1
		return err
	})
	return ok, err
}
