package textmerge

import (
	"fmt"
	"strings"
)

// choices feeds the text generator: next(n) returns a number in [0, n).
type choices interface{ next(n int) int }

// byteChoices draws numbers from fuzzer input; once it runs out, every answer is 0.
type byteChoices struct{ data []byte }

func (c *byteChoices) next(n int) int {
	if len(c.data) == 0 || n <= 1 {
		return 0
	}
	b := c.data[0]
	c.data = c.data[1:]
	return int(b) % n
}

// A few distinct lines, some of them repeated, make ambiguous diffs likely: that is where merges go
// wrong.
var genLines = []string{"a\n", "b\n", "c\n", "\n", "# Title\n", "- item\n", "text\r\n"}

// lineSource hands out the lines of generated texts.
type lineSource func(c choices) string

// repeatedLines draws from genLines.
func repeatedLines(c choices) string { return genLines[c.next(len(genLines))] }

// distinctLines returns a source of lines that never repeat, so that every diff is unambiguous.
func distinctLines() lineSource {
	n := 0
	return func(choices) string {
		n++
		return fmt.Sprintf("line %d\n", n)
	}
}

// genText makes a text of up to 12 lines, sometimes without a trailing newline.
func genText(c choices, line lineSource) []string {
	n := c.next(13)
	text := make([]string, n)
	for i := range text {
		text[i] = line(c)
	}
	if n > 0 && c.next(4) == 0 {
		text[n-1] = strings.TrimSuffix(text[n-1], "\n")
	}
	return text
}

// genEdit derives a version of base with up to 4 line insertions, deletions and replacements.
func genEdit(c choices, base []string, line lineSource) []string {
	text := append([]string(nil), base...)
	for range c.next(5) {
		i := c.next(len(text) + 1)
		line := line(c)
		switch c.next(3) {
		case 0:
			text = append(text[:i], append([]string{line}, text[i:]...)...)
		case 1:
			if i < len(text) {
				text = append(text[:i], text[i+1:]...)
			}
		case 2:
			if i < len(text) {
				text[i] = line
			}
		}
	}
	// An edit may leave a line without newline in the middle; give it one back, as a real text has.
	for i := 0; i < len(text)-1; i++ {
		if !strings.HasSuffix(text[i], "\n") {
			text[i] += "\n"
		}
	}
	return text
}

// genCase makes a base text and two edits of it.
func genCase(c choices, line lineSource) (base, ours, theirs string) {
	b := genText(c, line)
	return strings.Join(b, ""), strings.Join(genEdit(c, b, line), ""), strings.Join(genEdit(c, b, line), "")
}
