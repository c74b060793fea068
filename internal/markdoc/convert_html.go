package markdoc

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTML inside markdown: GitBook's exports write images with captions, sizes and alignment as
// <figure>, expandable blocks as <details>, and some text styles as inline tags. What has an
// equivalent in the document becomes it; other markup is dropped and its text kept.

// Inline tags that map to marks.
var htmlMarkTags = map[string]string{
	"b": "bold", "strong": "bold", "i": "italic", "em": "italic", "code": "code", "kbd": "keyboard",
	"s": "strikethrough", "del": "strikethrough", "strike": "strikethrough", "sup": "superscript", "sub": "subscript",
}

// htmlMarkOrder is the order marks from inline HTML take after the markdown's own.
var htmlMarkOrder = []string{"bold", "italic", "strikethrough", "code", "keyboard", "superscript", "subscript"}

var htmlTag = regexp.MustCompile(`^<(/?)([A-Za-z][A-Za-z0-9]*)\b`)

// rawHTML converts an inline HTML tag: <br> to a line break, <img> to an inline image, and
// mark tags to marks on the text up to their closing tag in the same paragraph.
func (c *converter) rawHTML(n *ast.RawHTML, marks []string, out *[]*Node) {
	raw := strings.TrimSpace(string(n.Segments.Value(c.src)))
	m := htmlTag.FindStringSubmatch(raw)
	if m == nil {
		return
	}
	closing, name := m[1] == "/", strings.ToLower(m[2])
	switch {
	case name == "br" && !closing:
		c.leaf("\n", marks, out)
	case name == "img" && !closing:
		if tok, ok := firstTag(raw); ok {
			*out = append(*out, c.inlineImage(attr(tok, "src"), attr(tok, "alt"), attr(tok, "title")))
		}
	case htmlMarkTags[name] != "" && !closing:
		if c.htmlMarks == nil {
			c.htmlMarks = map[string]int{}
		}
		c.htmlMarks[htmlMarkTags[name]]++
	case htmlMarkTags[name] != "" && c.htmlMarks[htmlMarkTags[name]] > 0:
		c.htmlMarks[htmlMarkTags[name]]--
	}
}

// firstTag reads the first start tag of raw.
func firstTag(raw string) (html.Token, bool) {
	z := html.NewTokenizer(strings.NewReader(raw))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return html.Token{}, false
		case html.StartTagToken, html.SelfClosingTagToken:
			return z.Token(), true
		}
	}
}

func attr(t html.Token, name string) string {
	for _, a := range t.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

func htmlBlockText(n *ast.HTMLBlock, src []byte) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(src))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(src))
	}
	return b.String()
}

// parseHTML parses a fragment of HTML as the content of a <body>.
func parseHTML(raw string) []*html.Node {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(raw), body)
	if err != nil {
		return nil
	}
	return nodes
}

// htmlBlock converts a block of HTML: its images to an images block, otherwise its text to a
// paragraph; markup alone (a comment, a closing tag) becomes nothing.
func (c *converter) htmlBlock(n *ast.HTMLBlock) []*Node {
	nodes := parseHTML(htmlBlockText(n, c.src))
	if imgs := c.htmlImages(nodes); imgs != nil {
		return []*Node{imgs}
	}
	var b strings.Builder
	for _, n := range nodes {
		writeHTMLText(&b, n)
	}
	if text := collapseSpace(b.String()); text != "" {
		return []*Node{paragraph(plainText(text))}
	}
	return nil
}

func writeHTMLText(b *strings.Builder, n *html.Node) {
	switch n.Type {
	case html.TextNode:
		b.WriteString(n.Data)
	case html.ElementNode, html.DocumentNode:
		if n.DataAtom == atom.Script || n.DataAtom == atom.Style {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			writeHTMLText(b, c)
		}
		b.WriteByte(' ')
	}
}

// htmlImages builds an images block from the <img> elements of an HTML block, with the
// caption of a <figure> and the alignment of an enclosing <div align> or <p align>.
func (c *converter) htmlImages(nodes []*html.Node) *Node {
	var images []*Node
	align := ""
	var visit func(n *html.Node, caption string)
	visit = func(n *html.Node, caption string) {
		if n.Type != html.ElementNode {
			return
		}
		switch n.DataAtom {
		case atom.Img:
			images = append(images, c.image(attrOf(n, "src"), attrOf(n, "alt"), caption, attrOf(n, "width"), attrOf(n, "height")))
			return
		case atom.Figure:
			caption = figureCaption(n)
		case atom.Div, atom.P:
			if a := strings.ToLower(attrOf(n, "align")); a == "left" || a == "center" || a == "right" {
				align = a
			}
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			visit(ch, caption)
		}
	}
	for _, n := range nodes {
		visit(n, "")
	}
	if len(images) == 0 {
		return nil
	}
	data := map[string]any{}
	if align != "" {
		data["align"] = align
	}
	return block("images", data, images...)
}

func figureCaption(figure *html.Node) string {
	for ch := figure.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.DataAtom == atom.Figcaption {
			var b strings.Builder
			writeHTMLText(&b, ch)
			return collapseSpace(b.String())
		}
	}
	return ""
}

func attrOf(n *html.Node, name string) string {
	for _, a := range n.Attr {
		if a.Key == name {
			return a.Val
		}
	}
	return ""
}

// image builds an image block; a caption becomes its caption fragment, and a width or height
// in pixels its size.
func (c *converter) image(src, alt, caption, width, height string) *Node {
	data := map[string]any{"ref": c.imageRef(src)}
	if alt != "" {
		data["alt"] = alt
	}
	for key, v := range map[string]string{"width": width, "height": height} {
		if px, err := strconv.ParseFloat(strings.TrimSuffix(v, "px"), 64); err == nil && px > 0 {
			data[key] = px
		}
	}
	n := block("image", data)
	n.Fragments = []*Fragment{}
	if caption != "" {
		n.Fragments = append(n.Fragments, &Fragment{Fragment: "caption", Nodes: []*Node{paragraph(plainText(caption))}})
	}
	return n
}

// imagesOnly converts a paragraph holding nothing but images (and the space between them)
// to an images block; it returns nil for any other paragraph.
func (c *converter) imagesOnly(p ast.Node) *Node {
	var images []*Node
	for ch := p.FirstChild(); ch != nil; ch = ch.NextSibling() {
		switch ch := ch.(type) {
		case *ast.Image:
			images = append(images, c.image(unescapeMarkdown(ch.Destination), inlineText(ch, c.src), unescapeMarkdown(ch.Title), "", ""))
		case *ast.Text:
			if strings.TrimSpace(textValue(ch, c.src)) != "" {
				return nil
			}
		default:
			return nil
		}
	}
	if len(images) == 0 {
		return nil
	}
	return block("images", nil, images...)
}

var expressionOpen = regexp.MustCompile(`^<code\s+class\s*=\s*"expression"\s*>$`)

// expression converts GitBook's <code class="expression">space.vars.x</code>, starting at n,
// to an expression inline; end is the closing tag. ok is false when n does not start one, or
// when the span holds more than text, which is then converted as any inline HTML.
func (c *converter) expression(n ast.Node, out *[]*Node) (end ast.Node, ok bool) {
	open, isHTML := n.(*ast.RawHTML)
	if !isHTML || !expressionOpen.MatchString(strings.TrimSpace(string(open.Segments.Value(c.src)))) {
		return nil, false
	}
	var b strings.Builder
	for s := n.NextSibling(); s != nil; s = s.NextSibling() {
		switch s := s.(type) {
		case *ast.Text:
			b.WriteString(textValue(s, c.src))
		case *ast.String:
			b.Write(s.Value)
		case *ast.RawHTML:
			if !strings.EqualFold(strings.TrimSpace(string(s.Segments.Value(c.src))), "</code>") {
				return nil, false
			}
			*out = append(*out, inline("expression", map[string]any{"expression": html.UnescapeString(b.String())}))
			return s, true
		default:
			return nil, false
		}
	}
	return nil, false
}
