package search

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// MaxTokensPerSection bounds what one section puts in the index, so that a giant page cannot
// exceed PostgreSQL's tsvector size limit or dominate the index; the rest of a longer section
// is not searchable.
const MaxTokensPerSection = 20000

// Tokens splits text into the words the index stores, the same way for both engines, so that
// matching does not depend on the engine's own parser: compatibility forms are unified (NFKD),
// accents and other combining marks are dropped, letters are lowercased, and words are runs of
// letters and digits. Scripts written without spaces between words (Han, Hiragana, Katakana)
// give one token per character, so that a word of them is found inside a sentence as a phrase
// of its characters.
func Tokens(text string, max int) []string {
	var out []string
	var word strings.Builder
	flush := func() {
		if word.Len() > 0 {
			out = append(out, word.String())
			word.Reset()
		}
	}
	if !isASCII(text) { // NFKD leaves ASCII as it is
		text = norm.NFKD.String(text)
	}
	for _, r := range text {
		if max > 0 && len(out) >= max {
			return out
		}
		switch {
		case unicode.Is(unicode.Mn, r):
			// a combining mark: folded away (é → e)
		case isIdeographic(r):
			flush()
			out = append(out, string(unicode.ToLower(r)))
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			word.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
	}
	flush()
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return out
}

// isIdeographic reports whether r belongs to a script written without spaces between words.
func isIdeographic(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana)
}

// IndexText is text as the index stores it: its tokens separated by spaces.
func IndexText(text string) string {
	return strings.Join(Tokens(text, MaxTokensPerSection), " ")
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
