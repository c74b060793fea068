package store

import (
	"container/heap"
	"context"
	"slices"
	"strconv"
	"time"

	"docsd/internal/search"
)

// Champion lists (SQLite; see migration 00061 and Manning, Raghavan & Schütze, "Introduction
// to Information Retrieval", §7.1.3 "Champion lists"): for a word found in very many
// sections, the championSize sections where it weighs most by its BM25 term-frequency
// factor. A query made only of such words ranks the union of its words' lists and all its
// title matches: a section in none of the lists holds each of the query's words less than
// championSize other sections do, so it rarely belongs in the first results of a query that
// has at most a few words, and the benchmark measures how rarely (recall@20).
//
// A list is built the first time a query needs it (one pass over the word's matches, once
// for all server processes), then kept by the index updates, in batches: adding or removing
// one section at a time wrote to the lists of a hundred words, each on pages of their own, in
// every one-page update, so that its cost grew with the index. New sections join the lists of
// their words where they weigh more than the list's last; until more than championBatch of
// them have gathered they wait in search_champions_pending, and every common-word query
// ranks them beside the lists, so a section is a candidate from the moment it is indexed.
// Deleted sections are noted in search_champions_gone and leave the lists in the same
// batches; until then a query finds no section under their entries (or, its id reused, a
// section that it scores like any other candidate). The outbox consumer makes the batches
// (MaintainRanking).
// A list that deletions have shrunk below three quarters of its size is built again. Weights
// are computed with the index's average section length at the time, which drifts slowly:
// lists order sections closely enough to choose candidates, which are then scored exactly.
var championSize = 1000 // a variable so that tests can make lists short

// championBatch is how many new (or deleted) sections may wait outside the champion lists:
// each common-word query scores them all, and each batch rewrites the lists' pages once. A
// variable so that tests can make batches small.
var championBatch = 64

// prefixChampionWords is how many of the most frequent words a common prefix term draws
// champion lists from.
const prefixChampionWords = 4

type champion struct {
	section int64
	weight  float64
}

// championCandidates scores a query whose every word is common: its title matches, all of
// them, and its words' champion lists. The spaces searched hold most of the index (allowed
// names them), so the global lists hold enough of their sections.
func (s *Searches) championCandidates(ctx context.Context, q *Q, m search.Match, allowed map[string]bool, scorer *search.Scorer) ([]scored, error) {
	titled, err := sectionIDs(ctx, q, `SELECT rowid FROM search_title_fts WHERE search_title_fts MATCH ?`, ftsExpressionIn(m, false, ""))
	if err != nil {
		return nil, err
	}
	seen := make(map[int64]bool, len(titled))
	var ids []string
	for _, id := range titled {
		seen[id] = true
		ids = append(ids, strconv.FormatInt(id, 10))
	}
	// The sections not in the lists yet.
	pending, err := sectionIDs(ctx, q, `SELECT section_id FROM search_champions_pending`)
	if err != nil {
		return nil, err
	}
	for _, id := range pending {
		if !seen[id] {
			seen[id] = true
			ids = append(ids, strconv.FormatInt(id, 10))
		}
	}
	words, err := s.championWords(ctx, q, m.Query)
	if err != nil {
		return nil, err
	}
	for _, w := range words {
		list, err := s.championList(ctx, q, w)
		if err != nil {
			return nil, err
		}
		for _, id := range list {
			if !seen[id] {
				seen[id] = true
				ids = append(ids, strconv.FormatInt(id, 10))
			}
		}
	}
	var found []scored
	for start := 0; start < len(ids); start += 500 {
		list, args := inList(ids[start:min(start+500, len(ids))])
		rows, err := q.Query(ctx, `SELECT rowid, scope, title, body FROM search_fts WHERE rowid IN (`+list+`)`, args...)
		if err != nil {
			return nil, err
		}
		more, err := scoreRows(rows, allowed, true, scorer)
		if err != nil {
			return nil, err
		}
		found = append(found, more...)
	}
	return found, nil
}

// championWords returns the words whose lists a query draws from: every word of its terms,
// and for a prefix the prefixChampionWords most frequent words it starts.
func (s *Searches) championWords(ctx context.Context, q *Q, query search.Query) ([]string, error) {
	var out []string
	for _, t := range query.Terms {
		last := len(t.Words) - 1
		out = append(out, t.Words[:last]...)
		if !t.Prefix {
			out = append(out, t.Words[last])
			continue
		}
		w := t.Words[last]
		rows, err := q.Query(ctx, `SELECT term FROM (SELECT term, doc FROM search_vocab WHERE term >= ? AND term < ? LIMIT `+
			strconv.Itoa(maxPrefixTerms)+`) ORDER BY doc DESC LIMIT `+strconv.Itoa(prefixChampionWords), w, w+"\U0010FFFF")
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var term string
			if err := rows.Scan(&term); err != nil {
				rows.Close()
				return nil, err
			}
			out = append(out, term)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// championList returns the sections of word w's champion list, building the list when it is
// missing or has shrunk.
func (s *Searches) championList(ctx context.Context, q *Q, w string) ([]int64, error) {
	ids, err := sectionIDs(ctx, q, `SELECT section_id FROM search_champions WHERE term = ?`, w)
	if err != nil {
		return nil, err
	}
	df, err := s.stats.docFreq(ctx, q, w, false)
	if err != nil {
		return nil, err
	}
	if 4*len(ids) >= 3*min(df, championSize) {
		return ids, nil
	}
	err = s.DB.Write(ctx, time.Now(), func(q *Q) error { return buildChampions(ctx, q, w) })
	if err != nil {
		return nil, err
	}
	return sectionIDs(ctx, s.DB.Read(), `SELECT section_id FROM search_champions WHERE term = ?`, w)
}

// buildChampions (re)builds word w's champion list from all the sections holding it.
func buildChampions(ctx context.Context, q *Q, w string) error {
	avg, err := averageWords(ctx, q)
	if err != nil {
		return err
	}
	rows, err := q.Query(ctx, `SELECT rowid, title, body FROM search_fts WHERE search_fts MATCH ?`, `{title body} : "`+w+`"`)
	if err != nil {
		return err
	}
	var all []champion
	for rows.Next() {
		var c champion
		var title, body string
		if err := rows.Scan(&c.section, &title, &body); err != nil {
			rows.Close()
			return err
		}
		c.weight = search.WordWeight(title, body, w, avg)
		all = append(all, c)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	slices.SortFunc(all, func(a, b champion) int {
		if a.weight != b.weight {
			if a.weight > b.weight {
				return -1
			}
			return 1
		}
		return int(a.section - b.section)
	})
	all = all[:min(len(all), championSize)]
	if _, err := q.Exec(ctx, `DELETE FROM search_champions WHERE term = ?`, w); err != nil {
		return err
	}
	return insertChampions(ctx, q, map[string][]champion{w: all})
}

// championBulk is the size of an update whose new sections join the champion lists at once,
// with the weights it has in hand, rather than wait: an import, indexed by the outbox consumer.
const championBulk = 1000

// pendChampions records new sections for the champion lists: they wait in
// search_champions_pending until MaintainRanking adds them in a batch, unless they are
// many. weights holds the new sections' weights, by word.
func pendChampions(ctx context.Context, q *Q, ids []int64, weights map[string][]champion) error {
	if len(ids) >= championBulk {
		return addChampions(ctx, q, weights)
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	_, err := q.Exec(ctx, `INSERT INTO search_champions_pending (section_id) VALUES `+valuesList(len(args), 1, ""), args...)
	return err
}

// MaintainRanking brings the champion lists up to date with the sections added and deleted
// since, once more than championBatch of either have gathered. The outbox consumer runs it after
// each index update, so that no request waits for a batch. PostgreSQL keeps no lists.
func (s *Searches) MaintainRanking(ctx context.Context) error {
	if s.DB.Engine != SQLite {
		return nil
	}
	var waiting, gone int
	if err := s.DB.Read().QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM search_champions_pending),
		(SELECT COUNT(*) FROM search_champions_gone)`).Scan(&waiting, &gone); err != nil || max(waiting, gone) <= championBatch {
		return err
	}
	return s.DB.Write(ctx, time.Now(), func(q *Q) error {
		// The deleted first: a new section may have taken a deleted one's id.
		if _, err := q.Exec(ctx, `DELETE FROM search_champions WHERE section_id IN (SELECT section_id FROM search_champions_gone)`); err != nil {
			return err
		}
		if _, err := q.Exec(ctx, `DELETE FROM search_champions_gone`); err != nil {
			return err
		}
		waiters, err := sectionIDs(ctx, q, `SELECT section_id FROM search_champions_pending`)
		if err != nil {
			return err
		}
		avg, err := averageWords(ctx, q)
		if err != nil {
			return err
		}
		// Their weights, from their words as indexed (looked up by rowid: joined to the
		// pending table, the planner may walk the whole FTS5 table instead).
		weights := map[string][]champion{}
		strs := make([]string, len(waiters))
		for i, id := range waiters {
			strs[i] = strconv.FormatInt(id, 10)
		}
		for start := 0; start < len(strs); start += 500 {
			list, args := inList(strs[start:min(start+500, len(strs))])
			if err := sectionWeights(ctx, q, `SELECT rowid, title, body FROM search_fts WHERE rowid IN (`+list+`)`, args, avg, weights); err != nil {
				return err
			}
		}
		if _, err := q.Exec(ctx, `DELETE FROM search_champions_pending`); err != nil {
			return err
		}
		return addChampions(ctx, q, weights)
	})
}

// sectionWeights adds to weights the term weights of the sections query returns, as (rowid,
// title, body).
func sectionWeights(ctx context.Context, q *Q, query string, args []any, avg float64, weights map[string][]champion) error {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var title, body string
		if err := rows.Scan(&id, &title, &body); err != nil {
			return err
		}
		for w, weight := range search.TermWeights(title, body, avg) {
			weights[w] = append(weights[w], champion{section: id, weight: weight})
		}
	}
	return rows.Err()
}

// addChampions adds new sections to the existing champion lists of their words: weights
// holds, for each word, the new sections' weights. Each list keeps the championSize heaviest
// of its sections and the new ones, and only what changes is written: a new section that
// would leave at once is not inserted, and of the list's own sections only the lightest,
// read by the (term, weight) index, can leave.
func addChampions(ctx context.Context, q *Q, weights map[string][]champion) error {
	terms := make([]string, 0, len(weights))
	for w := range weights {
		terms = append(terms, w)
	}
	slices.Sort(terms)
	sizes := map[string]int{} // the existing lists' lengths (kept by triggers)
	for start := 0; start < len(terms); start += 500 {
		list, args := inList(terms[start:min(start+500, len(terms))])
		rows, err := q.Query(ctx, `SELECT term, size FROM search_champion_sizes WHERE term IN (`+list+`) AND size > 0`, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var term string
			var n int
			if err := rows.Scan(&term, &n); err != nil {
				rows.Close()
				return err
			}
			sizes[term] = n
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
	}
	if len(sizes) == 0 {
		return nil
	}
	// A list built on first use while the sections waited holds them already.
	listed, err := listedAmong(ctx, q, weights)
	if err != nil {
		return err
	}
	add := map[string][]champion{}
	var drop []any // term, section_id pairs
	for _, term := range terms {
		n, ok := sizes[term]
		if !ok {
			continue
		}
		var cands []champion
		for _, c := range weights[term] {
			if !listed[listedKey{term, c.section}] {
				cands = append(cands, c)
			}
		}
		evict := n + len(cands) - championSize
		if evict <= 0 {
			add[term] = cands
			continue
		}
		lightest, err := championRows(ctx, q, `SELECT section_id, weight FROM search_champions WHERE term = ?
			ORDER BY weight, section_id LIMIT ?`, term, min(evict, n))
		if err != nil {
			return err
		}
		type entry struct {
			champion
			listed bool
		}
		pool := make([]entry, 0, len(lightest)+len(cands))
		for _, c := range lightest {
			pool = append(pool, entry{c, true})
		}
		for _, c := range cands {
			pool = append(pool, entry{c, false})
		}
		slices.SortFunc(pool, func(a, b entry) int {
			if a.weight != b.weight {
				if a.weight < b.weight {
					return -1
				}
				return 1
			}
			return int(a.section - b.section)
		})
		for i, e := range pool {
			switch {
			case i < evict && e.listed:
				drop = append(drop, term, e.section)
			case i >= evict && !e.listed:
				add[term] = append(add[term], e.champion)
			}
		}
	}
	for start := 0; start < len(drop); start += 500 {
		part := drop[start:min(start+500, len(drop))]
		if _, err := q.Exec(ctx, `DELETE FROM search_champions WHERE (term, section_id) IN (VALUES `+
			valuesList(len(part)/2, 2, "")+`)`, part...); err != nil {
			return err
		}
	}
	return insertChampions(ctx, q, add)
}

type listedKey struct {
	term    string
	section int64
}

// listedAmong returns which of the sections in weights some list holds already.
func listedAmong(ctx context.Context, q *Q, weights map[string][]champion) (map[listedKey]bool, error) {
	seen := map[int64]bool{}
	var ids []string
	for _, list := range weights {
		for _, c := range list {
			if !seen[c.section] {
				seen[c.section] = true
				ids = append(ids, strconv.FormatInt(c.section, 10))
			}
		}
	}
	out := map[listedKey]bool{}
	for start := 0; start < len(ids); start += 500 {
		list, args := inList(ids[start:min(start+500, len(ids))])
		rows, err := q.Query(ctx, `SELECT term, section_id FROM search_champions WHERE section_id IN (`+list+`)`, args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var k listedKey
			if err := rows.Scan(&k.term, &k.section); err != nil {
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

// championRows reads (section_id, weight) rows.
func championRows(ctx context.Context, q *Q, query string, args ...any) ([]champion, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []champion
	for rows.Next() {
		var c champion
		if err := rows.Scan(&c.section, &c.weight); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

func insertChampions(ctx context.Context, q *Q, lists map[string][]champion) error {
	var args []any
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		_, err := q.Exec(ctx, `INSERT INTO search_champions (term, section_id, weight) VALUES `+valuesList(len(args)/3, 3, ""), args...)
		args = args[:0]
		return err
	}
	for term, list := range lists {
		for _, c := range list {
			args = append(args, term, c.section, c.weight)
			if len(args) >= 900 {
				if err := flush(); err != nil {
					return err
				}
			}
		}
	}
	return flush()
}

// averageWords returns the index's average words per section.
func averageWords(ctx context.Context, q *Q) (float64, error) {
	var sections, words int64
	err := q.QueryRow(ctx, `SELECT COALESCE(SUM(sections), 0), COALESCE(SUM(word_count), 0) FROM search_indexed`).Scan(&sections, &words)
	return float64(words) / float64(max(sections, 1)), err
}

func sectionIDs(ctx context.Context, q *Q, query string, args ...any) ([]int64, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// PrepareRanking builds, in one pass over the index, the champion lists missing for words
// found in more than common sections. A large index update (an import) may make many words
// common at once, and building their lists one by one when queries first need them would
// cost those queries a pass over each word's matches; it runs after such updates, in the
// outbox consumer. PostgreSQL keeps no lists.
func (s *Searches) PrepareRanking(ctx context.Context, common int) error {
	if s.DB.Engine != SQLite {
		return nil
	}
	return s.DB.Write(ctx, time.Now(), func(q *Q) error {
		rows, err := q.Query(ctx, `SELECT term FROM search_vocab WHERE doc > ?
			EXCEPT SELECT DISTINCT term FROM search_champions`, common)
		if err != nil {
			return err
		}
		lists := map[string]*championHeap{}
		for rows.Next() {
			var term string
			if err := rows.Scan(&term); err != nil {
				rows.Close()
				return err
			}
			lists[term] = &championHeap{}
		}
		rows.Close()
		if err := rows.Err(); err != nil || len(lists) == 0 {
			return err
		}
		avg, err := averageWords(ctx, q)
		if err != nil {
			return err
		}
		rows, err = q.Query(ctx, `SELECT rowid, title, body FROM search_fts`)
		if err != nil {
			return err
		}
		for rows.Next() {
			var id int64
			var title, body string
			if err := rows.Scan(&id, &title, &body); err != nil {
				rows.Close()
				return err
			}
			for w, weight := range search.TermWeights(title, body, avg) {
				if h := lists[w]; h != nil {
					h.offer(champion{section: id, weight: weight})
				}
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		out := make(map[string][]champion, len(lists))
		for w, h := range lists {
			out[w] = *h
		}
		return insertChampions(ctx, q, out)
	})
}

// championHeap keeps the championSize heaviest sections offered, lightest first (a min-heap).
type championHeap []champion

func (h *championHeap) offer(c champion) {
	if len(*h) < championSize {
		heap.Push(h, c)
	} else if c.weight > (*h)[0].weight {
		(*h)[0] = c
		heap.Fix(h, 0)
	}
}

func (h championHeap) Len() int           { return len(h) }
func (h championHeap) Less(i, j int) bool { return h[i].weight < h[j].weight }
func (h championHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *championHeap) Push(x any)        { *h = append(*h, x.(champion)) }
func (h *championHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
