package markdoc

import "strings"

// Section is one part of a page for the search index: a heading and the content under it, up
// to the next heading.
type Section struct {
	// ID is the heading's anchor, as in ToHTML and in the document's heading meta.id; empty
	// for the content before the page's first heading.
	ID string `json:"id"`
	// Title is the heading's text; empty for the content before the first heading.
	Title string `json:"title"`
	// Level is the heading's level in the document, 1 to 3 (0 before the first heading).
	Level int `json:"level"`
	// Body is the section's text without markup, a line per block.
	Body string `json:"body"`
}

// Sections splits a page at its top-level headings. The content before the first heading is
// a section without id and title when it has any text. Headings inside other blocks (a hint,
// a tab) stay in their section's body.
func Sections(markdown string) []Section {
	doc := ToDocument(markdown)
	var out []Section
	current := Section{}
	var body []string
	flush := func() {
		current.Body = strings.TrimSpace(strings.Join(body, "\n"))
		if current.ID != "" || current.Body != "" {
			out = append(out, current)
		}
		body = nil
	}
	for _, n := range doc.Nodes {
		level := headingLevel(n.Type)
		if level == 0 {
			if text := nodeText(n); strings.TrimSpace(text) != "" {
				body = append(body, text)
			}
			continue
		}
		flush()
		id, _ := n.Meta["id"].(string)
		current = Section{ID: id, Title: collapseSpace(nodeText(n)), Level: level}
	}
	flush()
	return out
}

func headingLevel(typ string) int {
	switch typ {
	case "heading-1":
		return 1
	case "heading-2":
		return 2
	case "heading-3":
		return 3
	}
	return 0
}
