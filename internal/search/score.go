package search

import (
	"math"
	"strings"
)

// BM25 parameters, as FTS5's bm25() uses them, with a title word weighing titleWeight body
// words.
const (
	bm25K1      = 1.2
	bm25B       = 0.75
	titleWeight = 10
)

// Corpus holds the figures of the whole index that ranking needs.
type Corpus struct {
	Sections int     // sections in the index
	AvgWords float64 // average words per section, title and body together
}

// Scorer ranks sections for one query with BM25, from the sections' folded words (as
// IndexText gives them). SQLite ranks with it: see the store's search_sqlite.go for why.
type Scorer struct {
	terms  []Term
	idf    []float64
	avgLen float64
}

// NewScorer prepares the ranking of q; docFreq[i] is how many sections hold term i (for a
// prefix or phrase, an upper bound is fine).
func NewScorer(q Query, c Corpus, docFreq []int) *Scorer {
	s := &Scorer{terms: q.Terms, idf: make([]float64, len(q.Terms)), avgLen: max(c.AvgWords, 1)}
	n := float64(max(c.Sections, 1))
	for i := range q.Terms {
		df := float64(min(docFreq[i], c.Sections))
		s.idf[i] = math.Log((n-df+0.5)/(df+0.5) + 1)
	}
	return s
}

// Score returns whether every term occurs in the title, and the section's BM25 score (higher
// is better).
func (s *Scorer) Score(title, body string) (inTitle bool, score float64) {
	tw, bw := strings.Fields(title), strings.Fields(body)
	length := float64(len(tw) + len(bw))
	inTitle = true
	for i, t := range s.terms {
		ft := occurrences(tw, t)
		inTitle = inTitle && ft > 0
		tf := float64(titleWeight*ft + occurrences(bw, t))
		score += s.idf[i] * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*length/s.avgLen))
	}
	return inTitle, score
}

// occurrences counts where term t starts in words.
func occurrences(words []string, t Term) int {
	n := 0
	last := len(t.Words) - 1
	for i := 0; i+last < len(words); i++ {
		ok := true
		for j, w := range t.Words {
			got := words[i+j]
			if got != w && !(j == last && t.Prefix && strings.HasPrefix(got, w)) {
				ok = false
				break
			}
		}
		if ok {
			n++
		}
	}
	return n
}
