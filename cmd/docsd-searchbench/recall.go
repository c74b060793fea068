package main

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"

	"docsd/internal/search"
)

// recallAt is how many first results recall compares.
const recallAt = 20

// exactRanking ranks every section of the space that matches query the slow way, outside the
// timed part: all of them are read and scored with docsd's own ranking (search.Scorer: title
// matches first, then BM25 with the same corpus figures), so what recall measures is what
// the candidate set loses, not a difference of scoring formula. It returns the first n pages
// in the order of their best section, as the API groups them.
func exactRanking(ctx context.Context, raw *sql.DB, spaceID, query string, n int) ([]string, error) {
	q, err := search.Parse(query)
	if err != nil {
		return nil, err
	}
	var corpus search.Corpus
	var words int64
	if err := raw.QueryRowContext(ctx, `SELECT COALESCE(SUM(sections), 0), COALESCE(SUM(word_count), 0) FROM search_indexed`).
		Scan(&corpus.Sections, &words); err != nil {
		return nil, err
	}
	corpus.AvgWords = float64(words) / float64(max(corpus.Sections, 1))
	df := make([]int, len(q.Terms))
	quoted := make([]string, len(q.Terms))
	for i, t := range q.Terms {
		if len(t.Words) != 1 || t.Prefix {
			return nil, fmt.Errorf("query %q: the benchmark ranks plain words only", query)
		}
		if err := raw.QueryRowContext(ctx, `SELECT COALESCE(SUM(doc), 0) FROM search_vocab WHERE term = ?`, t.Words[0]).Scan(&df[i]); err != nil {
			return nil, err
		}
		quoted[i] = `"` + t.Words[0] + `"`
	}
	scorer := search.NewScorer(q, corpus, df)
	rows, err := raw.QueryContext(ctx, `SELECT f.rowid, s.space_id, s.page_id, f.title, f.body
		FROM search_fts f JOIN search_sections s ON s.id = f.rowid WHERE search_fts MATCH ?`,
		`{title body} : (`+strings.Join(quoted, " AND ")+`)`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type hit struct {
		id      int64
		page    string
		inTitle bool
		score   float64
	}
	var all []hit
	for rows.Next() {
		var h hit
		var space, title, body string
		if err := rows.Scan(&h.id, &space, &h.page, &title, &body); err != nil {
			return nil, err
		}
		if space == spaceID {
			h.inTitle, h.score = scorer.Score(title, body)
			all = append(all, h)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(all, func(a, b hit) int {
		return search.CompareRank(a.inTitle, a.score, a.id, b.inTitle, b.score, b.id)
	})
	var pages []string
	seen := map[string]bool{}
	for _, h := range all {
		if len(pages) == n {
			break
		}
		if !seen[h.page] {
			seen[h.page] = true
			pages = append(pages, h.page)
		}
	}
	return pages, nil
}

// recall is the share of the exact first pages that docsd's first pages hold (1 when there
// are none to find).
func recall(ours, exact []string) float64 {
	if len(exact) == 0 {
		return 1
	}
	found := 0
	for _, p := range exact {
		if slices.Contains(ours, p) {
			found++
		}
	}
	return float64(found) / float64(len(exact))
}
