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
// IndexText gives them). SQLite ranks with it: see rank.go for why.
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
// is better). title and body are words separated by single spaces, as IndexText makes them.
func (s *Scorer) Score(title, body string) (inTitle bool, score float64) {
	_, inTitle, score = s.Match(title, body)
	return inTitle, score
}

// Match is Score that also reports whether the section holds every term, for candidates
// that did not come from the full-text index's own matching (champion lists).
func (s *Scorer) Match(title, body string) (all, inTitle bool, score float64) {
	length := float64(WordCount(title) + WordCount(body))
	all, inTitle = true, true
	for i, t := range s.terms {
		ft := occurrences(title, t)
		inTitle = inTitle && ft > 0
		n := titleWeight*ft + occurrences(body, t)
		all = all && n > 0
		score += s.idf[i] * tfFactor(float64(n), length, s.avgLen)
	}
	return all, inTitle, score
}

// tfFactor is the part of a term's BM25 score that depends on the section: its idf aside,
// a term weighs tfFactor in a section where it counts tf times among length words.
func tfFactor(tf, length, avgLen float64) float64 {
	return tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B+bm25B*length/avgLen))
}

// WordWeight returns the tfFactor of word w in a section (see TermWeights).
func WordWeight(title, body, w string, avgWords float64) float64 {
	t := Term{Words: []string{w}}
	n := titleWeight*occurrences(title, t) + occurrences(body, t)
	return tfFactor(float64(n), float64(WordCount(title)+WordCount(body)), max(avgWords, 1))
}

// TermWeights returns, for each distinct word of a section, its BM25 term-frequency factor
// (tfFactor): within one word's matches, the order of their BM25 scores for that word. The
// store keeps champion lists by it. title and body are as IndexText makes them.
func TermWeights(title, body string, avgWords float64) map[string]float64 {
	counts := map[string]int{}
	for w := range strings.SplitSeq(title, " ") {
		if w != "" {
			counts[w] += titleWeight
		}
	}
	for w := range strings.SplitSeq(body, " ") {
		if w != "" {
			counts[w]++
		}
	}
	length := float64(WordCount(title) + WordCount(body))
	out := make(map[string]float64, len(counts))
	for w, n := range counts {
		out[w] = tfFactor(float64(n), length, max(avgWords, 1))
	}
	return out
}

// WordCount counts the words of text as IndexText makes it.
func WordCount(text string) int {
	if text == "" {
		return 0
	}
	return strings.Count(text, " ") + 1
}

// occurrences counts where term t starts in text (words separated by single spaces).
func occurrences(text string, t Term) int {
	if len(t.Words) == 1 {
		return wordOccurrences(text, t.Words[0], t.Prefix)
	}
	n := 0
	first := t.Words[0]
	for rest := text; rest != ""; {
		word := rest
		next := ""
		if i := strings.IndexByte(rest, ' '); i >= 0 {
			word, next = rest[:i], rest[i+1:]
		}
		if wordMatches(word, first, t.Prefix && len(t.Words) == 1) && followedBy(next, t) {
			n++
		}
		rest = next
	}
	return n
}

// wordOccurrences counts the words of text that are w (or, with prefix, start with it). It
// is occurrences for a term of one word: searching for w itself (strings.Index) skips the
// words that cannot match rather than comparing each, which is most of scoring's time.
func wordOccurrences(text, w string, prefix bool) int {
	if w == "" {
		return 0
	}
	n := 0
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], w)
		if j < 0 {
			break
		}
		j += i
		end := j + len(w)
		if j == 0 || text[j-1] == ' ' {
			if prefix || end == len(text) || text[end] == ' ' {
				n++
			}
		}
		// The next word starts after a space at or past end.
		k := strings.IndexByte(text[end:], ' ')
		if k < 0 {
			break
		}
		i = end + k + 1
	}
	return n
}

// followedBy reports whether text starts with the words of t after its first.
func followedBy(text string, t Term) bool {
	last := len(t.Words) - 1
	for j := 1; j <= last; j++ {
		word := text
		if i := strings.IndexByte(text, ' '); i >= 0 {
			word, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if word == "" || !wordMatches(word, t.Words[j], t.Prefix && j == last) {
			return false
		}
	}
	return true
}

func wordMatches(word, w string, prefix bool) bool {
	return word == w || (prefix && strings.HasPrefix(word, w))
}

// CompareRank orders two scored sections as results: those whose title holds every term
// first, then the higher score, then the more recently indexed (the higher id). The store's
// ranking and the search benchmark's exact reference both sort by it.
func CompareRank(aInTitle bool, aScore float64, aID int64, bInTitle bool, bScore float64, bID int64) int {
	switch {
	case aInTitle != bInTitle:
		if aInTitle {
			return -1
		}
		return 1
	case aScore != bScore:
		if aScore > bScore {
			return -1
		}
		return 1
	case aID != bID:
		if aID > bID {
			return -1
		}
		return 1
	}
	return 0
}
