package store

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"time"

	"docsd/internal/search"
)

// Searches adapts the DB to search.Store. The full-text SQL differs by engine (FTS5 on
// SQLite, tsvector on PostgreSQL) and lives in search_sqlite.go and search_postgres.go.
type Searches struct {
	DB *DB
}

// NewSearches returns the search store of db.
func NewSearches(db *DB) *Searches { return &Searches{DB: db} }

func (s *Searches) Indexed(ctx context.Context, spaceID string) (string, error) {
	var rev string
	err := s.DB.Read().QueryRow(ctx, `SELECT revision_id FROM search_indexed WHERE space_id = ?`, spaceID).Scan(&rev)
	if errors.Is(err, ErrNotFound) {
		return "", nil
	}
	return rev, err
}

func (s *Searches) Head(ctx context.Context, spaceID string) (string, bool, error) {
	var rev string
	err := s.DB.Read().QueryRow(ctx, `SELECT revision_id FROM spaces WHERE id = ?`, spaceID).Scan(&rev)
	if errors.Is(err, ErrNotFound) {
		return "", false, nil
	}
	return rev, err == nil, err
}

func (s *Searches) LiveSpaces(ctx context.Context, ids []string) (map[string]search.IndexState, error) {
	out := make(map[string]search.IndexState, len(ids))
	for start := 0; start < len(ids); start += 512 {
		list, args := inList(ids[start:min(start+512, len(ids))])
		rows, err := s.DB.Read().Query(ctx, `SELECT s.id, s.revision_id, COALESCE(i.revision_id, ''), COALESCE(i.sections, 0)
			FROM spaces s LEFT JOIN search_indexed i ON i.space_id = s.id
			WHERE s.id IN (`+list+`) AND s.deleted_at IS NULL`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id string
			var st search.IndexState
			if err := rows.Scan(&id, &st.Head, &st.Indexed, &st.Sections); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = st
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// errIndexMoved rolls back an index update that lost the race to another indexer.
var errIndexMoved = errors.New("store: search index moved meanwhile")

func (s *Searches) ApplyIndex(ctx context.Context, now time.Time, spaceID, from, to string, all bool, pages []string, rows []search.Row) (bool, error) {
	err := s.DB.Write(ctx, now, func(q *Q) error {
		var res interface{ RowsAffected() (int64, error) }
		var err error
		if from == "" {
			// A space whose index has no revision either has no row yet or has one left by an
			// update written in batches that did not finish (BeginIndexBatches).
			res, err = q.Exec(ctx, `INSERT INTO search_indexed (space_id, revision_id, indexed_at) VALUES (?, ?, ?)
				ON CONFLICT (space_id) DO UPDATE SET revision_id = excluded.revision_id, indexed_at = excluded.indexed_at
				WHERE search_indexed.revision_id = ''`, spaceID, to, Micros(q.Now()))
		} else {
			res, err = q.Exec(ctx, `UPDATE search_indexed SET revision_id = ?, indexed_at = ? WHERE space_id = ? AND revision_id = ?`,
				to, Micros(q.Now()), spaceID, from)
		}
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(err, errIndexMoved)
		}
		var sections, words int64
		if all {
			if err := deleteSections(ctx, q, spaceID, nil); err != nil {
				return err
			}
		} else if sections, words, err = dropPages(ctx, q, spaceID, pages); err != nil {
			return err
		}
		added, err := insertSections(ctx, q, rows)
		if err != nil {
			return err
		}
		sections, words = sections+int64(len(rows)), words+added
		set := `sections = sections + ?, word_count = word_count + ?`
		if all {
			set = `sections = ?, word_count = ?`
		}
		_, err = q.Exec(ctx, `UPDATE search_indexed SET `+set+` WHERE space_id = ?`, sections, words, spaceID)
		return err
	})
	if errors.Is(err, errIndexMoved) {
		return false, nil
	}
	return err == nil, err
}

// dropPages deletes the sections of the given pages of a space and returns the change it
// made to the space's counts (sections and words, zero or less).
func dropPages(ctx context.Context, q *Q, spaceID string, pages []string) (sections, words int64, err error) {
	for start := 0; start < len(pages); start += 512 {
		part := pages[start:min(start+512, len(pages))]
		n, w, err := countSections(ctx, q, spaceID, part)
		if err != nil {
			return 0, 0, err
		}
		sections, words = sections-n, words-w
		if err := deleteSections(ctx, q, spaceID, part); err != nil {
			return 0, 0, err
		}
	}
	return sections, words, nil
}

// An index update written in batches (search.Store's BeginIndexBatches, ApplyIndexBatch and
// FinishIndexBatches) holds the space's search_indexed row with its revision set to "" (no
// index: a crash midway leaves an index that the next update rebuilds whole, and that no
// reader takes for up to date) and indexed_at set to a claim: a number greater than any the
// row held before, so that an update that starts later takes the row over and every batch of
// the earlier one finds its claim gone. Each batch keeps the counts exact, as ApplyIndex does.

func (s *Searches) BeginIndexBatches(ctx context.Context, now time.Time, spaceID, from string) (int64, bool, error) {
	var claim int64
	err := s.DB.Write(ctx, now, func(q *Q) error {
		if from == "" {
			if _, err := q.Exec(ctx, `INSERT INTO search_indexed (space_id, revision_id, indexed_at) VALUES (?, '', ?)
				ON CONFLICT (space_id) DO NOTHING`, spaceID, Micros(q.Now())); err != nil {
				return err
			}
		}
		res, err := q.Exec(ctx, `UPDATE search_indexed SET revision_id = '',
			indexed_at = CASE WHEN indexed_at >= ? THEN indexed_at + 1 ELSE ? END
			WHERE space_id = ? AND revision_id = ?`, Micros(q.Now()), Micros(q.Now()), spaceID, from)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(err, errIndexMoved)
		}
		return q.QueryRow(ctx, `SELECT indexed_at FROM search_indexed WHERE space_id = ?`, spaceID).Scan(&claim)
	})
	if errors.Is(err, errIndexMoved) {
		return 0, false, nil
	}
	return claim, err == nil, err
}

// holdClaim checks, in a write transaction, that the batched update claim still holds the
// space's index, and locks its row for the rest of the transaction.
func holdClaim(ctx context.Context, q *Q, spaceID string, claim int64) error {
	res, err := q.Exec(ctx, `UPDATE search_indexed SET revision_id = '' WHERE space_id = ? AND revision_id = '' AND indexed_at = ?`,
		spaceID, claim)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return errors.Join(err, errIndexMoved)
	}
	return nil
}

func (s *Searches) ApplyIndexBatch(ctx context.Context, now time.Time, spaceID string, claim int64, pages []string, rows []search.Row) (bool, error) {
	err := s.DB.Write(ctx, now, func(q *Q) error {
		if err := holdClaim(ctx, q, spaceID, claim); err != nil {
			return err
		}
		sections, words, err := dropPages(ctx, q, spaceID, pages)
		if err != nil {
			return err
		}
		added, err := insertSections(ctx, q, rows)
		if err != nil {
			return err
		}
		_, err = q.Exec(ctx, `UPDATE search_indexed SET sections = sections + ?, word_count = word_count + ? WHERE space_id = ?`,
			sections+int64(len(rows)), words+added, spaceID)
		return err
	})
	if errors.Is(err, errIndexMoved) {
		return false, nil
	}
	return err == nil, err
}

func (s *Searches) FinishIndexBatches(ctx context.Context, now time.Time, spaceID string, claim int64, to string, keep []string) (bool, error) {
	err := s.DB.Write(ctx, now, func(q *Q) error {
		if err := holdClaim(ctx, q, spaceID, claim); err != nil {
			return err
		}
		var sections, words int64
		if keep != nil {
			held, err := column[string](ctx, q, `SELECT DISTINCT page_id FROM search_sections WHERE space_id = ?`, spaceID)
			if err != nil {
				return err
			}
			var stray []string
			for _, id := range held {
				if _, found := slices.BinarySearch(keep, id); !found {
					stray = append(stray, id)
				}
			}
			if sections, words, err = dropPages(ctx, q, spaceID, stray); err != nil {
				return err
			}
		}
		_, err := q.Exec(ctx, `UPDATE search_indexed SET revision_id = ?, indexed_at = ?, sections = sections + ?, word_count = word_count + ?
			WHERE space_id = ?`, to, Micros(q.Now()), sections, words, spaceID)
		return err
	})
	if errors.Is(err, errIndexMoved) {
		return false, nil
	}
	return err == nil, err
}

// dropSearchIndex removes a space's sections and index state, in the transaction that purges it.
func dropSearchIndex(ctx context.Context, q *Q, spaceID string) error {
	if err := deleteSections(ctx, q, spaceID, nil); err != nil {
		return err
	}
	_, err := q.Exec(ctx, `DELETE FROM search_indexed WHERE space_id = ?`, spaceID)
	return err
}

// countSections counts the sections of the given pages of a space, and their words.
func countSections(ctx context.Context, q *Q, spaceID string, pages []string) (n, words int64, err error) {
	if len(pages) == 0 {
		return 0, 0, nil
	}
	list, args := inList(pages)
	err = q.QueryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(word_count), 0) FROM search_sections WHERE space_id = ? AND page_id IN (`+list+`)`,
		append([]any{spaceID}, args...)...).Scan(&n, &words)
	return n, words, err
}

// deleteSections removes the sections of the given pages of a space (of all its pages when
// pages is nil).
func deleteSections(ctx context.Context, q *Q, spaceID string, pages []string) error {
	where, args := `space_id = ?`, []any{spaceID}
	if pages != nil {
		if len(pages) == 0 {
			return nil
		}
		list, pageArgs := inList(pages)
		where += ` AND page_id IN (` + list + `)`
		args = append(args, pageArgs...)
	}
	if q.Engine() == SQLite {
		// Champion list entries, waiting sections and FTS5 rows are deleted by rowid, before
		// the rows that name them. The lists let go of the sections of a few pages in the
		// next batch (see internal/search/champions.go); of a whole space's, at once.
		gone := `DELETE FROM search_champions WHERE section_id IN (SELECT id FROM search_sections WHERE ` + where + `)`
		if pages != nil {
			gone = `INSERT INTO search_champions_gone (section_id) SELECT id FROM search_sections WHERE ` + where +
				` ON CONFLICT (section_id) DO NOTHING`
		}
		if _, err := q.Exec(ctx, gone, args...); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM search_champions_pending WHERE section_id IN (SELECT id FROM search_sections WHERE `+where+`)`, args...); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM search_title_fts WHERE rowid IN (SELECT id FROM search_sections WHERE `+where+`)`, args...); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM search_fts WHERE rowid IN (SELECT id FROM search_sections WHERE `+where+`)`, args...); err != nil {
			return err
		}
	}
	_, err := q.Exec(ctx, `DELETE FROM search_sections WHERE `+where, args...)
	return err
}

// insertSections writes new sections and returns how many words they index.
func insertSections(ctx context.Context, q *Q, rows []search.Row) (int64, error) {
	if q.Engine() == SQLite {
		return insertSectionsSQLite(ctx, q, rows)
	}
	return insertSectionsPostgres(ctx, q, rows)
}

// Terms is the FTS5 index's SQL on SQLite, for the search package to rank with; nil on
// PostgreSQL, which ranks in SQL (RankedSearch).
func (s *Searches) Terms() search.Terms {
	if s.DB.Engine != SQLite {
		return nil
	}
	return sqliteTerms{db: s.DB, q: s.DB.Read()}
}

func (s *Searches) RankedSearch(ctx context.Context, m search.Match) ([]search.Hit, error) {
	return searchPostgres(ctx, s.DB.Read(), m)
}

// sectionsByID reads the stored sections with the given ids.
func sectionsByID(ctx context.Context, q *Q, ids []int64) (map[int64]search.Row, error) {
	out := make(map[int64]search.Row, len(ids))
	for start := 0; start < len(ids); start += 512 {
		part := ids[start:min(start+512, len(ids))]
		strs := make([]string, len(part))
		for i, id := range part {
			strs[i] = strconv.FormatInt(id, 10)
		}
		list, args := inList(strs)
		rows, err := q.Query(ctx, `SELECT id, space_id, page_id, position, section_id, title, body
			FROM search_sections WHERE id IN (`+list+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var id int64
			var r search.Row
			if err := rows.Scan(&id, &r.SpaceID, &r.PageID, &r.Position, &r.SectionID, &r.Title, &r.Body); err != nil {
				rows.Close()
				return nil, err
			}
			out[id] = r
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// valuesList returns "(?, ?, ...), (?, ?, ...)" for rows of width placeholders each.
func valuesList(rows, width int, row string) string {
	if row == "" {
		row = "(" + strings.TrimSuffix(strings.Repeat("?, ", width), ", ") + ")"
	}
	return strings.TrimSuffix(strings.Repeat(row+", ", rows), ", ")
}

func (s *Searches) Sections(ctx context.Context, spaceID string) ([]search.Row, error) {
	rows, err := s.DB.Read().Query(ctx, `SELECT page_id, position, section_id, title, body FROM search_sections WHERE space_id = ?`, spaceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []search.Row
	for rows.Next() {
		r := search.Row{SpaceID: spaceID}
		if err := rows.Scan(&r.PageID, &r.Position, &r.SectionID, &r.Title, &r.Body); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, mapErr(rows.Err())
}
