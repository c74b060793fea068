package store

import (
	"context"
	"strings"

	"docsd/internal/search"
)

// PostgreSQL specifics of the search index: the folded words go through the 'simple'
// configuration (no stemming, no stop words: any language is indexed alike), titles with
// weight A and bodies with weight D.

// tsQuery builds the to_tsquery input of q; with weight "A", only title words match. Tokens
// hold only letters and digits, so nothing the user typed is read as tsquery syntax.
func tsQuery(q search.Query, weight string) string {
	terms := make([]string, 0, len(q.Terms))
	for _, t := range q.Terms {
		words := make([]string, len(t.Words))
		for i, w := range t.Words {
			suffix := weight
			if t.Prefix && i == len(t.Words)-1 {
				suffix = "*" + weight
			}
			if suffix != "" {
				suffix = ":" + suffix
			}
			words[i] = w + suffix
		}
		terms = append(terms, "("+strings.Join(words, " <-> ")+")")
	}
	return strings.Join(terms, " & ")
}

// searchPostgres ranks every match with ts_rank, title matches first, so no relevant
// section is ever left out. PostgreSQL finds the matches through the GIN index; scoring them
// all costs more for a query of words found nearly everywhere than SQLite's bounded candidate
// sets (see search_sqlite.go), which PostgreSQL does not keep.
func searchPostgres(ctx context.Context, q *Q, m search.Match) ([]search.Hit, error) {
	list, args := inList(m.SpaceIDs)
	query := tsQuery(m.Query, "")
	args = append([]any{tsQuery(m.Query, "A"), query}, args...)
	args = append(args, m.Limit)
	rows, err := q.Query(ctx, `SELECT space_id, page_id, position, section_id, title, body,
			words @@ to_tsquery('simple', ?) AS in_title, ts_rank(words, query) AS score
		FROM search_sections, to_tsquery('simple', ?) AS query
		WHERE space_id IN (`+list+`) AND words @@ query
		ORDER BY in_title DESC, score DESC, id DESC LIMIT ?`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []search.Hit
	for rows.Next() {
		var h search.Hit
		if err := rows.Scan(&h.SpaceID, &h.PageID, &h.Position, &h.SectionID, &h.Title, &h.Body, &h.InTitle, &h.Score); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

func insertSectionsPostgres(ctx context.Context, q *Q, rows []search.Row) (int64, error) {
	var words int64
	const batch = 200
	row := "(?, ?, ?, ?, ?, ?, setweight(to_tsvector('simple', ?), 'A') || setweight(to_tsvector('simple', ?), 'D'), ?)"
	for start := 0; start < len(rows); start += batch {
		part := rows[start:min(start+batch, len(rows))]
		args := make([]any, 0, 9*len(part))
		for _, r := range part {
			title, body := search.IndexText(r.Title), search.IndexText(r.Body)
			args = append(args, r.SpaceID, r.PageID, r.Position, r.SectionID, r.Title, r.Body, title, body,
				search.WordCount(title)+search.WordCount(body))
			words += int64(search.WordCount(title) + search.WordCount(body))
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_sections (space_id, page_id, position, section_id, title, body, words, word_count) VALUES `+
			valuesList(len(part), 0, row), args...); err != nil {
			return 0, err
		}
	}
	return words, nil
}
