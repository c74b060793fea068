package agentconv

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOpeningWords(t *testing.T) {
	long := strings.Repeat("x", 200)
	for _, c := range []struct{ in, want string }{
		{"Where is the logo setting?", "Where is the logo setting?"},
		{"  spaced\n\tout  words ", "spaced out words"},
		{"one two three four five six seven eight nine", "one two three four five six seven eight…"},
		{"Hello, world: how, do: I, do, this, and, more", "Hello, world: how, do: I, do, this, and…"},
		{long, strings.Repeat("x", 79) + "…"},
		{"a " + long, "a…"},
		{strings.Repeat("abcdefghi ", 7) + "abcdefghi", strings.Repeat("abcdefghi ", 7) + "abcdefghi"},
		{strings.Repeat("abcdefghij ", 7) + "abcdefghij", strings.TrimSpace(strings.Repeat("abcdefghij ", 7)) + "…"},
		{long + " more", strings.Repeat("x", 79) + "…"},
	} {
		got := openingWords(c.in)
		if got != c.want {
			t.Errorf("openingWords(%.30q) = %q, want %q", c.in, got, c.want)
		}
		if n := utf8.RuneCountInString(got); n > titleChars {
			t.Errorf("openingWords(%.30q) has %d characters, over %d", c.in, n, titleChars)
		}
	}
}

func TestCleanTitle(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"\"Custom domain setup.\"\nmore", "Custom domain setup"},
		{"**Billing questions**", "Billing questions"},
		{"  \n", ""},
		{strings.Repeat("t", 300), strings.Repeat("t", TitleMax)},
	} {
		if got := cleanTitle(c.in); got != c.want {
			t.Errorf("cleanTitle(%.30q) = %q, want %q", c.in, got, c.want)
		}
	}
}
