package markdoc

import "strings"

// nodeText returns the text a reader sees in a node and its descendants, fragments included:
// leaves as they are, formulas, image descriptions and captions, embedded URLs, a line per
// block, an annotation's note in parentheses after it. Marks and structure are left out.
func nodeText(n *Node) string {
	var b strings.Builder
	writeText(&b, n)
	return strings.Trim(b.String(), "\n")
}

func writeText(b *strings.Builder, n *Node) {
	isBlock := n.Object == ObjectBlock
	if isBlock {
		endLine(b)
	}
	for _, l := range n.Leaves {
		b.WriteString(l.Text)
	}
	for _, key := range []string{"formula", "alt", "caption", "url"} {
		if s, ok := n.Data[key].(string); ok && s != "" {
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte(' ')
			}
			b.WriteString(s)
		}
	}
	if n.Type == "table" {
		writeColumnTitles(b, n)
	}
	for _, c := range n.Nodes {
		writeText(b, c)
	}
	for _, f := range n.Fragments {
		if isBlock {
			for _, c := range f.Nodes {
				writeText(b, c)
			}
			continue
		}
		var note []string
		for _, c := range f.Nodes {
			note = append(note, nodeText(c))
		}
		b.WriteString(" (" + strings.Join(note, " ") + ")")
	}
	if isBlock {
		endLine(b)
	}
}

// endLine ends the text's last line, if it has one.
func endLine(b *strings.Builder) {
	if b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteByte('\n')
	}
}

// writeColumnTitles writes a table's column titles, in order, as its first line.
func writeColumnTitles(b *strings.Builder, table *Node) {
	if titles := strings.TrimSpace(strings.Join(columnTitles(table), " ")); titles != "" {
		b.WriteString(titles)
		endLine(b)
	}
}

// columnTitles returns the titles of a table's columns, in order.
func columnTitles(table *Node) []string {
	view, _ := table.Data["view"].(map[string]any)
	definition, _ := table.Data["definition"].(map[string]any)
	columns, _ := view["columns"].([]any)
	var titles []string
	for _, id := range columns {
		id, _ := id.(string)
		column, _ := definition[id].(map[string]any)
		title, _ := column["title"].(string)
		titles = append(titles, title)
	}
	return titles
}
