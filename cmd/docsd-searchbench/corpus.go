package main

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"docsd/internal/contenttree"
)

// vocabulary is a list of made-up words, most frequent first; texts draw from it with a Zipf
// distribution (exponent s), as natural languages roughly do: the top word is about 7% of
// all words, and most words are rare.
type vocabulary struct {
	words []string
	zipf  *rand.Zipf
}

func newVocabulary(rng *rand.Rand, size int, s float64) *vocabulary {
	seen := map[string]bool{}
	syll := []string{"ka", "lo", "mi", "ne", "ru", "ta", "vi", "so", "pe", "du", "ba", "zo", "fi", "gu", "he", "ja",
		"qua", "rel", "sim", "tor", "wen", "yx", "bri", "cle", "dro", "fla", "gri", "plo", "stu", "tre"}
	v := &vocabulary{}
	for len(v.words) < size {
		// Frequent words are short, as in real languages.
		n := 1 + len(v.words)/200
		n = min(1+rng.IntN(min(n, 4)+1), 5)
		var b strings.Builder
		for range n {
			b.WriteString(syll[rng.IntN(len(syll))])
		}
		if w := b.String(); !seen[w] {
			seen[w] = true
			v.words = append(v.words, w)
		}
	}
	v.zipf = rand.NewZipf(rng, s, 1, uint64(size-1))
	return v
}

func (v *vocabulary) word() string { return v.words[v.zipf.Uint64()] }

func (v *vocabulary) text(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			if i%12 == 0 {
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		b.WriteString(v.word())
	}
	b.WriteString(".")
	return b.String()
}

// corpusTree is a space of pages pages with sectionsPerPage sections of about wordsPerSection
// words each: an opening paragraph, then a `##` heading per further section.
func corpusTree(v *vocabulary, pages, sectionsPerPage, wordsPerSection int) *contenttree.Tree {
	t := contenttree.New()
	order := ""
	for i := range pages {
		next, err := contenttree.OrderBetween(order, "")
		if err != nil {
			panic(err)
		}
		order = next
		var md strings.Builder
		md.WriteString(v.text(wordsPerSection))
		for s := 1; s < sectionsPerPage; s++ {
			fmt.Fprintf(&md, "\n\n## %s %s %d\n\n%s", v.word(), v.word(), s, v.text(wordsPerSection-3))
		}
		md.WriteString("\n")
		id := fmt.Sprintf("page%06d", i)
		t.Pages[id] = contenttree.Page{ID: id, Order: order, Kind: contenttree.KindDocument,
			Title: v.word() + " " + v.word(), Slug: id, Markdown: md.String()}
	}
	return t
}
