package markdoc

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/util"
)

// textValue returns what a text node reads as: backslash escapes and character references
// resolved, except in raw text (code), which is verbatim. A code span's line ending reads as
// a space, as CommonMark renders it.
func textValue(t *ast.Text, src []byte) string {
	v := t.Segment.Value(src)
	if t.IsRaw() {
		if bytes.HasSuffix(v, []byte("\n")) {
			return string(v[:len(v)-1]) + " "
		}
		return string(v)
	}
	return unescapeMarkdown(v)
}

// unescapeMarkdown resolves backslash escapes and character references, as in link
// destinations, titles and text.
func unescapeMarkdown(v []byte) string {
	v = util.UnescapePunctuations(v)
	v = util.ResolveNumericReferences(v)
	v = util.ResolveEntityNames(v)
	return string(v)
}

// inlineText returns the text of a node's inline content without markup: what a reader sees.
func inlineText(n ast.Node, src []byte) string {
	var b strings.Builder
	writeInlineText(&b, n, src)
	return b.String()
}

func writeInlineText(b *strings.Builder, n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch c := c.(type) {
		case *ast.Text:
			b.WriteString(textValue(c, src))
			if c.SoftLineBreak() || c.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(c.Value)
		case *ast.AutoLink:
			b.Write(c.Label(src))
		case *ast.RawHTML:
			// Markup, not text.
		case *inlineMath:
			b.WriteString(c.Formula)
		default:
			writeInlineText(b, c, src)
		}
	}
}

// collapseSpace joins the words of s with single spaces.
func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
