package search

import (
	"cmp"
	"container/heap"
	"context"
	"slices"
	"sync"
)

// Champion lists (see Manning, Raghavan & Schütze, "Introduction to Information Retrieval",
// §7.1.3 "Champion lists"), on an index that hands back its matches' words (Terms): for a
// word found in very many sections, the championSize sections where it weighs most by its
// BM25 term-frequency factor. A query made only of such words ranks the union of its words'
// lists and all its title matches: a section in none of the lists holds each of the query's
// words less than championSize other sections do, so it rarely belongs in the first results
// of a query that has at most a few words, and the benchmark measures how rarely (recall@20).
//
// A list is built the first time a query needs it (one pass over the word's matches, once
// for all server processes), then kept by the index updates, in batches: adding or removing
// one section at a time wrote to the lists of a hundred words, each on pages of their own, in
// every one-page update, so that its cost grew with the index. New sections wait (Terms.
// Waiting) until more than championBatch of them have gathered, and every common-word query
// ranks them beside the lists, so a section is a candidate from the moment it is indexed; they
// join the lists of their words where they weigh more than the list's last. Deleted sections
// leave the lists in the same batches; until then a query finds no section under their
// entries (or, its id reused, a section that it scores like any other candidate). The outbox
// consumer makes the batches (maintain).
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

// championCandidates scores a query whose every word is common: its title matches, all of
// them, the sections waiting to join the lists, and its words' champion lists. The spaces
// searched hold most of the index (allowed names them), so the global lists hold enough of
// their sections. Title matches rank before every other section, so when at least m.Limit of
// them are found the other candidates are not read.
func (r *ranker) championCandidates(ctx context.Context, m Match, allowed map[string]bool, scorer *Scorer) ([]scored, error) {
	titled, err := r.terms.TitleMatches(ctx, m)
	if err != nil {
		return nil, err
	}
	slices.Sort(titled)
	titled = slices.Compact(titled)
	var found []scored
	if err := r.terms.Texts(ctx, titled, collect(&found, allowed, true, scorer)); err != nil {
		return nil, err
	}
	if len(found) >= m.Limit {
		return found, nil
	}
	waiting, _, err := r.terms.Waiting(ctx)
	if err != nil {
		return nil, err
	}
	words, err := r.championWords(ctx, m.Query)
	if err != nil {
		return nil, err
	}
	lists := make(map[string][]Champion, len(words))
	for _, w := range words {
		if lists[w], err = r.championList(ctx, w); err != nil {
			return nil, err
		}
	}
	isTitled := func(id int64) bool {
		_, ok := slices.BinarySearch(titled, id)
		return ok
	}
	// The sections waiting to join the lists have no weights to bound their scores by: they
	// are all read, with the title matches, before the lists.
	slices.Sort(waiting)
	waiting = slices.DeleteFunc(slices.Compact(waiting), isTitled)
	if err := r.terms.Texts(ctx, waiting, collect(&found, allowed, true, scorer)); err != nil {
		return nil, err
	}
	read := func(id int64) bool {
		_, waits := slices.BinarySearch(waiting, id)
		return waits || isTitled(id)
	}
	ranked, ok := boundedCandidates(m.Query, scorer, lists)
	if !ok {
		var ids []int64
		for _, list := range lists {
			for _, c := range list {
				ids = append(ids, c.Section)
			}
		}
		slices.Sort(ids)
		ids = slices.DeleteFunc(slices.Compact(ids), read)
		err = r.terms.Texts(ctx, ids, collect(&found, allowed, true, scorer))
		return found, err
	}
	ranked = slices.DeleteFunc(ranked, func(c bounded) bool { return read(c.id) })
	// Read the candidates in the order of their bounds, and stop once m.Limit sections are
	// found that no candidate left could pass (see boundedCandidates).
	for start, end := 0, min(max(m.Limit, boundedBatch), len(ranked)); start < len(ranked); start, end = end, min(end+boundedBatch, len(ranked)) {
		if start > 0 && boundReached(found, m.Limit, ranked[start].bound) {
			break
		}
		ids := make([]int64, end-start)
		for i, c := range ranked[start:end] {
			ids[i] = c.id
		}
		if err := r.terms.Texts(ctx, ids, collect(&found, allowed, true, scorer)); err != nil {
			return nil, err
		}
		r.boundedReads.Add(int64(len(ids)))
	}
	return found, nil
}

// boundedBatch is how many candidates are read at a time, in the order of their bounds, once
// the first m.Limit have been. A variable so that tests can make batches small.
var boundedBatch = 200

// boundSlack widens the bounds of boundedCandidates: a list's weights were computed with the
// index's average section length of their time, and a section's weight grows at most in
// proportion to that average (tfFactor). The average drifts slowly with the index; a drift
// past the slack may stop the reading before a candidate that would have ranked, as the
// lists themselves, weighed with that average, may leave one out (the benchmark's recall@20
// measures both).
const boundSlack = 1.05

// bounded is a candidate section with an upper bound of its score.
type bounded struct {
	id    int64
	bound float64
}

// boundedCandidates orders the sections of the query's champion lists by an upper bound of
// their scores, highest first, for a query made of single words (no prefix, no phrase): a
// section's score is the sum over the query's words of the word's idf times its weight in the
// section, which is the section's entry in the word's list, or for a section outside that
// list at most the list's lightest entry (the list holds the heaviest sections). It reports
// false for other queries, and when a word has no list: the candidates are then all read.
func boundedCandidates(q Query, scorer *Scorer, lists map[string][]Champion) ([]bounded, bool) {
	base := 0.0
	extra := make(map[int64]float64, 2*championSize)
	for i, t := range q.Terms {
		if t.Prefix || len(t.Words) != 1 {
			return nil, false
		}
		list := lists[t.Words[0]]
		if len(list) == 0 {
			return nil, false
		}
		lightest := list[0].Weight
		for _, c := range list {
			lightest = min(lightest, c.Weight)
		}
		base += scorer.idf[i] * lightest
		for _, c := range list {
			extra[c.Section] += scorer.idf[i] * (c.Weight - lightest)
		}
	}
	out := make([]bounded, 0, len(extra))
	for id, e := range extra {
		out = append(out, bounded{id, (base + e) * boundSlack})
	}
	slices.SortFunc(out, func(a, b bounded) int {
		if a.bound != b.bound {
			if a.bound > b.bound {
				return -1
			}
			return 1
		}
		return cmp.Compare(b.id, a.id)
	})
	return out, true
}

// boundReached reports whether found holds limit sections that rank before any candidate
// whose score is at most bound: title matches, or sections scoring more than bound.
func boundReached(found []scored, limit int, bound float64) bool {
	n := 0
	for _, f := range found {
		if f.inTitle || f.score > bound {
			n++
		}
	}
	return n >= limit
}

// championWords returns the words whose lists a query draws from: every word of its terms,
// and for a prefix the prefixChampionWords most frequent words it starts.
func (r *ranker) championWords(ctx context.Context, query Query) ([]string, error) {
	var out []string
	for _, t := range query.Terms {
		last := len(t.Words) - 1
		out = append(out, t.Words[:last]...)
		if !t.Prefix {
			out = append(out, t.Words[last])
			continue
		}
		frequent, err := r.terms.FrequentWords(ctx, t.Words[last], maxPrefixTerms, prefixChampionWords)
		if err != nil {
			return nil, err
		}
		out = append(out, frequent...)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// championList returns word w's champion list, building it when it is missing or has
// shrunk. A list read before is reused while its version is unchanged (lists).
func (r *ranker) championList(ctx context.Context, w string) ([]Champion, error) {
	list, err := r.readList(ctx, w)
	if err != nil {
		return nil, err
	}
	df, err := r.stats.docFreq(ctx, r.terms, w, false)
	if err != nil {
		return nil, err
	}
	if 4*len(list) >= 3*min(df, championSize) {
		return list, nil
	}
	err = r.terms.WriteTerms(ctx, func(tx Terms) error { return buildChampions(ctx, tx, w) })
	if err != nil {
		return nil, err
	}
	return r.readList(ctx, w)
}

// readList reads word w's champion list, or takes it from the lists read before when its
// version has not changed since. The version is read first: a list read after it is at
// least as new, and a later search, seeing a newer version, reads the list again.
func (r *ranker) readList(ctx context.Context, w string) ([]Champion, error) {
	v, err := r.terms.ListVersion(ctx, w)
	if err != nil {
		return nil, err
	}
	if list, ok := r.lists.get(w, v); ok {
		return list, nil
	}
	list, err := r.terms.ChampionList(ctx, w)
	if err != nil {
		return nil, err
	}
	r.listReads.Add(1)
	r.lists.put(w, v, list)
	return list, nil
}

// maxCachedLists bounds the lists kept in memory (about 16 KB each at championSize).
const maxCachedLists = 256

// listCache keeps champion lists read before, by word, with their versions. Reading a list
// was a tenth of a common-word query: a thousand rows for each of its words. The lists are
// shared by the searches that take them, which only read them.
type listCache struct {
	mu    sync.Mutex
	lists map[string]cachedList
}

type cachedList struct {
	version int64
	list    []Champion
}

func (c *listCache) get(w string, version int64) ([]Champion, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	l, ok := c.lists[w]
	return l.list, ok && version != 0 && l.version == version
}

func (c *listCache) put(w string, version int64, list []Champion) {
	if version == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.lists == nil {
		c.lists = make(map[string]cachedList)
	}
	if _, ok := c.lists[w]; !ok && len(c.lists) >= maxCachedLists {
		for k := range c.lists { // any one: the words a search needs are read again
			delete(c.lists, k)
			break
		}
	}
	c.lists[w] = cachedList{version, list}
}

// buildChampions (re)builds word w's champion list from all the sections holding it.
func buildChampions(ctx context.Context, tx Terms, w string) error {
	corpus, err := corpusNow(ctx, tx)
	if err != nil {
		return err
	}
	var all []Champion
	one := Match{Query: Query{Terms: []Term{{Words: []string{w}}}}}
	err = tx.Matches(ctx, one, false, func(t Text) error {
		all = append(all, Champion{Section: t.ID, Weight: WordWeight(t.Title, t.Body, w, corpus.AvgWords)})
		return nil
	})
	if err != nil {
		return err
	}
	slices.SortFunc(all, heaviestFirst)
	return tx.ReplaceList(ctx, w, all[:min(len(all), championSize)])
}

// heaviestFirst orders champions by weight, heaviest first, then by section.
func heaviestFirst(a, b Champion) int {
	if a.Weight != b.Weight {
		if a.Weight > b.Weight {
			return -1
		}
		return 1
	}
	return int(a.Section - b.Section)
}

// championBulk is the number of waiting sections from which a batch is made at once, after
// the index update that added them (an import), rather than when championBatch is passed.
const championBulk = 1000

// maintain brings the champion lists up to date with the sections added and deleted since
// the last batch, once more than championBatch of either have gathered (or at once with
// force). The outbox consumer runs it after each index update, so that no request waits for a
// batch.
func (r *ranker) maintain(ctx context.Context, force bool) error {
	waiting, gone, err := r.terms.Waiting(ctx)
	if err != nil || (!force && max(len(waiting), gone) <= championBatch) || len(waiting)+gone == 0 {
		return err
	}
	return r.terms.WriteTerms(ctx, func(tx Terms) error {
		waiting, _, err := tx.Waiting(ctx)
		if err != nil {
			return err
		}
		// The deleted first: a new section may have taken a deleted one's id.
		if err := tx.SettleWaiting(ctx); err != nil {
			return err
		}
		// Only words that have a list take new sections: with none (a first import), the
		// waiting sections' text is not even read.
		sizes, err := tx.ListSizes(ctx)
		if err != nil || len(sizes) == 0 {
			return err
		}
		corpus, err := corpusNow(ctx, tx)
		if err != nil {
			return err
		}
		// Their weights, from their words as indexed.
		weights := map[string][]Champion{}
		err = tx.Texts(ctx, waiting, func(t Text) error {
			for w, weight := range TermWeights(t.Title, t.Body, corpus.AvgWords) {
				if _, ok := sizes[w]; ok {
					weights[w] = append(weights[w], Champion{Section: t.ID, Weight: weight})
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		return addChampions(ctx, tx, waiting, sizes, weights)
	})
}

// addChampions adds new sections (ids) to the existing champion lists of their words: weights
// holds, for each word, the new sections' weights. Each list keeps the championSize heaviest
// of its sections and the new ones, and only what changes is written: a new section that
// would leave at once is not inserted, and of the list's own sections only the lightest can
// leave. sizes holds the lists' sizes, by word.
func addChampions(ctx context.Context, tx Terms, ids []int64, sizes map[string]int, weights map[string][]Champion) error {
	words := make([]string, 0, len(weights))
	for w := range weights {
		words = append(words, w)
	}
	slices.Sort(words)
	// A list built on first use while the sections waited holds them already.
	listed, err := tx.Listed(ctx, ids)
	if err != nil {
		return err
	}
	add := map[string][]Champion{}
	var drop []ListEntry
	for _, w := range words {
		n, ok := sizes[w]
		if !ok {
			continue
		}
		var cands []Champion
		for _, c := range weights[w] {
			if !listed[ListEntry{w, c.Section}] {
				cands = append(cands, c)
			}
		}
		evict := n + len(cands) - championSize
		if evict <= 0 {
			add[w] = cands
			continue
		}
		lightest, err := tx.Lightest(ctx, w, min(evict, n))
		if err != nil {
			return err
		}
		type entry struct {
			Champion
			listed bool
		}
		pool := make([]entry, 0, len(lightest)+len(cands))
		for _, c := range lightest {
			pool = append(pool, entry{c, true})
		}
		for _, c := range cands {
			pool = append(pool, entry{c, false})
		}
		slices.SortFunc(pool, func(a, b entry) int { // lightest first
			if a.Weight != b.Weight {
				if a.Weight < b.Weight {
					return -1
				}
				return 1
			}
			return int(a.Section - b.Section)
		})
		for i, e := range pool {
			switch {
			case i < evict && e.listed:
				drop = append(drop, ListEntry{w, e.Section})
			case i >= evict && !e.listed:
				add[w] = append(add[w], e.Champion)
			}
		}
	}
	if err := tx.DropFromLists(ctx, drop); err != nil {
		return err
	}
	return tx.AddToLists(ctx, add)
}

// prepare builds, in one pass over the index, the champion lists missing for words found in
// more than common sections. A large index update (an import) may make many words common at
// once, and building their lists one by one when queries first need them would cost those
// queries a pass over each word's matches; it runs after such updates, in the outbox
// consumer.
func (r *ranker) prepare(ctx context.Context, common int) error {
	return r.terms.WriteTerms(ctx, func(tx Terms) error {
		words, err := tx.UnlistedWords(ctx, common)
		if err != nil || len(words) == 0 {
			return err
		}
		lists := make(map[string]*championHeap, len(words))
		for _, w := range words {
			lists[w] = &championHeap{}
		}
		corpus, err := corpusNow(ctx, tx)
		if err != nil {
			return err
		}
		err = tx.AllTexts(ctx, func(t Text) error {
			for w, weight := range TermWeights(t.Title, t.Body, corpus.AvgWords) {
				if h := lists[w]; h != nil {
					h.offer(Champion{Section: t.ID, Weight: weight})
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		out := make(map[string][]Champion, len(lists))
		for w, h := range lists {
			out[w] = *h
		}
		return tx.AddToLists(ctx, out)
	})
}

// championHeap keeps the championSize heaviest sections offered, lightest first (a min-heap).
type championHeap []Champion

func (h *championHeap) offer(c Champion) {
	if len(*h) < championSize {
		heap.Push(h, c)
	} else if c.Weight > (*h)[0].Weight {
		(*h)[0] = c
		heap.Fix(h, 0)
	}
}

func (h championHeap) Len() int           { return len(h) }
func (h championHeap) Less(i, j int) bool { return h[i].Weight < h[j].Weight }
func (h championHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *championHeap) Push(x any)        { *h = append(*h, x.(Champion)) }
func (h *championHeap) Pop() any {
	old := *h
	c := old[len(old)-1]
	*h = old[:len(old)-1]
	return c
}
