package markdoc

import (
	"strings"
)

// Markdown lets any block nest in any other; the API's schema does not (a hint holds only
// paragraphs, headings, lists and dividers, a list item no images, ...). fit makes the
// converted tree valid by replacing a block that may not appear where it is with the nearest
// blocks that may: its content unwrapped, or its text as a paragraph.

var essentials = []string{"paragraph", "heading-1", "heading-2", "heading-3", "list-ordered", "list-unordered", "list-tasks", "divider"}

func blockSet(extra ...string) map[string]bool {
	m := map[string]bool{}
	for _, t := range append(essentials, extra...) {
		m[t] = true
	}
	return m
}

// The block types each container may hold, from the public API's Document* schemas.
var (
	topLevel = blockSet("blockquote", "hint", "images", "file", "drawing", "embed", "code", "math",
		"expandable", "tabs", "table", "content-ref", "integration", "reusable-content", "stepper",
		"swagger", "openapi-operation", "openapi-schemas", "openapi-webhook")
	quoteChildren          = blockSet("blockquote")
	hintChildren           = blockSet()
	listItemChildren       = blockSet("code", "hint", "blockquote", "math", "table")
	tabsItemChildren       = blockSet("content-ref", "code", "embed", "file", "images", "drawing", "hint", "blockquote", "math", "integration")
	stepChildren           = tabsItemChildren
	expandableBodyChildren = blockSet("images", "code", "table", "hint", "blockquote", "reusable-content")
	annotationChildren     = blockSet("code")
	columnChildren         = blockSet("images", "code", "hint", "content-ref", "drawing", "embed", "file", "integration", "math", "blockquote", "table")
)

// fit returns nodes with every block not in allowed replaced by its nearest allowed form.
func fit(nodes []*Node, allowed map[string]bool) []*Node {
	var out []*Node
	for _, n := range nodes {
		if allowed[n.Type] {
			out = append(out, n)
			continue
		}
		out = append(out, fit(downgrade(n), allowed)...)
	}
	return out
}

// downgrade returns simpler blocks showing what n shows. Paragraphs are allowed everywhere,
// so repeated downgrading always ends.
func downgrade(n *Node) []*Node {
	if n.fallback != nil {
		return n.fallback
	}
	switch n.Type {
	case "hint", "blockquote", "tabs-item", "stepper-step", "stepper":
		return n.Nodes
	case "tabs":
		var out []*Node
		for _, item := range n.Nodes {
			if title, _ := item.Data["title"].(string); title != "" {
				out = append(out, paragraph(textNode(Leaf{Text: title, Marks: []Mark{{Type: "bold"}}})))
			}
			out = append(out, item.Nodes...)
		}
		return out
	case "code":
		var lines []string
		for _, l := range n.Nodes {
			lines = append(lines, nodeText(l))
		}
		return []*Node{paragraph(textNode(Leaf{Text: strings.Join(lines, "\n"), Marks: []Mark{{Type: "code"}}}))}
	case "images":
		var inlines []*Node
		for _, img := range n.Nodes {
			data := map[string]any{"ref": img.Data["ref"]}
			if alt, ok := img.Data["alt"]; ok {
				data["alt"] = alt
			}
			inlines = append(inlines, inline("inline-image", data))
		}
		return []*Node{paragraph(normalizeInlines(inlines)...)}
	case "math":
		return []*Node{paragraph(normalizeInlines([]*Node{inline("inline-math", n.Data)})...)}
	case "table":
		return tableRows(n)
	case "expandable":
		var out []*Node
		for _, f := range n.Fragments {
			if f.Type == "expandable-title" {
				out = append(out, paragraph(textNode(Leaf{Text: nodeText(f.Nodes[0]), Marks: []Mark{{Type: "bold"}}})))
			} else {
				out = append(out, f.Nodes...)
			}
		}
		return out
	}
	if text := nodeText(n); text != "" {
		return []*Node{paragraph(plainText(text))}
	}
	return nil
}

// tableRows shows a table as a paragraph per row, the column titles first, its cells
// separated by " | ".
func tableRows(n *Node) []*Node {
	var out []*Node
	titles := columnTitles(n)
	if strings.TrimSpace(strings.Join(titles, "")) != "" {
		out = append(out, paragraph(textNode(Leaf{Text: strings.Join(titles, " | "), Marks: []Mark{{Type: "bold"}}})))
	}
	row, cells := "", []string{}
	flush := func() {
		if len(cells) > 0 {
			out = append(out, paragraph(plainText(strings.Join(cells, " | "))))
		}
		cells = nil
	}
	for _, f := range n.Fragments {
		r, _, _ := strings.Cut(strings.TrimPrefix(f.Fragment, "r"), "c")
		if r != row {
			flush()
			row = r
		}
		var texts []string
		for _, p := range f.Nodes {
			texts = append(texts, nodeText(p))
		}
		cells = append(cells, strings.Join(texts, " "))
	}
	flush()
	return out
}
