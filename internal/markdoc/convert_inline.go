package markdoc

import (
	"slices"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// inlines converts the inline content of n to text and inline nodes: consecutive text merged
// into one text node, and a text node (empty if need be) before, between and after inlines,
// as the editor's document model expects.
func (c *converter) inlines(n ast.Node) []*Node {
	var pieces []*Node
	c.collect(n, nil, &pieces)
	nodes := normalizeInlines(pieces)
	trimEdges(nodes)
	return nodes
}

func (c *converter) collect(n ast.Node, marks []string, out *[]*Node) {
	for ch := n.FirstChild(); ch != nil; ch = ch.NextSibling() {
		if end, ok := c.expression(ch, out); ok {
			ch = end
			continue
		}
		switch ch := ch.(type) {
		case *ast.Text:
			s := textValue(ch, c.src)
			if ch.HardLineBreak() {
				s += "\n"
			} else if ch.SoftLineBreak() {
				s += " "
			}
			c.leaf(s, marks, out)
		case *ast.String:
			c.leaf(string(ch.Value), marks, out)
		case *ast.CodeSpan:
			var b strings.Builder
			for t := ch.FirstChild(); t != nil; t = t.NextSibling() {
				if t, ok := t.(*ast.Text); ok {
					b.WriteString(textValue(t, c.src))
				}
			}
			c.leaf(b.String(), withMark(marks, "code"), out)
		case *ast.Emphasis:
			mark := "italic"
			if ch.Level >= 2 {
				mark = "bold"
			}
			c.collect(ch, withMark(marks, mark), out)
		case *east.Strikethrough:
			c.collect(ch, withMark(marks, "strikethrough"), out)
		case *ast.Link:
			*out = append(*out, c.link(unescapeMarkdown(ch.Destination), ch, marks))
		case *ast.AutoLink:
			url := string(ch.URL(c.src))
			if ch.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:") {
				url = "mailto:" + url
			}
			var label []*Node
			c.leaf(string(ch.Label(c.src)), marks, &label)
			*out = append(*out, inline("link", map[string]any{"ref": c.ref(url)}, label...))
		case *ast.Image:
			*out = append(*out, c.inlineImage(unescapeMarkdown(ch.Destination), inlineText(ch, c.src), unescapeMarkdown(ch.Title)))
		case *ast.RawHTML:
			c.rawHTML(ch, marks, out)
		case *east.FootnoteLink:
			*out = append(*out, c.annotation(ch))
		case *east.FootnoteBacklink, *east.TaskCheckBox:
			// Rendering aids with no content of their own.
		case *inlineMath:
			*out = append(*out, inline("inline-math", map[string]any{"formula": ch.Formula}))
		default:
			c.collect(ch, marks, out)
		}
	}
}

// leaf appends a text node of s with marks and the marks inline HTML opened.
func (c *converter) leaf(s string, marks []string, out *[]*Node) {
	all := marks
	for _, m := range htmlMarkOrder {
		if c.htmlMarks[m] > 0 {
			all = withMark(all, m)
		}
	}
	leaf := Leaf{Text: s}
	for _, m := range all {
		leaf.Marks = append(leaf.Marks, Mark{Type: m})
	}
	*out = append(*out, textNode(leaf))
}

// withMark returns marks with mark added once, leaving marks itself unchanged.
func withMark(marks []string, mark string) []string {
	if slices.Contains(marks, mark) {
		return marks
	}
	return append(slices.Clip(marks), mark)
}

// link converts a link; inside it only text and inline images may appear, so other inlines
// are kept as their text.
func (c *converter) link(dest string, n ast.Node, marks []string) *Node {
	var pieces []*Node
	c.collect(n, marks, &pieces)
	for i, p := range pieces {
		if p.Object == ObjectInline && p.Type != "inline-image" {
			pieces[i] = textNode(Leaf{Text: nodeText(p)})
		}
	}
	return inline("link", map[string]any{"ref": c.ref(dest)}, normalizeInlines(pieces)...)
}

func (c *converter) inlineImage(dest, alt, caption string) *Node {
	data := map[string]any{"ref": c.imageRef(dest)}
	if alt != "" {
		data["alt"] = alt
	}
	if caption != "" {
		data["caption"] = caption
	}
	return inline("inline-image", data)
}

// annotation converts a footnote reference: the footnote's number, annotated with its text.
func (c *converter) annotation(link *east.FootnoteLink) *Node {
	number := strconv.Itoa(link.Index)
	note := c.footnotes[link.Index]
	if note == nil || c.inFootnote[link.Index] {
		return textNode(Leaf{Text: number})
	}
	if c.inFootnote == nil {
		c.inFootnote = map[int]bool{}
	}
	c.inFootnote[link.Index] = true
	saved := c.htmlMarks
	body := fit(c.blocks(note), annotationChildren)
	c.htmlMarks = saved
	delete(c.inFootnote, link.Index)
	if len(body) == 0 {
		body = []*Node{paragraph(plainText(""))}
	}
	n := inline("annotation", nil, plainText(number))
	n.Fragments = []*Fragment{{Fragment: "annotation-body", Type: "annotation-body", Nodes: body}}
	return n
}

// normalizeInlines merges runs of text nodes into one, merges neighbouring leaves with the
// same marks, and puts a text node before, between and after inline nodes.
func normalizeInlines(pieces []*Node) []*Node {
	var out []*Node
	for _, p := range pieces {
		if p.Object != ObjectText {
			if len(out) == 0 || out[len(out)-1].Object != ObjectText {
				out = append(out, plainText(""))
			}
			out = append(out, p)
			continue
		}
		if len(out) == 0 || out[len(out)-1].Object != ObjectText {
			out = append(out, textNode())
		}
		last := out[len(out)-1]
		for _, l := range p.Leaves {
			if n := len(last.Leaves); n > 0 && sameMarks(last.Leaves[n-1].Marks, l.Marks) {
				last.Leaves[n-1].Text += l.Text
			} else {
				last.Leaves = append(last.Leaves, l)
			}
		}
	}
	if len(out) == 0 || out[len(out)-1].Object != ObjectText {
		out = append(out, plainText(""))
	}
	for _, n := range out {
		if n.Object == ObjectText {
			n.Leaves = dropEmptyLeaves(n.Leaves)
		}
	}
	return out
}

func sameMarks(a, b []Mark) bool { return slices.Equal(a, b) }

func dropEmptyLeaves(leaves []Leaf) []Leaf {
	var out []Leaf
	for _, l := range leaves {
		if l.Text != "" {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return []Leaf{{Text: ""}}
	}
	return out
}

// trimEdges removes the white space that starts or ends a block's text.
func trimEdges(nodes []*Node) {
	if len(nodes) == 0 {
		return
	}
	if first := nodes[0]; first.Object == ObjectText {
		first.Leaves[0].Text = strings.TrimLeft(first.Leaves[0].Text, " \t")
		first.Leaves = dropEmptyLeaves(first.Leaves)
	}
	if last := nodes[len(nodes)-1]; last.Object == ObjectText {
		i := len(last.Leaves) - 1
		last.Leaves[i].Text = strings.TrimRight(last.Leaves[i].Text, " \t\n")
		last.Leaves = dropEmptyLeaves(last.Leaves)
	}
}

// isBlankText reports whether n is a text node of white space only.
func isBlankText(n *Node) bool {
	return n.Object == ObjectText && strings.TrimSpace(nodeText(n)) == ""
}

// isEmptyInlines reports whether inline content shows nothing: no inline node, no text.
func isEmptyInlines(nodes []*Node) bool {
	for _, n := range nodes {
		if !isBlankText(n) {
			return false
		}
	}
	return true
}
