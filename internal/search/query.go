package search

import (
	"strings"
	"unicode/utf8"

	"docsd/internal/apperr"
)

// MaxQueryLength is the longest query accepted, in characters.
const MaxQueryLength = 512

// maxTerms bounds how many terms a query may combine, so one request cannot build an
// expression large enough to be slow to parse or match; later terms are ignored.
const maxTerms = 32

// Term is one part of a query that every result must match: a word, a word prefix
// (`instal*`), or a phrase (`"getting started"`, or a run of ideographs) whose words must
// follow one another.
type Term struct {
	Words  []string // folded tokens; one for a word or prefix, several for a phrase
	Prefix bool     // the last word matches any word that starts with it
}

// Query is a parsed search query: all of its terms must match.
type Query struct {
	Terms []Term
}

// Parse reads a query string. Words are separated by anything that is not a letter or digit;
// a word ending in `*` is a prefix; text between double quotes is a phrase (an unclosed quote
// runs to the end). It fails with a 400 when the query is empty or longer than
// MaxQueryLength characters, and answers an empty Query when nothing in it is searchable
// (only punctuation), which matches nothing.
func Parse(s string) (Query, error) {
	if strings.TrimSpace(s) == "" {
		return Query{}, apperr.Invalidf("query: is required and must be 1 to %d characters", MaxQueryLength)
	}
	if n := utf8.RuneCountInString(s); n > MaxQueryLength {
		return Query{}, apperr.Invalidf("query: must be at most %d characters (got %d)", MaxQueryLength, n)
	}
	var q Query
	add := func(t Term) {
		if len(t.Words) > 0 && len(q.Terms) < maxTerms {
			q.Terms = append(q.Terms, t)
		}
	}
	for i, part := range strings.Split(s, `"`) {
		if i%2 == 1 { // inside quotes
			add(Term{Words: Tokens(part, maxTerms)})
			continue
		}
		for _, field := range strings.Fields(part) {
			// A field that folds to several words ("e-mail", "文档") is a phrase of them.
			add(Term{Words: Tokens(field, maxTerms), Prefix: strings.HasSuffix(field, "*")})
		}
	}
	return q, nil
}

// Highlights are the words an excerpt should show, with whether each is a prefix.
func (q Query) highlights() []Term {
	var out []Term
	for _, t := range q.Terms {
		for i, w := range t.Words {
			out = append(out, Term{Words: []string{w}, Prefix: t.Prefix && i == len(t.Words)-1})
		}
	}
	return out
}
