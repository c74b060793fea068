package search

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Ranking on an index that hands back its matches' words (Terms): the index finds the
// matches, the Scorer ranks them. FTS5's own bm25() would first walk the whole doclist of
// every term of the query (the space's scope token included) to count its rows, which for a
// frequent word costs more than the whole search otherwise does; the same counts come from
// the index's vocabulary with one lookup per term, cached here (stats).

// ranker plans and ranks searches on a Terms index, and keeps its champion lists.
type ranker struct {
	terms Terms
	stats stats

	lists        listCache    // champion lists read before (champions.go)
	boundedReads atomic.Int64 // candidates of champion lists read (championCandidates), for tests
	listReads    atomic.Int64 // champion lists read from the index (readList), for tests
}

// scored is a candidate section with its rank.
type scored struct {
	id      int64
	inTitle bool
	score   float64
}

// maxPrefixTerms bounds the words a prefix's document frequency adds up (an upper bound is
// all ranking needs).
const maxPrefixTerms = 1000

// search returns the best hits of m, best first.
func (r *ranker) search(ctx context.Context, m Match) ([]Hit, error) {
	corpus, err := r.stats.corpusOf(ctx, r.terms)
	if err != nil {
		return nil, err
	}
	r.stats.refreshTable(r.terms, corpus)
	df := make([]int, len(m.Query.Terms))
	for i, t := range m.Query.Terms {
		if df[i], err = r.docFreq(ctx, t); err != nil {
			return nil, err
		}
	}
	scorer := NewScorer(m.Query, corpus, df)
	// Scoping the match to the spaces makes FTS5 skip other spaces' sections, at the price of
	// walking the scope's own doclist beside the query's. When the spaces searched hold most
	// of the index it filters little, so the sections of other spaces are skipped here instead.
	inScope := m.ScopeSections
	if !m.ScopeKnown {
		if inScope, err = r.terms.ScopeSections(ctx, m.SpaceIDs); err != nil {
			return nil, err
		}
	}
	most := corpus.Sections > 0 && 2*inScope >= int64(corpus.Sections)
	var allowed map[string]bool
	if most {
		allowed = make(map[string]bool, len(m.SpaceIDs))
		for _, id := range m.SpaceIDs {
			allowed[id] = true
		}
	}
	exact := slices.Min(df) <= m.Exact || inScope <= int64(m.Exact) || !most
	if !exact {
		// Common words may still rarely occur together: count the matches (FTS5 reads only
		// doclists for that, not the sections' text), up to the bound.
		n, err := r.terms.CountMatches(ctx, m, !most, m.Exact+1)
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
		err = r.terms.Matches(ctx, m, !most, collect(&found, allowed, false, scorer))
	} else {
		found, err = r.championCandidates(ctx, m, allowed, scorer)
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(found, func(a, b scored) int {
		return CompareRank(a.inTitle, a.score, a.id, b.inTitle, b.score, b.id)
	})
	found = found[:min(len(found), m.Limit)]
	ids := make([]int64, len(found))
	for i, f := range found {
		ids[i] = f.id
	}
	byID, err := r.terms.Rows(ctx, ids)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(found))
	for _, f := range found {
		if row, ok := byID[f.id]; ok {
			hits = append(hits, Hit{Row: row, InTitle: f.inTitle, Score: f.score})
		}
	}
	return hits, nil
}

// collect returns a Terms callback that scores each section into found, keeping those of the
// allowed spaces (all when allowed is nil) and, when verify is set, those holding every term
// (sections the index did not match itself).
func collect(found *[]scored, allowed map[string]bool, verify bool, scorer *Scorer) func(Text) error {
	return func(t Text) error {
		if allowed != nil && !allowed[t.SpaceID] {
			return nil
		}
		all, inTitle, score := scorer.Match(t.Title, t.Body)
		if verify && !all {
			return nil
		}
		*found = append(*found, scored{id: t.ID, inTitle: inTitle, score: score})
		return nil
	}
}

// docFreq returns how many sections hold term t: exactly for a word, at most for a prefix
// (the sum over the words it starts) or a phrase (its rarest word).
func (r *ranker) docFreq(ctx context.Context, t Term) (int, error) {
	least := -1
	for i, w := range t.Words {
		prefix := t.Prefix && i == len(t.Words)-1
		n, err := r.stats.docFreq(ctx, r.terms, w, prefix)
		if err != nil {
			return 0, err
		}
		if least < 0 || n < least {
			least = n
		}
	}
	return max(least, 0), nil
}

// stats caches the figures ranking needs of the whole index. Counting them costs a walk of
// the word's doclist (FTS5's vocabulary table reads it whole: for a word in a few thousand
// sections, as long as the search itself; milliseconds for a word in every section) or of
// the table, while ranking needs them only roughly. The document frequencies of every common
// word are read in one pass over the index (a table, refreshed in the background when the
// index has changed and the table is old); a rarer word's is counted when a query needs it,
// cheaply, and kept for statsTTL. The corpus figures are kept for corpusTTL.
type stats struct {
	mu       sync.Mutex
	corpus   Corpus
	corpusAt time.Time
	words    map[string]cachedFreq
	table    *freqTable
	building bool // a table is being read
	gen      int  // moved by forget, so that a table read before it is not kept
}

type cachedFreq struct {
	docs int
	at   time.Time
}

// freqTable holds the document frequencies of the words held by at least atLeast sections
// when it was read: a word it does not hold was rarer.
type freqTable struct {
	docs    map[string]int
	atLeast int
	corpus  Corpus // the corpus figures when it was read
	at      time.Time
	took    time.Duration
}

const (
	statsTTL      = time.Minute
	corpusTTL     = time.Second
	maxCachedFreq = 50000
	// A table is read again once the index has changed and it is older than freqTableAge, or
	// than freqTableCost times the time it took to read (so that reading it costs at most
	// about 1% of a core).
	freqTableAge  = 5 * time.Minute
	freqTableCost = 100
	// The table holds the words of at least minTableDocs sections, and of at least one in
	// tableShare of the index's: it holds no more than tableShare times the distinct words of
	// a section, and the words it leaves out are counted in a short walk each.
	minTableDocs = 32
	tableShare   = 4000
)

func (c *stats) docFreq(ctx context.Context, terms Terms, w string, prefix bool) (int, error) {
	key := w
	if prefix {
		key += "*"
	}
	c.mu.Lock()
	if c.table != nil && !prefix {
		if n, ok := c.table.docs[w]; ok {
			c.mu.Unlock()
			return n, nil
		}
	}
	got, ok := c.words[key]
	c.mu.Unlock()
	if ok && time.Since(got.at) < statsTTL {
		return got.docs, nil
	}
	n, err := terms.WordDocs(ctx, w, prefix, maxPrefixTerms)
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

// refreshTable starts reading the table of document frequencies in the background when there
// is none, or when it is old and the index has changed since (its corpus figures are now).
func (c *stats) refreshTable(terms Terms, now Corpus) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.table
	if c.building || (t != nil && (t.corpus == now || time.Since(t.at) < max(freqTableAge, freqTableCost*t.took))) {
		return
	}
	c.building = true
	go func(gen int) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		c.readTable(ctx, terms, now, gen)
	}(c.gen)
}

// readTable reads the table of document frequencies and keeps it, unless forget was called
// since gen. A failure leaves the table as it was.
func (c *stats) readTable(ctx context.Context, terms Terms, corpus Corpus, gen int) error {
	start := time.Now()
	t := &freqTable{docs: map[string]int{}, atLeast: max(minTableDocs, corpus.Sections/tableShare), corpus: corpus}
	err := terms.WordsDocs(ctx, t.atLeast, func(w string, n int) { t.docs[w] = n })
	t.at, t.took = time.Now(), time.Since(start)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.building = false
	if err == nil && gen == c.gen {
		c.table = t
	}
	return err
}

// readTableNow reads the table of document frequencies at once (after a large index update).
func (c *stats) readTableNow(ctx context.Context, terms Terms) error {
	corpus, err := corpusNow(ctx, terms)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.building = true
	gen := c.gen
	c.mu.Unlock()
	return c.readTable(ctx, terms, corpus, gen)
}

// corpusOf returns the corpus figures.
func (c *stats) corpusOf(ctx context.Context, terms Terms) (Corpus, error) {
	c.mu.Lock()
	v, at := c.corpus, c.corpusAt
	c.mu.Unlock()
	if !at.IsZero() && time.Since(at) < corpusTTL {
		return v, nil
	}
	v, err := corpusNow(ctx, terms)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	c.corpus, c.corpusAt = v, time.Now()
	c.mu.Unlock()
	return v, nil
}

// corpusNow reads the corpus figures, uncached.
func corpusNow(ctx context.Context, terms Terms) (Corpus, error) {
	sections, words, err := terms.Corpus(ctx)
	return Corpus{Sections: int(sections), AvgWords: float64(words) / float64(max(sections, 1))}, err
}

// forget drops the cached figures, so the next search reads them afresh.
func (c *stats) forget() {
	c.mu.Lock()
	c.corpus, c.corpusAt, c.words, c.table = Corpus{}, time.Time{}, nil, nil
	c.gen++
	c.mu.Unlock()
}
