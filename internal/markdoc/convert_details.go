package markdoc

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"
)

var (
	detailsOpen  = regexp.MustCompile(`(?i)<details\b`)
	detailsClose = regexp.MustCompile(`(?i)</details\s*>`)
	summaryTag   = regexp.MustCompile(`(?is)<summary\b[^>]*>(.*?)</summary\s*>`)
)

// details converts an expandable block, which GitBook exports as
//
//	<details>
//	<summary>Title</summary>
//
//	Markdown body
//
//	</details>
//
// where the body's markdown lies between HTML blocks. It returns the expandable and the last
// node it took, or nil when open does not start a <details> that closes in the same parent.
func (c *converter) details(open *ast.HTMLBlock) (*Node, ast.Node) {
	raw := htmlBlockText(open, c.src)
	if !startsDetails(raw) {
		return nil, nil
	}
	title := summaryText(raw)
	if detailsDelta(raw) <= 0 {
		// All in one block: its text, less the title, is the body.
		body := summaryTag.ReplaceAllString(raw, "")
		var b strings.Builder
		for _, n := range parseHTML(body) {
			writeHTMLText(&b, n)
		}
		var nodes []*Node
		if text := collapseSpace(b.String()); text != "" {
			nodes = append(nodes, paragraph(plainText(text)))
		}
		return expandable(title, nodes), open
	}
	end := c.detailsEnd(open)
	if end == nil {
		return nil, nil
	}
	first := open.NextSibling()
	if h, ok := first.(*ast.HTMLBlock); ok && first != end && title == "" && summaryTag.MatchString(htmlBlockText(h, c.src)) {
		title = summaryText(htmlBlockText(h, c.src))
		first = h.NextSibling()
	}
	return expandable(title, c.blockRange(first, end)), end
}

// detailsDelta is how many <details> an HTML block opens less how many it closes.
func detailsDelta(raw string) int {
	return len(detailsOpen.FindAllStringIndex(raw, -1)) - len(detailsClose.FindAllStringIndex(raw, -1))
}

// detailsEnd returns the HTML block closing the <details> that open starts, or nil. The
// blocks of open's parent are matched once, in one pass, for all of its <details>.
func (c *converter) detailsEnd(open *ast.HTMLBlock) ast.Node {
	parent := open.Parent()
	if c.detailsEnds == nil {
		c.detailsEnds = map[ast.Node]map[ast.Node]ast.Node{}
	}
	ends, ok := c.detailsEnds[parent]
	if ok {
		return ends[open]
	}
	ends = map[ast.Node]ast.Node{}
	type opening struct {
		node  ast.Node
		level int
	}
	var stack []opening
	level := 0
	for n := parent.FirstChild(); n != nil; n = n.NextSibling() {
		h, isHTML := n.(*ast.HTMLBlock)
		if !isHTML {
			continue
		}
		raw := htmlBlockText(h, c.src)
		delta := detailsDelta(raw)
		if delta > 0 && startsDetails(raw) {
			stack = append(stack, opening{n, level})
		}
		level += delta
		for len(stack) > 0 && level <= stack[len(stack)-1].level {
			ends[stack[len(stack)-1].node] = n
			stack = stack[:len(stack)-1]
		}
	}
	c.detailsEnds[parent] = ends
	return ends[open]
}

func startsDetails(raw string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(raw)), "<details")
}

func summaryText(raw string) string {
	m := summaryTag.FindStringSubmatch(raw)
	if m == nil {
		return ""
	}
	var b strings.Builder
	for _, n := range parseHTML(m[1]) {
		writeHTMLText(&b, n)
	}
	return collapseSpace(b.String())
}

func expandable(title string, body []*Node) *Node {
	body = fit(body, expandableBodyChildren)
	if len(body) == 0 {
		body = []*Node{paragraph(plainText(""))}
	}
	n := block("expandable", nil)
	n.Fragments = []*Fragment{
		{Fragment: "expandable-title", Type: "expandable-title", Nodes: []*Node{paragraph(plainText(title))}},
		{Fragment: "expandable-body", Type: "expandable-body", Nodes: body},
	}
	return n
}
