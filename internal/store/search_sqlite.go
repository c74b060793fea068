package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"docsd/internal/search"
)

// FTS5 specifics of the search index. FTS5 finds the matches and hands back their folded
// words; search.Scorer ranks them. FTS5's own bm25() would first walk the whole doclist of
// every term of the query (the space's scope token included) to count its rows, which for a
// frequent word costs more than the whole search otherwise does; the same counts come from
// search_vocab with one lookup per term.

// scopeToken names a space in search_fts.scope. Hex keeps the id one token whatever its
// characters, and exact: the tokenizer folds case, which would merge base62 ids.
func scopeToken(spaceID string) string { return "s" + hex.EncodeToString([]byte(spaceID)) }

// ftsExpression builds the MATCH expression of m. Every token is quoted (tokens hold only
// letters and digits), so nothing the user typed is read as FTS5 syntax.
// Without scoped, the expression matches in every space.
func ftsExpression(m search.Match, scoped bool) string {
	return ftsExpressionIn(m, scoped, "title body")
}

// ftsExpressionIn is ftsExpression matching only in the given columns ("" for a table
// without scope and column filter).
func ftsExpressionIn(m search.Match, scoped bool, columns string) string {
	var b strings.Builder
	if scoped {
		b.WriteString("scope : (")
		for i, id := range m.SpaceIDs {
			if i > 0 {
				b.WriteString(" OR ")
			}
			b.WriteString(`"` + scopeToken(id) + `"`)
		}
		b.WriteString(") AND ")
	}
	if columns != "" {
		b.WriteString("{" + columns + "} : ")
	}
	b.WriteString("(")
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

type scored struct {
	id      int64
	inTitle bool
	score   float64
}

func (s *Searches) searchSQLite(ctx context.Context, m search.Match) ([]search.Hit, error) {
	q := s.DB.Read()
	corpus, err := s.stats.corpusOf(ctx, q)
	if err != nil {
		return nil, err
	}
	df := make([]int, len(m.Query.Terms))
	for i, t := range m.Query.Terms {
		if df[i], err = s.docFreq(ctx, q, t); err != nil {
			return nil, err
		}
	}
	scorer := search.NewScorer(m.Query, corpus, df)
	// The scope token makes FTS5 skip other spaces' sections, at the price of walking the
	// scope's own doclist beside the query's. When the spaces searched hold most of the
	// index it filters little, so the sections of other spaces are skipped here instead.
	inScope, err := scopeSections(ctx, q, m.SpaceIDs)
	if err != nil {
		return nil, err
	}
	most := corpus.Sections > 0 && 2*inScope >= int64(corpus.Sections)
	var allowed map[string]bool
	if most {
		allowed = make(map[string]bool, len(m.SpaceIDs))
		for _, id := range m.SpaceIDs {
			allowed[scopeToken(id)] = true
		}
	}
	expr := ftsExpression(m, !most)
	exact := slices.Min(df) <= m.Exact || inScope <= int64(m.Exact) || !most
	if !exact {
		// Common words may still rarely occur together: count the matches (FTS5 reads only
		// doclists for that, not the sections' text), up to the bound.
		var n int
		err := q.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)`,
			expr, m.Exact+1).Scan(&n)
		if err != nil {
			return nil, err
		}
		exact = n <= m.Exact
	}
	var found []scored
	if exact {
		// Every match is ranked: at most Exact of them, or the spaces' size. A search of spaces
		// holding a minority of the index, larger than Exact, with only common words, is the
		// one case where that costs more than Exact sections: the champion lists are global,
		// and could hold too few of those spaces' sections.
		found, err = candidates(ctx, q, expr, allowed, scorer)
	} else {
		found, err = s.championCandidates(ctx, q, m, allowed, scorer)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b scored) int {
		return search.CompareRank(a.inTitle, a.score, a.id, b.inTitle, b.score, b.id)
	})
	found = found[:min(len(found), m.Limit)]
	ids := make([]int64, len(found))
	for i, f := range found {
		ids[i] = f.id
	}
	byID, err := sectionsByID(ctx, q, ids)
	if err != nil {
		return nil, err
	}
	hits := make([]search.Hit, 0, len(found))
	for _, f := range found {
		if r, ok := byID[f.id]; ok {
			hits = append(hits, search.Hit{Row: r, InTitle: f.inTitle, Score: f.score})
		}
	}
	return hits, nil
}

// scopeSections counts the indexed sections of the given spaces.
func scopeSections(ctx context.Context, q *Q, spaceIDs []string) (int64, error) {
	var total int64
	for start := 0; start < len(spaceIDs); start += 512 {
		part := spaceIDs[start:min(start+512, len(spaceIDs))]
		list, args := inList(part) // its padding repeats an id, which IN counts once
		var n int64
		if err := q.QueryRow(ctx, `SELECT COALESCE(SUM(sections), 0) FROM search_indexed WHERE space_id IN (`+list+`)`, args...).Scan(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// candidates scores every section matching expr, of the allowed scopes (all when allowed is
// nil).
func candidates(ctx context.Context, q *Q, expr string, allowed map[string]bool, scorer *search.Scorer) ([]scored, error) {
	rows, err := q.Query(ctx, `SELECT rowid, scope, title, body FROM search_fts WHERE search_fts MATCH ?`, expr)
	if err != nil {
		return nil, err
	}
	return scoreRows(rows, allowed, false, scorer)
}

// scoreRows scores rows of (rowid, scope, title, body), keeping those of the allowed scopes
// and, when verify is set, those holding every term (rows FTS5 did not match itself).
func scoreRows(rows *sql.Rows, allowed map[string]bool, verify bool, scorer *search.Scorer) ([]scored, error) {
	defer rows.Close()
	var found []scored
	for rows.Next() {
		var c scored
		var scope, title, body string
		if err := rows.Scan(&c.id, &scope, &title, &body); err != nil {
			return nil, err
		}
		if allowed != nil && !allowed[scope] {
			continue
		}
		var all bool
		all, c.inTitle, c.score = scorer.Match(title, body)
		if verify && !all {
			continue
		}
		found = append(found, c)
	}
	return found, rows.Err()
}

// maxPrefixTerms bounds the words a prefix's document frequency adds up (an upper bound is
// all ranking needs).
const maxPrefixTerms = 1000

// docFreq returns how many sections hold term t: exactly for a word, at most for a prefix
// (the sum over the words it starts) or a phrase (its rarest word).
func (s *Searches) docFreq(ctx context.Context, q *Q, t search.Term) (int, error) {
	least := -1
	for i, w := range t.Words {
		prefix := t.Prefix && i == len(t.Words)-1
		n, err := s.stats.docFreq(ctx, q, w, prefix)
		if err != nil {
			return 0, err
		}
		if least < 0 || n < least {
			least = n
		}
	}
	return max(least, 0), nil
}

// searchStats caches the figures ranking needs of the whole index. Counting them costs a walk
// of the word's doclist (fts5vocab reads it whole: milliseconds for a word in every section)
// or of the table, while ranking needs them only roughly: they are kept for statsTTL, and
// the corpus figures are refreshed in the background once known.
type searchStats struct {
	mu       sync.Mutex
	corpus   search.Corpus
	corpusAt time.Time
	words    map[string]cachedFreq
}

type cachedFreq struct {
	docs int
	at   time.Time
}

const (
	statsTTL      = time.Minute
	corpusTTL     = time.Second
	maxCachedFreq = 50000
)

func (c *searchStats) docFreq(ctx context.Context, q *Q, w string, prefix bool) (int, error) {
	key := w
	if prefix {
		key += "*"
	}
	c.mu.Lock()
	got, ok := c.words[key]
	c.mu.Unlock()
	if ok && time.Since(got.at) < statsTTL {
		return got.docs, nil
	}
	var n int
	var err error
	if prefix {
		err = q.QueryRow(ctx, `SELECT COALESCE(SUM(doc), 0) FROM (SELECT doc FROM search_vocab
			WHERE term >= ? AND term < ? LIMIT `+strconv.Itoa(maxPrefixTerms)+`)`, w, w+"\U0010FFFF").Scan(&n)
	} else {
		err = q.QueryRow(ctx, `SELECT COALESCE(SUM(doc), 0) FROM search_vocab WHERE term = ?`, w).Scan(&n)
	}
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	if c.words == nil || len(c.words) >= maxCachedFreq {
		c.words = map[string]cachedFreq{}
	}
	c.words[key] = cachedFreq{docs: n, at: time.Now()}
	c.mu.Unlock()
	return n, nil
}

// corpusOf returns the corpus figures, from the per-space sums in search_indexed.
func (c *searchStats) corpusOf(ctx context.Context, q *Q) (search.Corpus, error) {
	c.mu.Lock()
	v, at := c.corpus, c.corpusAt
	c.mu.Unlock()
	if !at.IsZero() && time.Since(at) < corpusTTL {
		return v, nil
	}
	var words int64
	err := q.QueryRow(ctx, `SELECT COALESCE(SUM(sections), 0), COALESCE(SUM(word_count), 0) FROM search_indexed`).Scan(&v.Sections, &words)
	if err != nil {
		return v, err
	}
	v.AvgWords = float64(words) / float64(max(v.Sections, 1))
	c.mu.Lock()
	c.corpus, c.corpusAt = v, time.Now()
	c.mu.Unlock()
	return v, nil
}

// insertSectionsSQLite numbers new sections after the highest existing id (write
// transactions are serialized), fills both tables with multi-row inserts, and records the new
// sections for the champion lists.
func insertSectionsSQLite(ctx context.Context, q *Q, rows []search.Row) (int64, error) {
	var words int64
	if len(rows) == 0 {
		return words, nil
	}
	var next int64
	if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM search_sections`).Scan(&next); err != nil {
		return 0, err
	}
	avg, err := averageWords(ctx, q)
	if err != nil {
		return 0, err
	}
	weights := map[string][]champion{}
	ids := make([]int64, 0, len(rows))
	const batch = 100
	for start := 0; start < len(rows); start += batch {
		part := rows[start:min(start+batch, len(rows))]
		sections := make([]any, 0, 8*len(part))
		fts := make([]any, 0, 4*len(part))
		for _, r := range part {
			next++
			ids = append(ids, next)
			title, body := search.IndexText(r.Title), search.IndexText(r.Body)
			sections = append(sections, next, r.SpaceID, r.PageID, r.Position, r.SectionID, r.Title, r.Body,
				search.WordCount(title)+search.WordCount(body))
			words += int64(search.WordCount(title) + search.WordCount(body))
			fts = append(fts, next, scopeToken(r.SpaceID), title, body)
			for w, weight := range search.TermWeights(title, body, avg) {
				weights[w] = append(weights[w], champion{section: next, weight: weight})
			}
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_sections (id, space_id, page_id, position, section_id, title, body, word_count) VALUES `+
			valuesList(len(part), 8, ""), sections...); err != nil {
			return 0, err
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_fts (rowid, scope, title, body) VALUES `+valuesList(len(part), 4, ""), fts...); err != nil {
			return 0, err
		}
		titles := make([]any, 0, 2*len(part))
		for i := 0; i < len(fts); i += 4 {
			titles = append(titles, fts[i], fts[i+2])
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_title_fts (rowid, title) VALUES `+valuesList(len(part), 2, ""), titles...); err != nil {
			return 0, err
		}
	}
	return words, pendChampions(ctx, q, ids, weights)
}
