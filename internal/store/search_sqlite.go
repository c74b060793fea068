package store

import (
	"context"
	"encoding/hex"
	"errors"
	"strings"

	"docsd/internal/search"
)

// FTS5 specifics of the search index.

// scopeToken names a space in search_fts.scope. Hex keeps the id one token whatever its
// characters, and exact: the tokenizer folds case, which would merge base62 ids.
func scopeToken(spaceID string) string { return "s" + hex.EncodeToString([]byte(spaceID)) }

// ftsExpression builds the MATCH expression of m. Every token is quoted (tokens hold only
// letters and digits), so nothing the user typed is read as FTS5 syntax.
func ftsExpression(m search.Match) string {
	var b strings.Builder
	b.WriteString("scope : (")
	for i, id := range m.SpaceIDs {
		if i > 0 {
			b.WriteString(" OR ")
		}
		b.WriteString(`"` + scopeToken(id) + `"`)
	}
	b.WriteString(") AND ")
	if m.TitleOnly {
		b.WriteString("title : (")
	} else {
		b.WriteString("{title body} : (")
	}
	for i, t := range m.Query.Terms {
		if i > 0 {
			b.WriteString(" AND ")
		}
		b.WriteString(`"` + strings.Join(t.Words, " ") + `"`)
		if t.Prefix {
			b.WriteString("*")
		}
	}
	b.WriteString(")")
	return b.String()
}

func nthMatchSQLite(ctx context.Context, q *Q, m search.Match, n int) (int64, bool, error) {
	var id int64
	err := q.QueryRow(ctx, `SELECT rowid FROM search_fts WHERE search_fts MATCH ? ORDER BY rowid DESC LIMIT 1 OFFSET ?`,
		ftsExpression(m), n-1).Scan(&id)
	if errors.Is(err, ErrNotFound) {
		return 0, false, nil
	}
	return id, err == nil, err
}

// searchSQLite ranks with bm25, a title word weighing ten body words; the scope column
// weighs nothing.
func searchSQLite(ctx context.Context, q *Q, m search.Match) ([]search.Hit, error) {
	rows, err := q.Query(ctx, `SELECT s.id, s.space_id, s.page_id, s.position, s.section_id, s.title, s.body, f.score
		FROM (SELECT rowid AS id, bm25(search_fts, 0.0, 10.0, 1.0) AS score FROM search_fts
		      WHERE search_fts MATCH ? AND rowid >= ? ORDER BY score, rowid DESC LIMIT ?) AS f
		JOIN search_sections AS s ON s.id = f.id
		ORDER BY f.score, s.id DESC`, ftsExpression(m), m.Floor, m.Limit)
	if err != nil {
		return nil, err
	}
	return scanHits(rows)
}

type hitRows interface {
	Next() bool
	Scan(dest ...any) error
	Close() error
	Err() error
}

func scanHits(rows hitRows) ([]search.Hit, error) {
	defer rows.Close()
	var out []search.Hit
	for rows.Next() {
		var h search.Hit
		var id int64
		if err := rows.Scan(&id, &h.SpaceID, &h.PageID, &h.Position, &h.SectionID, &h.Title, &h.Body, &h.Score); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// insertSectionsSQLite numbers new sections after the highest existing id (write
// transactions are serialized), so recently indexed sections have the highest rowids, as
// search.candidateWindow expects, and both tables are filled with multi-row inserts.
func insertSectionsSQLite(ctx context.Context, q *Q, rows []search.Row) error {
	if len(rows) == 0 {
		return nil
	}
	var next int64
	if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM search_sections`).Scan(&next); err != nil {
		return err
	}
	const batch = 100
	for start := 0; start < len(rows); start += batch {
		part := rows[start:min(start+batch, len(rows))]
		sections := make([]any, 0, 7*len(part))
		fts := make([]any, 0, 4*len(part))
		for _, r := range part {
			next++
			sections = append(sections, next, r.SpaceID, r.PageID, r.Position, r.SectionID, r.Title, r.Body)
			fts = append(fts, next, scopeToken(r.SpaceID), search.IndexText(r.Title), search.IndexText(r.Body))
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_sections (id, space_id, page_id, position, section_id, title, body) VALUES `+
			valuesList(len(part), 7, ""), sections...); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_fts (rowid, scope, title, body) VALUES `+valuesList(len(part), 4, ""), fts...); err != nil {
			return err
		}
	}
	return nil
}
