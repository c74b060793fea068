package markdoc

import (
	"regexp"
	"strings"
)

var titleLine = regexp.MustCompile(`^ {0,3}#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*\r?$`)

// SplitTitle takes the "# Title" line that starts a page in GitBook's exports off its body,
// with the blank lines after it, and returns the title as text (empty, with body unchanged,
// when the page does not start so). Imports and page edits both use it, so a page's title is
// never also its body's first line.
func SplitTitle(body string) (title, rest string) {
	start := len(body) - len(strings.TrimLeft(body, "\r\n"))
	line, after, _ := strings.Cut(body[start:], "\n")
	m := titleLine.FindStringSubmatch(line)
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return "", body
	}
	sections := Sections("# " + m[1])
	if len(sections) == 0 || sections[0].Title == "" {
		return "", body
	}
	return sections[0].Title, strings.TrimLeft(after, "\r\n")
}
