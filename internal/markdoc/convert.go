package markdoc

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// Options tune ToDocument.
type Options struct {
	// Ref maps the destination of a link, an image, an embed or a content reference, as
	// written in the markdown ("../setup.md#install", ".gitbook/assets/logo.png",
	// "https://example.com"), to the reference the document carries, typically a page or a
	// file of the space. When Ref is nil or answers a Ref with no Kind, a destination "#x"
	// becomes {kind: anchor, anchor: x} and any other {kind: url, url: destination}.
	Ref func(dest string) Ref
	// ReusableContent maps the path of an include as written ("../.gitbook/includes/x.md")
	// to the id of the reusable content it names; "" when there is none. Without it, includes
	// show nothing.
	ReusableContent func(path string) string
}

// ToDocument converts markdown to the page's block tree with the default Options.
func ToDocument(markdown string) *Document { return Options{}.ToDocument(markdown) }

// ToDocument converts markdown to the page's block tree, in the public API's Document shape.
//
// Headings map as in GitBook's exports, where `#` is the page's title: `#` and `##` become
// heading-1, `###` heading-2, and deeper ones heading-3. Every block and inline gets a key that
// depends only on the markdown (see keys.go), so converting the same markdown twice gives the
// same keys. A block that may not appear where the markdown puts it (a table in a hint, say)
// becomes the nearest allowed blocks (its text as paragraphs), so the tree always satisfies
// the API's schema.
func (o Options) ToDocument(markdown string) *Document {
	p := parse(markdown)
	c := &converter{src: p.src, opts: o, footnotes: map[int]*east.Footnote{}}
	_ = ast.Walk(p.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if f, ok := n.(*east.Footnote); ok && entering {
			c.footnotes[f.Index] = f
		}
		return ast.WalkContinue, nil
	})
	nodes := fit(c.blocks(p.root), topLevel)
	assignKeys(nodes)
	return &Document{Nodes: nodes}
}

// converter turns one parsed page into document nodes.
type converter struct {
	src       []byte
	opts      Options
	footnotes map[int]*east.Footnote
	// htmlMarks counts the marks opened and not yet closed by inline HTML (<kbd>, <sup>,
	// ...) in the paragraph being converted.
	htmlMarks map[string]int
	// inFootnote holds the footnotes being converted, so one that refers to itself ends.
	inFootnote map[int]bool
	// depth is how many block lists are being converted, one inside the other.
	depth int
	// detailsEnds maps, for the children of a parent, each block opening a <details> to
	// the block closing it.
	detailsEnds map[ast.Node]map[ast.Node]ast.Node
}

// maxDepth bounds how deep converted block lists nest (a list item's blocks inside a list
// item's blocks inside ...). Markdown nests without end (">>>>>>"); the editor's documents do
// not, and deeper trees would cost time growing with the square of their depth. Blocks beyond
// it become paragraphs of their text.
const maxDepth = 10

// ref resolves a destination as written.
func (c *converter) ref(dest string) Ref {
	if c.opts.Ref != nil {
		if r := c.opts.Ref(dest); r.Kind != "" {
			return r
		}
	}
	if anchor, ok := strings.CutPrefix(dest, "#"); ok && anchor != "" {
		return Ref{Kind: "anchor", Anchor: anchor}
	}
	return Ref{Kind: "url", URL: dest}
}

// imageRef resolves an image's source: images may show only a file or a URL.
func (c *converter) imageRef(src string) Ref {
	if r := c.ref(src); r.Kind == "file" || r.Kind == "url" {
		return r
	}
	return Ref{Kind: "url", URL: src}
}

// blocks converts the block children of parent.
func (c *converter) blocks(parent ast.Node) []*Node { return c.blockRange(parent.FirstChild(), nil) }

// blockRange converts first and its following siblings, up to stop (excluded; nil for all).
func (c *converter) blockRange(first, stop ast.Node) []*Node {
	if c.depth >= maxDepth {
		return c.textParagraphs(first, stop)
	}
	c.depth++
	defer func() { c.depth-- }()
	var out []*Node
	for n := first; n != nil && n != stop; n = n.NextSibling() {
		if h, ok := n.(*ast.HTMLBlock); ok {
			if exp, last := c.details(h); exp != nil {
				out = append(out, exp)
				n = last
				continue
			}
		}
		out = append(out, c.block(n)...)
	}
	return out
}

func (c *converter) block(n ast.Node) []*Node {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return c.paragraph(n)
	case *ast.Heading:
		return []*Node{c.heading(n)}
	case *ast.ThematicBreak:
		return []*Node{block("divider", nil)}
	case *ast.FencedCodeBlock:
		return []*Node{c.code(n, string(n.Language(c.src)))}
	case *ast.CodeBlock:
		return []*Node{c.code(n, "")}
	case *ast.Blockquote:
		return []*Node{c.blockquote(n)}
	case *ast.List:
		return []*Node{c.list(n)}
	case *ast.HTMLBlock:
		return c.htmlBlock(n)
	case *east.Table:
		return []*Node{c.table(n)}
	case *east.FootnoteList:
		// Footnotes are carried by the annotations that refer to them.
		return nil
	case *tagBlock:
		return c.tag(n)
	case *mathBlock:
		return []*Node{block("math", map[string]any{"formula": n.formula(c.src)})}
	}
	return c.blocks(n)
}

// paragraph converts a paragraph: to an images block when it holds only images, to a math
// block when it holds only a formula, and to nothing when it holds nothing visible.
func (c *converter) paragraph(n ast.Node) []*Node {
	if imgs := c.imagesOnly(n); imgs != nil {
		return []*Node{imgs}
	}
	c.htmlMarks = nil
	nodes := c.inlines(n)
	if len(nodes) == 3 && nodes[1].Type == "inline-math" && isBlankText(nodes[0]) && isBlankText(nodes[2]) {
		return []*Node{block("math", nodes[1].Data)}
	}
	if isEmptyInlines(nodes) {
		return nil
	}
	return []*Node{paragraph(nodes...)}
}

func (c *converter) heading(h *ast.Heading) *Node {
	typ := "heading-3"
	switch {
	case h.Level <= 2:
		typ = "heading-1"
	case h.Level == 3:
		typ = "heading-2"
	}
	id := attrString(h, "id")
	data := map[string]any{}
	if _, explicit := h.Attribute(explicitIDAttr); explicit {
		data["id"] = id
	}
	c.htmlMarks = nil
	node := block(typ, data, c.inlines(h)...)
	node.Meta = map[string]any{"id": id}
	return node
}

func attrString(n ast.Node, name string) string {
	v, ok := n.AttributeString(name)
	if !ok {
		return ""
	}
	if b, isBytes := v.([]byte); isBytes {
		return string(b)
	}
	return ""
}

// code converts a code block: one code-line per line of code.
func (c *converter) code(n ast.Node, syntax string) *Node {
	data := map[string]any{}
	if syntax != "" {
		data["syntax"] = unescapeMarkdown([]byte(syntax))
	}
	lines := n.Lines()
	node := block("code", data)
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := strings.TrimRight(string(seg.Value(c.src)), "\r\n")
		node.Nodes = append(node.Nodes, block("code-line", nil, plainText(line)))
	}
	if len(node.Nodes) == 0 {
		node.Nodes = []*Node{block("code-line", nil, plainText(""))}
	}
	return node
}

// GitHub's alert syntax (> [!NOTE]) is the nearest markdown has to a hint.
var alertStyles = map[string]string{
	"[!NOTE]": "info", "[!TIP]": "success", "[!IMPORTANT]": "info", "[!WARNING]": "warning", "[!CAUTION]": "danger",
}

func (c *converter) blockquote(n *ast.Blockquote) *Node {
	children := c.blocks(n)
	if style, rest, ok := alert(children); ok {
		return block("hint", map[string]any{"style": style}, fit(rest, hintChildren)...)
	}
	return block("blockquote", nil, fit(children, quoteChildren)...)
}

// alert reads a GitHub alert marker at the start of a blockquote's first paragraph.
func alert(children []*Node) (style string, rest []*Node, ok bool) {
	if len(children) == 0 || children[0].Type != "paragraph" || len(children[0].Nodes) == 0 {
		return "", nil, false
	}
	first := children[0].Nodes[0]
	if first.Object != ObjectText || len(first.Leaves) == 0 {
		return "", nil, false
	}
	text := first.Leaves[0].Text
	for marker, s := range alertStyles {
		if after, found := strings.CutPrefix(text, marker); found && (after == "" || strings.TrimLeft(after, " \t") != after || after[0] == '\n') {
			first.Leaves[0].Text = strings.TrimLeft(after, " \t\n")
			if isEmptyInlines(children[0].Nodes) {
				return s, children[1:], true
			}
			return s, children, true
		}
	}
	return "", nil, false
}

// list converts a list. A list whose first item starts with a checkbox is a task list.
func (c *converter) list(l *ast.List) *Node {
	typ, data := "list-unordered", map[string]any{}
	if l.IsOrdered() {
		typ = "list-ordered"
		if l.Start != 1 {
			data["start"] = l.Start
		}
	}
	_, tasks := checkbox(l.FirstChild())
	if tasks {
		typ, data = "list-tasks", map[string]any{}
	}
	node := block(typ, data)
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		li := block("list-item", nil, fit(c.blocks(item), listItemChildren)...)
		if len(li.Nodes) == 0 {
			li.Nodes = []*Node{paragraph(plainText(""))}
		}
		if tasks {
			checked, _ := checkbox(item)
			li.Data = map[string]any{"checked": checked}
		}
		node.Nodes = append(node.Nodes, li)
	}
	return node
}

// checkbox reports whether a list item starts with a task checkbox, and its state.
func checkbox(item ast.Node) (checked, ok bool) {
	if item == nil || item.FirstChild() == nil {
		return false, false
	}
	box, ok := item.FirstChild().FirstChild().(*east.TaskCheckBox)
	if !ok {
		return false, false
	}
	return box.IsChecked, true
}

// textParagraphs converts first and its following siblings up to stop to a paragraph of text
// for each block that holds text, whatever the blocks around it.
func (c *converter) textParagraphs(first, stop ast.Node) []*Node {
	var out []*Node
	for n := first; n != nil && n != stop; n = n.NextSibling() {
		_ = ast.Walk(n, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering || n.Type() != ast.TypeBlock {
				return ast.WalkContinue, nil
			}
			var text string
			switch {
			case n.IsRaw():
				var b strings.Builder
				for i := 0; i < n.Lines().Len(); i++ {
					seg := n.Lines().At(i)
					b.Write(seg.Value(c.src))
				}
				text = strings.TrimRight(b.String(), "\n")
			case n.FirstChild() != nil && n.FirstChild().Type() == ast.TypeInline:
				text = inlineText(n, c.src)
			default:
				return ast.WalkContinue, nil
			}
			if strings.TrimSpace(text) != "" {
				out = append(out, paragraph(plainText(text)))
			}
			return ast.WalkSkipChildren, nil
		})
	}
	return out
}
