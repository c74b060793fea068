package pdfrender

import (
	"math"

	east "github.com/yuin/goldmark/extension/ast"
)

const (
	tableSize = 9.5 // pt
	tableLine = 4.6 // mm
	cellPadX  = 1.8
	cellPadY  = 1.3
)

// tableRow is a row's cell texts, cut into lines for the column widths.
type tableRow struct {
	header bool
	cells  []string
	lines  [][]string
	height float64
}

// table draws a grid: columns share the width by how much text they hold, cells wrap, and
// the header row is repeated at the top of every page the table continues on. Cells are set
// as plain text (bold in the header).
func (r *renderer) table(t *east.Table) {
	r.gap(blockGap)
	var rows []*tableRow
	cols := len(t.Alignments)
	for row := t.FirstChild(); row != nil; row = row.NextSibling() {
		tr := &tableRow{}
		_, tr.header = row.(*east.TableHeader)
		for cell := row.FirstChild(); cell != nil; cell = cell.NextSibling() {
			tr.cells = append(tr.cells, plain(plainText(cell, r.src)))
		}
		cols = max(cols, len(tr.cells))
		rows = append(rows, tr)
	}
	if cols == 0 || len(rows) == 0 {
		return
	}
	widths := r.columnWidths(rows, cols)

	pdf := r.pdf
	maxLines := max(int((r.pageBottom()-marginTop-2*cellPadY)/tableLine)-4, 1)
	for _, row := range rows {
		r.setFont(sans, fontStyle(row.header), tableSize, r.color)
		row.lines = make([][]string, cols)
		n := 1
		for c := 0; c < cols; c++ {
			text := ""
			if c < len(row.cells) {
				text = row.cells[c]
			}
			lines := pdf.SplitText(text, widths[c]-2*cellPadX)
			if len(lines) > maxLines { // a cell taller than a page is cut short
				lines = append(lines[:maxLines-1], "…")
			}
			row.lines[c] = lines
			n = max(n, len(lines))
		}
		row.height = float64(n)*tableLine + 2*cellPadY
	}

	var header *tableRow
	if rows[0].header {
		header = rows[0]
	}
	for i, row := range rows {
		need := row.height
		if row == header && i+1 < len(rows) {
			need += rows[i+1].height // keep the header with the first row
		}
		if pdf.GetY()+need > r.pageBottom() && pdf.GetY() > marginTop+0.01 {
			pdf.AddPage()
			if header != nil && i > 0 {
				r.tableRow(header, widths, t.Alignments)
			}
		}
		r.tableRow(row, widths, t.Alignments)
	}
	pdf.SetXY(r.left, pdf.GetY())
}

func fontStyle(bold bool) string {
	if bold {
		return "B"
	}
	return ""
}

// columnWidths gives each column the room its longest cell wants when everything fits;
// otherwise narrow columns keep their natural width and the wide ones share the rest in
// proportion to what they hold.
func (r *renderer) columnWidths(rows []*tableRow, cols int) []float64 {
	avail := r.contentWidth()
	natural := make([]float64, cols)
	for _, row := range rows {
		r.setFont(sans, fontStyle(row.header), tableSize, r.color)
		for c, text := range row.cells {
			natural[c] = max(natural[c], r.pdf.GetStringWidth(text)+2*cellPadX+0.5)
		}
	}
	total := 0.0
	for c := range natural {
		natural[c] = max(natural[c], 8)
		total += natural[c]
	}
	widths := make([]float64, cols)
	if total <= avail {
		for c := range natural { // stretch to the full width, keeping proportions
			widths[c] = natural[c] * avail / total
		}
		return widths
	}
	share := avail / float64(cols)
	rest, wide := avail, 0.0
	for c, w := range natural {
		if w <= share {
			widths[c] = w
			rest -= w
		} else {
			wide += math.Sqrt(w)
		}
	}
	for c, w := range natural {
		if w > share {
			widths[c] = rest * math.Sqrt(w) / wide
		}
	}
	return widths
}

// tableRow draws one row at the cursor and moves below it.
func (r *renderer) tableRow(row *tableRow, widths []float64, aligns []east.Alignment) {
	pdf := r.pdf
	y := pdf.GetY()
	x := r.left
	pdf.SetDrawColor(borderColor.r, borderColor.g, borderColor.b)
	pdf.SetLineWidth(0.25)
	pdf.SetFillColor(headerFill.r, headerFill.g, headerFill.b)
	r.setFont(sans, fontStyle(row.header), tableSize, r.color)
	for c, w := range widths {
		box := "D"
		if row.header {
			box = "FD"
		}
		pdf.Rect(x, y, w, row.height, box)
		align := "L"
		if c < len(aligns) {
			switch aligns[c] {
			case east.AlignCenter:
				align = "C"
			case east.AlignRight:
				align = "R"
			}
		}
		for i, line := range row.lines[c] {
			pdf.SetXY(x+cellPadX, y+cellPadY+float64(i)*tableLine)
			pdf.CellFormat(w-2*cellPadX, tableLine, line, "", 0, align, false, 0, "")
		}
		x += w
	}
	pdf.SetXY(r.left, y+row.height)
}
