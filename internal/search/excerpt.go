package search

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Excerpt bounds: about this many bytes of text, starting a little before the first match.
const (
	excerptBytes = 240
	excerptLead  = 60
)

// Excerpt returns the part of body around the first word that matches one of marks (the
// start of body when none does, as for a match in the title), cut at word boundaries, with
// "…" where text was left out.
func Excerpt(body string, marks []Term) string {
	body = strings.Join(strings.Fields(body), " ")
	if len(body) <= excerptBytes {
		return body
	}
	at := firstMatch(body, marks)
	start := 0
	if at > excerptLead {
		start = wordStart(body, at-excerptLead)
	}
	end := min(len(body), start+excerptBytes)
	if end < len(body) {
		end = wordEnd(body, end)
	}
	out := strings.TrimSpace(body[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(body) {
		out += "…"
	}
	return out
}

// firstMatch returns the byte offset of the first word of body matching a mark, or 0.
func firstMatch(body string, marks []Term) int {
	start := -1
	for i, r := range body + " " {
		var word, ideograph bool
		if r < utf8.RuneSelf {
			word = 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
		} else {
			ideograph = isIdeographic(r)
			word = unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		}
		if word && !ideograph {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 && matches(body[start:i], marks) {
			return start
		}
		start = -1
		if ideograph && matches(string(r), marks) {
			return i
		}
	}
	return 0
}

func matches(word string, marks []Term) bool {
	if isASCII(word) {
		// The common case, without folding: ASCII letters and digits only need lowercasing.
		for _, m := range marks {
			w := m.Words[0]
			if len(word) == len(w) || (m.Prefix && len(word) > len(w)) {
				if strings.EqualFold(word[:len(w)], w) && (len(word) == len(w) || m.Prefix) {
					return true
				}
			}
		}
		return false
	}
	for _, tok := range Tokens(word, 4) {
		for _, m := range marks {
			if tok == m.Words[0] || (m.Prefix && strings.HasPrefix(tok, m.Words[0])) {
				return true
			}
		}
	}
	return false
}

// wordStart moves i forward to the start of the next word (or keeps it at one).
func wordStart(s string, i int) int {
	for i > 0 && !utf8.RuneStart(s[i]) {
		i++
	}
	if j := strings.IndexByte(s[i:], ' '); j >= 0 && i > 0 && s[i-1] != ' ' {
		return i + j + 1
	}
	return i
}

// wordEnd moves i back to the end of the word before it.
func wordEnd(s string, i int) int {
	if j := strings.LastIndexByte(s[:i], ' '); j > 0 {
		return j
	}
	for i < len(s) && !utf8.RuneStart(s[i]) {
		i++
	}
	return i
}
