package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/openapi"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

// OpenAPISpecs keeps OpenAPI specs and their versions (openapi.Store).
type OpenAPISpecs struct{ DB *DB }

const openAPISpecColumns = `id, organization_id, slug, source_url, source_text, visibility, processing_state, generation,
	last_version, last_processed_at, last_error_code, last_errors, last_error_count, etag, last_modified, created_at, updated_at`

func scanOpenAPISpec(scan func(...any) error) (openapi.Spec, error) {
	var s openapi.Spec
	var srcURL, srcText, lastVersion, errCode sql.NullString
	var processed sql.NullInt64
	var errs string
	var created, updated int64
	if err := scan(&s.ID, &s.OrgID, &s.Slug, &srcURL, &srcText, &s.Visibility, &s.State, &s.Generation,
		&lastVersion, &processed, &errCode, &errs, &s.ErrorCount, &s.ETag, &s.LastModified, &created, &updated); err != nil {
		return s, err
	}
	s.SourceURL, s.SourceText, s.LastVersion, s.LastErrorCode = srcURL.String, srcText.String, lastVersion.String, errCode.String
	s.LastProcessedAt = TimePtr(processed)
	s.CreatedAt, s.UpdatedAt = FromMicros(created), FromMicros(updated)
	if err := json.Unmarshal([]byte(errs), &s.LastErrors); err != nil {
		return s, err
	}
	return s, nil
}

func specNotFound(slug string) error {
	return apperr.NotFoundf("OpenAPI specification %s not found", slug)
}

// CreateSpec stores a new spec and queues its processing in the same transaction; 409 when
// the organization has a spec of that slug.
func (s OpenAPISpecs) CreateSpec(ctx context.Context, now time.Time, sp openapi.Spec, job openapi.Job) error {
	err := s.DB.Write(ctx, now, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO openapi_specs (`+openAPISpecColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL, '[]', 0, '', '', ?, ?)`,
			sp.ID, sp.OrgID, sp.Slug, nullString(sp.SourceURL), nullString(sp.SourceText), sp.Visibility, sp.State,
			sp.Generation, Micros(now), Micros(now))
		if err != nil {
			return err
		}
		return q.EnqueueJob(ctx, job.Kind, job.Payload, time.Time{}, job.Dedupe)
	})
	if errors.Is(err, ErrUniqueViolation) {
		return apperr.Conflictf("slug: the organization already has an OpenAPI specification %q", sp.Slug)
	}
	return err
}

// UpdateSource replaces a spec's source, moves it to a new generation, pending, and queues
// that generation's processing.
func (s OpenAPISpecs) UpdateSource(ctx context.Context, now time.Time, orgID, slug string, src openapi.Source) (openapi.Spec, error) {
	var sp openapi.Spec
	err := s.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE openapi_specs SET source_url = ?, source_text = ?, generation = generation + 1,
			processing_state = ?, etag = '', last_modified = '', updated_at = ? WHERE organization_id = ? AND slug = ?`,
			nullString(src.URL), nullString(src.Text), openapi.StatePending, Micros(now), orgID, slug)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return specNotFound(slug)
		}
		if sp, err = s.spec(ctx, q, orgID, slug); err != nil {
			return err
		}
		job := openapi.ProcessJobFor(sp.ID, sp.Generation)
		return q.EnqueueJob(ctx, job.Kind, job.Payload, time.Time{}, job.Dedupe)
	})
	return sp, err
}

// SetVisibility sets a spec's visibility.
func (s OpenAPISpecs) SetVisibility(ctx context.Context, now time.Time, orgID, slug, visibility string) (openapi.Spec, error) {
	var sp openapi.Spec
	err := s.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE openapi_specs SET visibility = ?, updated_at = ? WHERE organization_id = ? AND slug = ?`,
			visibility, Micros(now), orgID, slug)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return specNotFound(slug)
		}
		if sp, err = s.spec(ctx, q, orgID, slug); err != nil {
			return err
		}
		return q.Emit(outbox.OpenAPISpecChanged, orgID, "", sp.ID, nil)
	})
	return sp, err
}

// DeleteSpec removes a spec and its versions; absent is no error.
func (s OpenAPISpecs) DeleteSpec(ctx context.Context, now time.Time, orgID, slug string) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		var id string
		err := q.QueryRow(ctx, `SELECT id FROM openapi_specs WHERE organization_id = ? AND slug = ?`, orgID, slug).Scan(&id)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM openapi_spec_versions WHERE spec_id = ?`, id); err != nil {
			return err
		}
		if _, err = q.Exec(ctx, `DELETE FROM openapi_specs WHERE id = ?`, id); err != nil {
			return err
		}
		return q.Emit(outbox.OpenAPISpecChanged, orgID, "", id, nil)
	})
}

func (s OpenAPISpecs) spec(ctx context.Context, q *Q, orgID, slug string) (openapi.Spec, error) {
	sp, err := scanOpenAPISpec(q.QueryRow(ctx, `SELECT `+openAPISpecColumns+` FROM openapi_specs WHERE organization_id = ? AND slug = ?`, orgID, slug).Scan)
	if errors.Is(err, ErrNotFound) {
		return sp, specNotFound(slug)
	}
	return sp, err
}

// Spec returns the organization's spec of slug.
func (s OpenAPISpecs) Spec(ctx context.Context, orgID, slug string) (openapi.Spec, error) {
	return s.spec(ctx, s.DB.Read(), orgID, slug)
}

// SpecByID returns a spec by id.
func (s OpenAPISpecs) SpecByID(ctx context.Context, id string) (openapi.Spec, error) {
	sp, err := scanOpenAPISpec(s.DB.Read().QueryRow(ctx, `SELECT `+openAPISpecColumns+` FROM openapi_specs WHERE id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return sp, specNotFound(id)
	}
	return sp, err
}

// SpecBySourceURL finds the organization's oldest spec fetched from url.
func (s OpenAPISpecs) SpecBySourceURL(ctx context.Context, orgID, url string) (openapi.Spec, error) {
	sp, err := scanOpenAPISpec(s.DB.Read().QueryRow(ctx, `SELECT `+openAPISpecColumns+` FROM openapi_specs
		WHERE organization_id = ? AND source_url = ? ORDER BY created_at, id LIMIT 1`, orgID, url).Scan)
	if errors.Is(err, ErrNotFound) {
		return sp, specNotFound(url)
	}
	return sp, err
}

// ListSpecs lists the organization's specs by slug.
func (s OpenAPISpecs) ListSpecs(ctx context.Context, orgID string, page paging.Request) (paging.Result[openapi.Spec], error) {
	l := List{Select: openAPISpecColumns, From: `FROM openapi_specs`, Order: []string{"slug"},
		Where: []string{"organization_id = ?"}, Args: []any{orgID}}
	return Page(ctx, s.DB.Read(), l, page, func(scan func(...any) error) (openapi.Spec, []any, error) {
		sp, err := scanOpenAPISpec(scan)
		return sp, []any{sp.Slug}, err
	})
}

const openAPIVersionColumns = `id, spec_id, content_hash, url, entry, files, created_at`

func scanOpenAPIVersion(scan func(...any) error) (openapi.Version, error) {
	var v openapi.Version
	var files string
	var created int64
	if err := scan(&v.ID, &v.SpecID, &v.Hash, &v.URL, &v.Entry, &files, &created); err != nil {
		return v, err
	}
	v.CreatedAt = FromMicros(created)
	return v, json.Unmarshal([]byte(files), &v.Files)
}

// ListVersions lists a spec's versions, newest first.
func (s OpenAPISpecs) ListVersions(ctx context.Context, specID string, page paging.Request) (paging.Result[openapi.Version], error) {
	l := List{Select: openAPIVersionColumns, From: `FROM openapi_spec_versions`, Desc: true,
		Where: []string{"spec_id = ?"}, Args: []any{specID}}
	return pageByCreation(ctx, s.DB.Read(), l, page, scanOpenAPIVersion, func(v openapi.Version) (time.Time, string) { return v.CreatedAt, v.ID })
}

// Version returns a version of a spec.
func (s OpenAPISpecs) Version(ctx context.Context, specID, id string) (openapi.Version, error) {
	v, err := scanOpenAPIVersion(s.DB.Read().QueryRow(ctx, `SELECT `+openAPIVersionColumns+` FROM openapi_spec_versions WHERE spec_id = ? AND id = ?`, specID, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return v, apperr.NotFoundf("OpenAPI specification version %s not found", id)
	}
	return v, err
}

// StartProcessing moves the spec to progress when it is still at generation gen.
func (s OpenAPISpecs) StartProcessing(ctx context.Context, now time.Time, specID string, gen int64) (bool, error) {
	var ok bool
	err := s.DB.Write(ctx, now, func(q *Q) error {
		res, err := q.Exec(ctx, `UPDATE openapi_specs SET processing_state = ? WHERE id = ? AND generation = ?`,
			openapi.StateProgress, specID, gen)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		ok = n > 0
		return err
	})
	return ok, err
}

// FinishProcessing records a processing's result when the spec is still at generation gen:
// a new version when its hash differs from the latest one's; a failure leaves the latest
// version as it is. A version's making is an event, for what shows the spec.
func (s OpenAPISpecs) FinishProcessing(ctx context.Context, now time.Time, specID string, gen int64, r openapi.Result) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		var orgID, latestHash string
		var lastVersion sql.NullString
		err := q.QueryRow(ctx, `SELECT s.organization_id, s.last_version, COALESCE(v.content_hash, '') FROM openapi_specs s
			LEFT JOIN openapi_spec_versions v ON v.id = s.last_version WHERE s.id = ? AND s.generation = ?`, specID, gen).
			Scan(&orgID, &lastVersion, &latestHash)
		if errors.Is(err, ErrNotFound) {
			return nil // deleted, or its source changed: the newer generation's job decides
		}
		if err != nil {
			return err
		}
		errs := r.Errors
		if errs == nil {
			errs = []openapi.ProblemItem{}
		}
		count := len(errs)
		if len(errs) > openapi.MaxErrors {
			errs = errs[:openapi.MaxErrors]
		}
		errJSON, err := json.Marshal(errs)
		if err != nil {
			return err
		}
		version := lastVersion.String
		updated := false
		if v := r.Version; v != nil && v.Hash != latestHash {
			files, err := json.Marshal(v.Files)
			if err != nil {
				return err
			}
			if _, err := q.Exec(ctx, `INSERT INTO openapi_spec_versions (`+openAPIVersionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				v.ID, specID, v.Hash, v.URL, v.Entry, string(files), Micros(now)); err != nil {
				return err
			}
			version, updated = v.ID, true
			if err := q.Emit(openapi.EventVersionCreated, orgID, "", specID, map[string]string{"version": v.ID}); err != nil {
				return err
			}
		}
		set := `processing_state = ?, last_version = ?, last_processed_at = ?, last_error_code = ?, last_errors = ?, last_error_count = ?, etag = ?, last_modified = ?`
		args := []any{openapi.StateComplete, nullString(version), Micros(now), nullString(r.ErrorCode), string(errJSON), count, r.ETag, r.LastModified}
		if updated {
			set += `, updated_at = ?`
			args = append(args, Micros(now))
		}
		_, err = q.Exec(ctx, `UPDATE openapi_specs SET `+set+` WHERE id = ?`, append(args, specID)...)
		return err
	})
}

// DueForRefresh lists URL specs processed before cutoff, and not being processed.
func (s OpenAPISpecs) DueForRefresh(ctx context.Context, cutoff time.Time, limit int) ([]openapi.Spec, error) {
	rows, err := s.DB.Read().Query(ctx, `SELECT `+openAPISpecColumns+` FROM openapi_specs
		WHERE source_url IS NOT NULL AND processing_state = ? AND last_processed_at < ?
		ORDER BY last_processed_at LIMIT ?`, openapi.StateComplete, Micros(cutoff), limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []openapi.Spec
	for rows.Next() {
		sp, err := scanOpenAPISpec(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, rows.Err()
}

// EnqueueProcess queues a refresh of a spec's current generation.
func (s OpenAPISpecs) EnqueueProcess(ctx context.Context, now time.Time, specID string, gen int64) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		job := openapi.RefreshJobFor(specID, gen)
		return q.EnqueueJob(ctx, job.Kind, job.Payload, time.Time{}, job.Dedupe)
	})
}
