package pdfrender

import (
	"fmt"
	"strconv"
	"time"

	"codeberg.org/go-pdf/fpdf"
	"github.com/yuin/goldmark/ast"
)

// Measures in millimetres and points, and colours, in one place.
const (
	marginX      = 20.0
	marginTop    = 20.0
	marginBottom = 20.0

	bodySize  = 10.5 // pt
	bodyLine  = 5.2  // mm between baselines of body text
	codeSize  = 8.8
	codeLine  = 4.3
	smallSize = 8.5

	blockGap    = 3.0 // between paragraphs and other blocks
	listIndent  = 6.0
	quoteIndent = 6.0
	maxIndent   = 60.0 // nesting deeper than this stops moving right
)

type rgb struct{ r, g, b int }

var (
	textColor   = rgb{33, 37, 41}
	mutedColor  = rgb{106, 115, 125}
	linkColor   = rgb{3, 102, 214}
	codeColor   = rgb{175, 0, 70}
	codeFill    = rgb{243, 244, 246}
	borderColor = rgb{208, 215, 222}
	headerFill  = rgb{236, 239, 242}
)

// renderer draws one pass of a document.
type renderer struct {
	pdf    *fpdf.Fpdf
	doc    Document
	images *imageCache
	fonts  map[string]bool // fonts added to pdf so far
	date   time.Time

	known     []int // first PDF page of each document page, from the measuring pass
	knownPage int   // page count from the measuring pass; 0 while measuring
	starts    []int // first PDF page of each document page, recorded in this pass
	links     []int // internal link ids, one per document page

	// State of the page being drawn.
	pageIdx   int
	src       []byte
	left      float64      // left edge of the current block: margin plus indentation
	color     rgb          // colour of plain text in the current block
	noGap     bool         // the next block starts right where the cursor is (first block in a list item)
	listDepth int          // lists around the current block, for the choice of bullet
	liquid    []liquidLine // liquid tag lines of the paragraph being drawn
}

func newRenderer(doc Document, opts Options, size string, images *imageCache, known []int, knownPages int) *renderer {
	r := &renderer{pdf: newPDF(doc, opts, size), doc: doc, images: images, date: opts.Date, fonts: map[string]bool{}, known: known, knownPage: knownPages}
	r.links = make([]int, len(doc.Pages))
	for i := range r.links {
		r.links[i] = r.pdf.AddLink()
	}
	r.starts = make([]int, len(doc.Pages))
	r.pdf.SetFooterFunc(r.footer)
	return r
}

// render lays the document out; finish completes the PDF for output, which the measuring
// pass does without.
func (r *renderer) render(finish bool) error {
	r.titlePage()
	for i, p := range r.doc.Pages {
		r.page(i, p)
		if err := r.pdf.Error(); err != nil {
			return fmt.Errorf("pdfrender: page %d (%s): %w", i+1, p.Title, err)
		}
	}
	if finish {
		r.pdf.Close()
	}
	if err := r.pdf.Error(); err != nil {
		return fmt.Errorf("pdfrender: %w", err)
	}
	return nil
}

// footer numbers every page but the title page.
func (r *renderer) footer() {
	n := r.pdf.PageNo()
	if n == 1 {
		return
	}
	r.pdf.SetY(-marginBottom + 6)
	r.setFont(sans, "", smallSize, mutedColor)
	label := strconv.Itoa(n)
	if r.knownPage > 0 {
		label += " / " + strconv.Itoa(r.knownPage)
	}
	r.pdf.CellFormat(0, 5, label, "", 0, "C", false, 0, "")
}

func (r *renderer) setFont(family, style string, size float64, c rgb) {
	loadFont(r.pdf, r.fonts, family, style)
	r.pdf.SetFont(family, style, size)
	r.pdf.SetTextColor(c.r, c.g, c.b)
}

// contentWidth is the room between the current left edge and the right margin.
func (r *renderer) contentWidth() float64 {
	w, _ := r.pdf.GetPageSize()
	return w - marginX - r.left
}

func (r *renderer) pageBottom() float64 {
	_, h := r.pdf.GetPageSize()
	return h - marginBottom
}

// ensure starts a new page unless h millimetres still fit on this one.
func (r *renderer) ensure(h float64) {
	if r.pdf.GetY()+h > r.pageBottom() {
		r.pdf.AddPage()
		r.pdf.SetX(r.left)
	}
}

// gap separates a block from the one before it, except at the top of a page.
func (r *renderer) gap(h float64) {
	if r.noGap {
		r.noGap = false
		return
	}
	if r.pdf.GetY() <= marginTop+0.01 {
		return
	}
	r.pdf.SetY(r.pdf.GetY() + h)
	r.pdf.SetX(r.left)
}

// deepest is the furthest right a block's left edge goes, so deep nesting keeps room for text.
const deepest = marginX + maxIndent

// indentTo runs fn with the left edge at x.
func (r *renderer) indentTo(x float64, fn func()) {
	saved := r.left
	r.left = x
	r.pdf.SetLeftMargin(r.left)
	r.pdf.SetX(r.left)
	fn()
	r.left = saved
	r.pdf.SetLeftMargin(saved)
	if r.pdf.GetX() < saved {
		r.pdf.SetX(saved)
	}
}

// newline ends the current line of text if anything is on it.
func (r *renderer) newline(h float64) {
	if r.pdf.GetX() > r.left+0.01 {
		r.pdf.Ln(h)
	}
	r.pdf.SetX(r.left)
}

// rule draws a horizontal line across the content width at the current y.
func (r *renderer) rule(c rgb, width float64) {
	y := r.pdf.GetY()
	pw, _ := r.pdf.GetPageSize()
	r.pdf.SetDrawColor(c.r, c.g, c.b)
	r.pdf.SetLineWidth(width)
	r.pdf.Line(r.left, y, pw-marginX, y)
}

// titlePage draws the document title and the table of contents.
func (r *renderer) titlePage() {
	pdf := r.pdf
	pdf.AddPage()
	r.left = marginX
	_, ph := pdf.GetPageSize()
	title := r.doc.Title
	if title == "" {
		title = "Untitled"
	}
	pdf.SetY(ph * 0.28)
	r.setFont(sans, "B", 28, textColor)
	pdf.MultiCell(0, 12, plain(title), "", "C", false)
	pdf.Ln(4)
	r.rule(borderColor, 0.4)
	pdf.Ln(4)
	r.setFont(sans, "", bodySize, mutedColor)
	pdf.CellFormat(0, bodyLine, r.date.Format("2 January 2006"), "", 1, "C", false, 0, "")
	if len(r.doc.Pages) == 0 {
		return
	}
	pdf.AddPage()
	r.setFont(sans, "B", 18, textColor)
	pdf.CellFormat(0, 10, "Contents", "", 1, "L", false, 0, "")
	pdf.Ln(2)
	for i, p := range r.doc.Pages {
		r.tocEntry(i, p)
	}
}

// tocEntry writes one line of the table of contents: the title, cut to one line, linked to
// its page, and the page number in a column of fixed width.
func (r *renderer) tocEntry(i int, p Page) {
	const numW, lineH = 14.0, 6.5
	pdf := r.pdf
	indent := min(float64(max(p.Depth, 0))*5, maxIndent)
	style := ""
	if p.Depth <= 0 {
		style = "B"
	}
	r.setFont(sans, style, bodySize, textColor)
	pw, _ := pdf.GetPageSize()
	w := pw - 2*marginX - indent - numW
	title := plain(pageTitle(p))
	if lines := pdf.SplitText(title, w); len(lines) > 1 {
		title = lines[0] + "…"
	}
	r.ensure(lineH)
	pdf.SetX(marginX + indent)
	pdf.CellFormat(w, lineH, title, "", 0, "L", false, r.links[i], "")
	num := ""
	if r.known != nil {
		num = strconv.Itoa(r.known[i])
	}
	r.setFont(sans, "", bodySize, mutedColor)
	pdf.CellFormat(numW, lineH, num, "", 1, "R", false, r.links[i], "")
}

func pageTitle(p Page) string {
	if p.Title == "" {
		return "Untitled"
	}
	return p.Title
}

// page draws one document page, starting on a new PDF page.
func (r *renderer) page(i int, p Page) {
	pdf := r.pdf
	pdf.AddPage()
	r.pageIdx, r.left, r.color, r.noGap = i, marginX, textColor, false
	pdf.SetLeftMargin(marginX)
	r.starts[i] = pdf.PageNo()
	pdf.SetLink(r.links[i], -1, -1)
	level := r.outlineLevel(i)
	pdf.Bookmark(plain(pageTitle(p)), level, -1)
	r.setFont(sans, "B", 22, textColor)
	pdf.MultiCell(0, 10, plain(pageTitle(p)), "", "L", false)
	pdf.Ln(1.5)
	r.rule(borderColor, 0.3)
	pdf.Ln(4)

	r.src = []byte(p.Markdown)
	root := parse(r.src)
	skipFirst := firstHeadingRepeats(root, r.src, p.Title)
	for n := root.FirstChild(); n != nil; n = n.NextSibling() {
		if n == skipFirst {
			continue
		}
		r.block(n, level+1)
	}
}

// outlineLevel nests a page's bookmark under the page before it, at most one level deeper,
// as PDF outlines require.
func (r *renderer) outlineLevel(i int) int {
	level := 0
	for j := 0; j <= i; j++ {
		d := max(r.doc.Pages[j].Depth, 0)
		if j == 0 {
			level = 0
		} else {
			level = min(d, level+1)
		}
	}
	return level
}

// firstHeadingRepeats returns the page's first block when it is a heading that only repeats
// the page title (GitBook pages usually start with "# Title"), so it is not drawn twice.
func firstHeadingRepeats(root ast.Node, src []byte, title string) ast.Node {
	h, ok := root.FirstChild().(*ast.Heading)
	if !ok || h.Level != 1 || plainText(h, src) != title {
		return nil
	}
	return h
}
