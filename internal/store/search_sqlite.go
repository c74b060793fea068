package store

import (
	"context"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"time"

	"docsd/internal/search"
)

// FTS5 specifics of the search index. FTS5 finds the matches and hands back their folded
// words; the search package ranks them (search.Terms is what it needs of this file).

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

// sqliteTerms is the FTS5 index's SQL, as the search package ranks with it (search.Terms).
// q is the connection it reads and writes through: the read pool, or a write transaction
// inside WriteTerms.
type sqliteTerms struct {
	db *DB
	q  *Q
}

func (t sqliteTerms) Corpus(ctx context.Context) (sections, words int64, err error) {
	err = t.q.QueryRow(ctx, `SELECT COALESCE(SUM(sections), 0), COALESCE(SUM(word_count), 0) FROM search_indexed`).Scan(&sections, &words)
	return sections, words, err
}

func (t sqliteTerms) WordDocs(ctx context.Context, w string, prefix bool, limit int) (n int, err error) {
	if prefix {
		err = t.q.QueryRow(ctx, `SELECT COALESCE(SUM(doc), 0) FROM (SELECT doc FROM search_vocab
			WHERE term >= ? AND term < ? LIMIT `+strconv.Itoa(limit)+`)`, w, w+"\U0010FFFF").Scan(&n)
	} else {
		err = t.q.QueryRow(ctx, `SELECT COALESCE(SUM(doc), 0) FROM search_vocab WHERE term = ?`, w).Scan(&n)
	}
	return n, err
}

func (t sqliteTerms) WordsDocs(ctx context.Context, atLeast int, each func(string, int)) error {
	rows, err := t.q.Query(ctx, `SELECT term, doc FROM search_vocab WHERE doc >= ?`, atLeast)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var w string
		var n int
		if err := rows.Scan(&w, &n); err != nil {
			return err
		}
		each(w, n)
	}
	return rows.Err()
}

func (t sqliteTerms) FrequentWords(ctx context.Context, prefix string, scan, top int) ([]string, error) {
	return column[string](ctx, t.q, `SELECT term FROM (SELECT term, doc FROM search_vocab WHERE term >= ? AND term < ? LIMIT `+
		strconv.Itoa(scan)+`) ORDER BY doc DESC LIMIT `+strconv.Itoa(top), prefix, prefix+"\U0010FFFF")
}

func (t sqliteTerms) ScopeSections(ctx context.Context, spaceIDs []string) (int64, error) {
	var total int64
	for start := 0; start < len(spaceIDs); start += 512 {
		part := spaceIDs[start:min(start+512, len(spaceIDs))]
		list, args := inList(part) // its padding repeats an id, which IN counts once
		var n int64
		if err := t.q.QueryRow(ctx, `SELECT COALESCE(SUM(sections), 0) FROM search_indexed WHERE space_id IN (`+list+`)`, args...).Scan(&n); err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

func (t sqliteTerms) CountMatches(ctx context.Context, m search.Match, scoped bool, limit int) (n int, err error) {
	// FTS5 reads only doclists for this, not the sections' text.
	err = t.q.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT rowid FROM search_fts WHERE search_fts MATCH ? LIMIT ?)`,
		ftsExpression(m, scoped), limit).Scan(&n)
	return n, err
}

func (t sqliteTerms) Matches(ctx context.Context, m search.Match, scoped bool, each func(search.Text) error) error {
	return t.texts(ctx, each, `SELECT rowid, scope, title, body FROM search_fts WHERE search_fts MATCH ?`, ftsExpression(m, scoped))
}

func (t sqliteTerms) TitleMatches(ctx context.Context, m search.Match) ([]int64, error) {
	return sectionIDs(ctx, t.q, `SELECT rowid FROM search_title_fts WHERE search_title_fts MATCH ?`, ftsExpressionIn(m, false, ""))
}

// Texts and AllTexts read FTS5's own copy of the rows, its content table (search_fts_content,
// columns c0 to c2 in the order search_fts declares them), by rowid: through the virtual
// table, each id of an IN list was a query of its own (xFilter, then a lookup of the same
// row by FTS5's statement), which cost twice the read itself.

func (t sqliteTerms) Texts(ctx context.Context, ids []int64, each func(search.Text) error) error {
	for start := 0; start < len(ids); start += 500 {
		list, args := inList(idStrings(ids[start:min(start+500, len(ids))]))
		if err := t.texts(ctx, each, `SELECT id, c0, c1, c2 FROM search_fts_content WHERE id IN (`+list+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}

func (t sqliteTerms) AllTexts(ctx context.Context, each func(search.Text) error) error {
	return t.texts(ctx, each, `SELECT id, c0, c1, c2 FROM search_fts_content`)
}

// texts calls each with the rows of query, as (rowid, scope, title, body).
func (t sqliteTerms) texts(ctx context.Context, each func(search.Text) error, query string, args ...any) error {
	rows, err := t.q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var x search.Text
		var scope string
		if err := rows.Scan(&x.ID, &scope, &x.Title, &x.Body); err != nil {
			return err
		}
		x.SpaceID = spaceOfScope(scope)
		if err := each(x); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (t sqliteTerms) Rows(ctx context.Context, ids []int64) (map[int64]search.Row, error) {
	return sectionsByID(ctx, t.q, ids)
}

func (t sqliteTerms) ChampionList(ctx context.Context, w string) ([]search.Champion, error) {
	return scanRows(ctx, t.q, func(scan func(...any) error) (search.Champion, error) {
		var c search.Champion
		err := scan(&c.Section, &c.Weight)
		return c, err
	}, `SELECT section_id, weight FROM search_champions WHERE term = ?`, w)
}

func (t sqliteTerms) ListVersion(ctx context.Context, w string) (int64, error) {
	var v int64
	err := t.q.QueryRow(ctx, `SELECT version FROM search_champion_sizes WHERE term = ?`, w).Scan(&v) // kept by triggers (migration 00303)
	if errors.Is(err, ErrNotFound) {
		return 0, nil
	}
	return v, err
}

func (t sqliteTerms) ListSizes(ctx context.Context) (map[string]int, error) {
	rows, err := t.q.Query(ctx, `SELECT term, size FROM search_champion_sizes WHERE size > 0`) // kept by triggers (migration 00062)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	sizes := map[string]int{}
	for rows.Next() {
		var term string
		var n int
		if err := rows.Scan(&term, &n); err != nil {
			return nil, err
		}
		sizes[term] = n
	}
	return sizes, rows.Err()
}

func (t sqliteTerms) Listed(ctx context.Context, ids []int64) (map[search.ListEntry]bool, error) {
	out := map[search.ListEntry]bool{}
	for start := 0; start < len(ids); start += 500 {
		list, args := inList(idStrings(ids[start:min(start+500, len(ids))]))
		rows, err := t.q.Query(ctx, `SELECT term, section_id FROM search_champions WHERE section_id IN (`+list+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k search.ListEntry
			if err := rows.Scan(&k.Word, &k.Section); err != nil {
				rows.Close()
				return nil, err
			}
			out[k] = true
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (t sqliteTerms) Lightest(ctx context.Context, w string, n int) ([]search.Champion, error) {
	return scanRows(ctx, t.q, func(scan func(...any) error) (search.Champion, error) {
		var c search.Champion
		err := scan(&c.Section, &c.Weight)
		return c, err
	}, `SELECT section_id, weight FROM search_champions WHERE term = ? ORDER BY weight, section_id LIMIT ?`, w, n)
}

func (t sqliteTerms) UnlistedWords(ctx context.Context, common int) ([]string, error) {
	return column[string](ctx, t.q, `SELECT term FROM search_vocab WHERE doc > ?
		EXCEPT SELECT DISTINCT term FROM search_champions`, common)
}

func (t sqliteTerms) Waiting(ctx context.Context) ([]int64, int, error) {
	added, err := sectionIDs(ctx, t.q, `SELECT section_id FROM search_champions_pending`)
	if err != nil {
		return nil, 0, err
	}
	var deleted int
	err = t.q.QueryRow(ctx, `SELECT COUNT(*) FROM search_champions_gone`).Scan(&deleted)
	return added, deleted, err
}

func (t sqliteTerms) WriteTerms(ctx context.Context, fn func(search.Terms) error) error {
	return t.db.Write(ctx, time.Now(), func(q *Q) error { return fn(sqliteTerms{db: t.db, q: q}) })
}

func (t sqliteTerms) ReplaceList(ctx context.Context, w string, list []search.Champion) error {
	if _, err := t.q.Exec(ctx, `DELETE FROM search_champions WHERE term = ?`, w); err != nil {
		return err
	}
	return t.AddToLists(ctx, map[string][]search.Champion{w: list})
}

func (t sqliteTerms) AddToLists(ctx context.Context, lists map[string][]search.Champion) error {
	var args []any
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		_, err := t.q.Exec(ctx, `INSERT INTO search_champions (term, section_id, weight) VALUES `+valuesList(len(args)/3, 3, ""), args...)
		args = args[:0]
		return err
	}
	for term, list := range lists {
		for _, c := range list {
			args = append(args, term, c.Section, c.Weight)
			if len(args) >= 900 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

func (t sqliteTerms) DropFromLists(ctx context.Context, entries []search.ListEntry) error {
	for start := 0; start < len(entries); start += 250 {
		part := entries[start:min(start+250, len(entries))]
		args := make([]any, 0, 2*len(part))
		for _, e := range part {
			args = append(args, e.Word, e.Section)
		}
		if _, err := t.q.Exec(ctx, `DELETE FROM search_champions WHERE (term, section_id) IN (VALUES `+
			valuesList(len(part), 2, "")+`)`, args...); err != nil {
			return err
		}
	}
	return nil
}

func (t sqliteTerms) SettleWaiting(ctx context.Context) error {
	for _, stmt := range []string{
		`DELETE FROM search_champions WHERE section_id IN (SELECT section_id FROM search_champions_gone)`,
		`DELETE FROM search_champions_gone`,
		`DELETE FROM search_champions_pending`,
	} {
		if _, err := t.q.Exec(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}

// spaceOfScope is the space id that scopeToken encoded.
func spaceOfScope(scope string) string {
	b, err := hex.DecodeString(strings.TrimPrefix(scope, "s"))
	if err != nil {
		return ""
	}
	return string(b)
}

func idStrings(ids []int64) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = strconv.FormatInt(id, 10)
	}
	return out
}

func sectionIDs(ctx context.Context, q *Q, query string, args ...any) ([]int64, error) {
	return column[int64](ctx, q, query, args...)
}

// insertSectionsSQLite numbers new sections after the highest existing id (write
// transactions are serialized), fills both tables with multi-row inserts, and records the new
// sections as waiting for the champion lists (search.Terms.Waiting).
func insertSectionsSQLite(ctx context.Context, q *Q, rows []search.Row) (int64, error) {
	var words int64
	if len(rows) == 0 {
		return words, nil
	}
	var next int64
	if err := q.QueryRow(ctx, `SELECT COALESCE(MAX(id), 0) FROM search_sections`).Scan(&next); err != nil {
		return 0, err
	}
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
	// The new sections wait for the search package's next champion-list batch.
	for start := 0; start < len(ids); start += 500 {
		part := ids[start:min(start+500, len(ids))]
		args := make([]any, len(part))
		for i, id := range part {
			args[i] = id
		}
		if _, err := q.Exec(ctx, `INSERT INTO search_champions_pending (section_id) VALUES `+valuesList(len(args), 1, ""), args...); err != nil {
			return 0, err
		}
	}
	return words, nil
}
