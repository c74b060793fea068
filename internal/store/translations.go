package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"docsd/internal/paging"
	"docsd/internal/richtext"
	"docsd/internal/translate"
)

// Translations adapts the DB to translate.Store; each method is its own transaction.
type Translations struct{ DB *DB }

const translationColumns = `id, organization_id, source_space, source_language, language, instructions, auto_run, status,
	result_space, result_revision, provider, last_error, run_seq, stats, created_by, created_at, updated_at`

func scanTranslation(scan func(...any) error) (translate.Translation, error) {
	var t translate.Translation
	var instructions, stats string
	var created, updated int64
	err := scan(&t.ID, &t.OrgID, &t.SourceSpace, &t.SourceLanguage, &t.Language, &instructions, &t.AutoRun, &t.Status,
		&t.ResultSpace, &t.ResultRevision, &t.Provider, &t.LastError, &t.RunSeq, &stats, &t.CreatedBy, &created, &updated)
	if errors.Is(err, ErrNotFound) {
		return t, translate.ErrNotFound
	}
	if err != nil {
		return t, err
	}
	t.Instructions = richtext.FromStore([]byte(instructions))
	t.CreatedAt, t.UpdatedAt = FromMicros(created), FromMicros(updated)
	return t, json.Unmarshal([]byte(stats), &t.Stats)
}

func (s Translations) Insert(ctx context.Context, t translate.Translation) error {
	stats, _ := json.Marshal(t.Stats)
	return s.DB.Write(ctx, t.CreatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO translations (`+translationColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			t.ID, t.OrgID, t.SourceSpace, t.SourceLanguage, t.Language, string(t.Instructions.JSON()), t.AutoRun, t.Status,
			t.ResultSpace, t.ResultRevision, t.Provider, t.LastError, t.RunSeq, string(stats), t.CreatedBy,
			Micros(t.CreatedAt), Micros(t.UpdatedAt))
		return err
	})
}

func (s Translations) Get(ctx context.Context, orgID, id string) (translate.Translation, error) {
	return scanTranslation(s.DB.Read().QueryRow(ctx, `SELECT `+translationColumns+` FROM translations
		WHERE id = ? AND organization_id = ?`, id, orgID).Scan)
}

func (s Translations) GetByID(ctx context.Context, id string) (translate.Translation, error) {
	return scanTranslation(s.DB.Read().QueryRow(ctx, `SELECT `+translationColumns+` FROM translations WHERE id = ?`, id).Scan)
}

func (s Translations) List(ctx context.Context, orgID string, page paging.Request) (paging.Result[translate.Translation], error) {
	l := List{Select: translationColumns, From: `FROM translations`, Where: []string{`organization_id = ?`}, Args: []any{orgID}}
	return pageByCreation(ctx, s.DB.Read(), l, page, scanTranslation, func(x translate.Translation) (time.Time, string) { return x.CreatedAt, x.ID })
}

func (s Translations) BySource(ctx context.Context, spaceID string) ([]translate.Translation, error) {
	rows, err := s.DB.Read().Query(ctx, `SELECT `+translationColumns+` FROM translations WHERE source_space = ?
		ORDER BY created_at, id`, spaceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []translate.Translation
	for rows.Next() {
		t, err := scanTranslation(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s Translations) UpdateSettings(ctx context.Context, t translate.Translation) error {
	return s.DB.Write(ctx, t.UpdatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `UPDATE translations SET instructions = ?, auto_run = ?, updated_at = ? WHERE id = ?`,
			string(t.Instructions.JSON()), t.AutoRun, Micros(t.UpdatedAt), t.ID)
		return err
	})
}

func (s Translations) Delete(ctx context.Context, orgID, id string) (bool, error) {
	var deleted bool
	err := s.DB.Write(ctx, time.Now(), func(q *Q) error {
		res, err := q.Exec(ctx, `DELETE FROM translations WHERE id = ? AND organization_id = ?`, id, orgID)
		if err != nil {
			return err
		}
		n, err := res.RowsAffected()
		deleted = n > 0
		return err
	})
	return deleted, err
}

func (s Translations) QueueRun(ctx context.Context, id string, now time.Time, jobKind string) (bool, error) {
	queued := false
	err := s.DB.Write(ctx, now, func(q *Q) error {
		var status string
		var seq int
		err := q.QueryRow(ctx, `SELECT status, run_seq FROM translations WHERE id = ?`+q.ForUpdate(), id).Scan(&status, &seq)
		if errors.Is(err, ErrNotFound) {
			return translate.ErrNotFound
		}
		if err != nil || status == translate.Pending {
			return err
		}
		seq++
		if _, err := q.Exec(ctx, `UPDATE translations SET status = ?, run_seq = ?, updated_at = ? WHERE id = ?`,
			translate.Pending, seq, Micros(now), id); err != nil {
			return err
		}
		queued = true
		return q.EnqueueJob(ctx, jobKind, map[string]any{"translation": id, "seq": seq}, time.Time{},
			"translation:"+id+":"+strconv.Itoa(seq))
	})
	return queued, err
}

func (s Translations) SaveRun(ctx context.Context, t translate.Translation, seq int) error {
	stats, _ := json.Marshal(t.Stats)
	return s.DB.Write(ctx, t.UpdatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `UPDATE translations SET status = CASE WHEN run_seq = ? THEN ? ELSE ? END,
			result_space = ?, result_revision = ?, provider = ?, last_error = ?, stats = ?, updated_at = ? WHERE id = ?`,
			seq, t.Status, translate.Pending, t.ResultSpace, t.ResultRevision, t.Provider, t.LastError, string(stats),
			Micros(t.UpdatedAt), t.ID)
		return err
	})
}

func (s Translations) Units(ctx context.Context, id string) (map[string]translate.Unit, error) {
	rows, err := s.DB.Read().Query(ctx, `SELECT unit, source_hash, text FROM translation_units WHERE translation_id = ?`, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]translate.Unit{}
	for rows.Next() {
		var u translate.Unit
		if err := rows.Scan(&u.Key, &u.SourceHash, &u.Text); err != nil {
			return nil, err
		}
		out[u.Key] = u
	}
	return out, rows.Err()
}

func (s Translations) PutUnits(ctx context.Context, id string, units []translate.Unit, now time.Time) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		if _, err := q.Exec(ctx, `DELETE FROM translation_units WHERE translation_id = ?`, id); err != nil {
			return err
		}
		for _, u := range units {
			if _, err := q.Exec(ctx, `INSERT INTO translation_units (translation_id, unit, source_hash, text, updated_at)
				VALUES (?, ?, ?, ?, ?)`, id, u.Key, u.SourceHash, u.Text, Micros(now)); err != nil {
				return err
			}
		}
		return nil
	})
}

const glossaryColumns = `id, organization_id, translations, created_at, updated_at`

func scanGlossary(scan func(...any) error) (translate.GlossaryEntry, error) {
	var e translate.GlossaryEntry
	var terms string
	var created, updated int64
	err := scan(&e.ID, &e.OrgID, &terms, &created, &updated)
	if errors.Is(err, ErrNotFound) {
		return e, translate.ErrNotFound
	}
	if err != nil {
		return e, err
	}
	e.CreatedAt, e.UpdatedAt = FromMicros(created), FromMicros(updated)
	return e, json.Unmarshal([]byte(terms), &e.Translations)
}

func (s Translations) Glossary(ctx context.Context, orgID string, page paging.Request) (paging.Result[translate.GlossaryEntry], error) {
	l := List{Select: glossaryColumns, From: `FROM glossary_entries`, Where: []string{`organization_id = ?`}, Args: []any{orgID}}
	return pageByCreation(ctx, s.DB.Read(), l, page, scanGlossary, func(x translate.GlossaryEntry) (time.Time, string) { return x.CreatedAt, x.ID })
}

func (s Translations) AllGlossary(ctx context.Context, orgID string) ([]translate.GlossaryEntry, error) {
	rows, err := s.DB.Read().Query(ctx, `SELECT `+glossaryColumns+` FROM glossary_entries WHERE organization_id = ?
		ORDER BY created_at, id`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []translate.GlossaryEntry
	for rows.Next() {
		e, err := scanGlossary(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

func (s Translations) GlossaryEntry(ctx context.Context, orgID, id string) (translate.GlossaryEntry, error) {
	return scanGlossary(s.DB.Read().QueryRow(ctx, `SELECT `+glossaryColumns+` FROM glossary_entries
		WHERE id = ? AND organization_id = ?`, id, orgID).Scan)
}

func (s Translations) ApplyGlossary(ctx context.Context, orgID string, ops []translate.GlossaryOp, now time.Time) error {
	return s.DB.Write(ctx, now, func(q *Q) error {
		for i, op := range ops {
			terms, _ := json.Marshal(op.Translations)
			var query string
			var args []any
			switch op.Type {
			case "insert":
				query = `INSERT INTO glossary_entries (` + glossaryColumns + `) VALUES (?, ?, ?, ?, ?)`
				args = []any{op.ID, orgID, string(terms), Micros(now), Micros(now)}
			case "update":
				query = `UPDATE glossary_entries SET translations = ?, updated_at = ? WHERE id = ? AND organization_id = ?`
				args = []any{string(terms), Micros(now), op.ID, orgID}
			default:
				query = `DELETE FROM glossary_entries WHERE id = ? AND organization_id = ?`
				args = []any{op.ID, orgID}
			}
			res, err := q.Exec(ctx, query, args...)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 0 {
				return fmt.Errorf("operations[%d].id: no glossary entry %s: %w", i, op.ID, translate.ErrNotFound)
			}
		}
		return nil
	})
}
