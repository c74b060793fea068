package pdfrender

import (
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// headingSizes are the font sizes, in points, of heading levels 1 to 6.
var headingSizes = [7]float64{0, 18, 15, 13, 11.5, 10.5, 10.5}

// block draws one block node and leaves the cursor at the start of the line below it.
// outline is the bookmark level headings of this page get.
func (r *renderer) block(n ast.Node, outline int) {
	switch n := n.(type) {
	case *ast.Heading:
		r.heading(n, outline)
	case *ast.Paragraph:
		r.paragraph(n, blockGap)
	case *ast.TextBlock:
		r.paragraph(n, 1)
	case *ast.List:
		r.list(n, outline)
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		r.codeBlock(n)
	case *ast.Blockquote:
		r.quote(n, outline)
	case *ast.ThematicBreak:
		r.gap(blockGap)
		r.ensure(6)
		r.pdf.SetY(r.pdf.GetY() + 2)
		r.rule(borderColor, 0.4)
		r.pdf.SetXY(r.left, r.pdf.GetY()+2)
	case *ast.HTMLBlock:
		r.htmlBlock(n)
	case *east.Table:
		r.table(n)
	case *east.FootnoteList:
		r.footnotes(n, outline)
	default:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, outline)
		}
	}
}

func (r *renderer) heading(n *ast.Heading, outline int) {
	size := headingSizes[min(max(n.Level, 1), 6)]
	line := size * 0.3528 * 1.35 // points to millimetres, with leading
	r.gap(blockGap + size*0.2)
	r.ensure(line + 2*bodyLine) // keep a heading with the start of what follows
	if n.Level <= 2 {
		r.pdf.Bookmark(plain(plainText(n, r.src)), outline, -1)
	}
	st := r.base(size, line)
	st.bold = true
	r.inlines(n, st)
	r.newline(line)
	r.pdf.SetY(r.pdf.GetY() + 0.8)
}

// paragraph draws a paragraph, or the text of a tight list item.
func (r *renderer) paragraph(n ast.Node, gap float64) {
	if r.onlyLiquid(n) {
		return
	}
	r.gap(gap)
	r.liquid = r.liquid[:0]
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := string(seg.Value(r.src))
		if tag, url := liquidTag(line); tag {
			r.liquid = append(r.liquid, liquidLine{start: seg.Start, stop: seg.Stop, url: url, label: liquidLabel(line)})
		}
	}
	r.inlines(n, r.base(bodySize, bodyLine))
	r.liquid = r.liquid[:0]
	r.newline(bodyLine)
}

// liquidLine is a line of the current paragraph that holds a liquid tag: goldmark may cut
// it into several text nodes, all of which are left out.
type liquidLine struct {
	start, stop int
	url         string // an embed's, drawn once as a link on a line of its own
	label       string // or a changelog entry's date, drawn once in bold
	drawn       bool
}

func (r *renderer) liquidAt(pos int) *liquidLine {
	for i := range r.liquid {
		if l := &r.liquid[i]; pos >= l.start && pos < l.stop {
			return l
		}
	}
	return nil
}

// onlyLiquid reports whether a paragraph holds nothing but liquid tags, which are dropped
// (an embed among them is drawn as a link).
func (r *renderer) onlyLiquid(n ast.Node) bool {
	lines := n.Lines()
	if lines.Len() == 0 {
		return false
	}
	var shown []liquidLine
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		line := string(seg.Value(r.src))
		tag, url := liquidTag(line)
		if !tag {
			return false
		}
		if label := liquidLabel(line); url != "" || label != "" {
			shown = append(shown, liquidLine{url: url, label: label})
		}
	}
	for _, l := range shown {
		r.gap(blockGap)
		st := r.base(bodySize, bodyLine)
		text := l.url
		if l.url != "" {
			st.link = l.url
		} else {
			text, st.bold = l.label, true
		}
		r.text(text, st)
		r.newline(bodyLine)
	}
	return true
}

var bullets = []string{"•", "◦", "▪"}

// isTask reports whether a list item starts with a task checkbox.
func isTask(item ast.Node) bool {
	if first := item.FirstChild(); first != nil {
		_, ok := first.FirstChild().(*east.TaskCheckBox)
		return ok
	}
	return false
}

func (r *renderer) list(n *ast.List, outline int) {
	depth := r.listDepth
	if depth == 0 {
		r.gap(blockGap)
	} else {
		r.gap(1)
	}
	r.listDepth++
	defer func() { r.listDepth = depth }()
	num := n.Start
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		marker := bullets[depth%len(bullets)]
		if n.IsOrdered() {
			marker = strconv.Itoa(num) + "."
			num++
		}
		if item != n.FirstChild() && !n.IsTight {
			r.gap(blockGap)
		}
		if isTask(item) {
			marker = "" // the checkbox marks it
		}
		r.item(marker, item, outline)
	}
}

// item draws a list marker at the left edge and the item's blocks indented beside it.
func (r *renderer) item(marker string, item ast.Node, outline int) {
	r.setFont(sans, "", bodySize, r.color)
	w := max(listIndent, r.pdf.GetStringWidth(marker)+2.5)
	r.ensure(bodyLine * 1.5)
	y := r.pdf.GetY()
	// Beyond the deepest indentation, items stay where they are, marker and all.
	x := min(r.left, deepest-w)
	r.pdf.SetXY(x, y)
	r.pdf.CellFormat(w-1.5, bodyLine, marker, "", 0, "R", false, 0, "")
	r.indentTo(x+w, func() {
		r.pdf.SetXY(r.left, y)
		r.noGap = true
		for c := item.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, outline)
		}
		if r.noGap { // an empty item: move past its marker
			r.noGap = false
			r.pdf.SetXY(r.left, y+bodyLine)
		}
	})
}

func (r *renderer) codeBlock(n ast.Node) {
	r.gap(blockGap)
	var src strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		src.Write(seg.Value(r.src))
	}
	text := strings.TrimRight(strings.ReplaceAll(src.String(), "\r\n", "\n"), "\n")
	const pad = 2.5
	r.setFont(mono, "", codeSize, textColor)
	width := r.contentWidth()
	perLine := max(int((width-2*pad)/r.pdf.GetStringWidth("M")), 8)
	var visual []string
	for _, line := range strings.Split(text, "\n") {
		runes := []rune(plain(expandTabs(line)))
		for len(runes) > perLine {
			visual = append(visual, string(runes[:perLine]))
			runes = runes[perLine:]
		}
		visual = append(visual, string(runes))
	}

	pdf := r.pdf
	pdf.SetFillColor(codeFill.r, codeFill.g, codeFill.b)
	r.ensure(2*pad + codeLine)
	y := pdf.GetY()
	pdf.Rect(r.left, y, width, pad, "F")
	y += pad
	for _, line := range visual {
		if y+codeLine > r.pageBottom() {
			pdf.AddPage()
			y = pdf.GetY()
		}
		pdf.Rect(r.left, y, width, codeLine, "F")
		pdf.SetXY(r.left+pad, y)
		pdf.CellFormat(width-2*pad, codeLine, line, "", 0, "L", false, 0, "")
		y += codeLine
	}
	if y+pad <= r.pageBottom() {
		pdf.Rect(r.left, y, width, pad, "F")
		y += pad
	}
	pdf.SetXY(r.left, y)
}

func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, c := range s {
		if c == '\t' {
			n := 4 - col%4
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(c)
		col++
	}
	return b.String()
}

// quote draws a block quote indented, in a muted colour, with a bar down its left side on
// every PDF page it spans.
func (r *renderer) quote(n *ast.Blockquote, outline int) {
	r.gap(blockGap)
	pdf := r.pdf
	startPage, startY := pdf.PageNo(), pdf.GetY()
	barX := r.left + 1.2
	inner := min(r.left+quoteIndent, deepest)
	saved := r.color
	r.color = mutedColor
	r.indentTo(inner, func() {
		r.noGap = true
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			r.block(c, outline)
		}
		r.noGap = false
	})
	r.color = saved
	endPage, endY := pdf.PageNo(), pdf.GetY()
	if inner-barX < 2 { // nested so deep there is no room left for the bar
		pdf.SetXY(r.left, endY)
		return
	}
	pdf.SetDrawColor(borderColor.r, borderColor.g, borderColor.b)
	pdf.SetLineWidth(0.9)
	for p := startPage; p <= endPage; p++ {
		pdf.SetPage(p)
		top, bottom := marginTop, r.pageBottom()
		if p == startPage {
			top = startY
		}
		if p == endPage {
			bottom = endY
		}
		if bottom > top {
			pdf.Line(barX, top, barX, bottom)
		}
	}
	pdf.SetPage(endPage)
	pdf.SetXY(r.left, endY)
}

// htmlBlock draws the images of a raw HTML block and leaves out the rest of it.
func (r *renderer) htmlBlock(n *ast.HTMLBlock) {
	var html strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		html.Write(seg.Value(r.src))
	}
	for _, img := range htmlImages(html.String()) {
		r.gap(blockGap)
		if !r.image(img.src) {
			r.text("["+altOr(img.alt)+"]", r.muted())
			r.newline(bodyLine)
		}
	}
}

func (r *renderer) footnotes(n *east.FootnoteList, outline int) {
	r.gap(blockGap * 2)
	r.ensure(bodyLine * 2)
	r.rule(borderColor, 0.3)
	r.pdf.SetY(r.pdf.GetY() + 1)
	saved := r.color
	r.color = mutedColor
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		marker := "•"
		if fn, ok := c.(*east.Footnote); ok {
			marker = strconv.Itoa(fn.Index) + "."
		}
		r.gap(1)
		r.item(marker, c, outline)
	}
	r.color = saved
}
