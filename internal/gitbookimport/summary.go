package gitbookimport

import (
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// SUMMARY.md is GitBook's table of contents:
//
//	# Table of contents
//
//	* [Introduction](README.md)
//	* [Getting started](getting-started/README.md)
//	  * [Install](getting-started/install.md)
//
//	## Reference
//
//	* [API](reference/api.md)
//	* [Status page](https://status.example.com)
//
// Nested list items nest pages; a `##` heading starts a group holding the items after it; the
// first-level heading is the file's own title.

type summaryEntry struct {
	title    string
	target   string // the link's destination as written; "" for an item without a link
	group    bool
	line     int
	children []*summaryEntry
}

var summaryParser = goldmark.New().Parser()

func parseSummary(src []byte) []*summaryEntry {
	root := summaryParser.Parse(text.NewReader(src))
	lines := newLineIndex(src)
	var top []*summaryEntry
	var group *summaryEntry
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Level == 1 {
				continue
			}
			group = &summaryEntry{title: plainText(n, src), group: true, line: lines.of(n)}
			top = append(top, group)
		case *ast.List:
			items := listEntries(n, src, lines)
			if group != nil {
				group.children = append(group.children, items...)
			} else {
				top = append(top, items...)
			}
		}
	}
	return top
}

func listEntries(list *ast.List, src []byte, lines lineIndex) []*summaryEntry {
	var out []*summaryEntry
	for item := list.FirstChild(); item != nil; item = item.NextSibling() {
		e := &summaryEntry{line: lines.of(item)}
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.List:
				e.children = append(e.children, listEntries(c, src, lines)...)
			case *ast.TextBlock, *ast.Paragraph:
				if e.title != "" || e.target != "" {
					continue
				}
				e.line = lines.of(c)
				if link := firstLink(c); link != nil {
					e.title = plainText(link, src)
					e.target = unescape(link.Destination)
				} else {
					e.title = plainText(c, src)
				}
			}
		}
		if e.title != "" || e.target != "" || len(e.children) > 0 {
			out = append(out, e)
		}
	}
	return out
}

func firstLink(n ast.Node) *ast.Link {
	var found *ast.Link
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if l, ok := n.(*ast.Link); ok && entering {
			found = l
			return ast.WalkStop, nil
		}
		return ast.WalkContinue, nil
	})
	return found
}

// plainText returns the text of inline content without markup.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := n.(type) {
		case *ast.Text:
			v := t.Segment.Value(src)
			if !t.IsRaw() {
				v = []byte(unescape(v))
			}
			b.Write(v)
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.AutoLink:
			b.Write(t.Label(src))
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

func unescape(v []byte) string {
	return string(util.ResolveEntityNames(util.ResolveNumericReferences(util.UnescapePunctuations(v))))
}

// lineIndex finds the line, from 1, of a node of a parsed source.
type lineIndex []int

func newLineIndex(src []byte) lineIndex {
	starts := lineIndex{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

func (l lineIndex) of(n ast.Node) int {
	pos := n.Pos()
	if pos < 0 && n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
		pos = n.Lines().At(0).Start
	}
	if pos < 0 {
		return 0
	}
	return sort.Search(len(l), func(i int) bool { return l[i] > pos })
}
