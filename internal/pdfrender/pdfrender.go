// Package pdfrender turns a set of markdown pages into one PDF document, in process: a title
// page with the table of contents, then every page on pages of its own, with headings,
// paragraphs, lists, code, quotes, tables, links and images drawn from goldmark's syntax tree.
//
// Text is set in the Go fonts, embedded, which cover Latin, Greek and Cyrillic; characters
// outside them are handled as described at plain (in fonts.go). GitBook's liquid tags
// ({% hint %}, {% tabs %}, …) are left out; their content is kept.
package pdfrender

import (
	"fmt"
	"io"
	"time"

	"codeberg.org/go-pdf/fpdf"
)

// Document is what is rendered: a title and its pages in reading order.
type Document struct {
	Title string
	Pages []Page
}

// Page is one page of the document.
type Page struct {
	Title    string
	Markdown string
	// Path is the page's path in its space (e.g. "guides/install.md"), optional. Links from
	// other pages that resolve to it become links inside the PDF, and it is given to the
	// ImageResolver so relative image sources can be resolved.
	Path string
	// Depth is the page's nesting level (0 for top-level pages), optional; it indents the
	// table of contents and nests the PDF outline.
	Depth int
}

// ImageResolver returns the bytes of an image that page refers to as src (PNG, JPEG, GIF or
// WebP). An error or no bytes leaves the image out, with its alt text shown instead. It is
// called once per distinct source and page.
type ImageResolver func(page Page, src string) ([]byte, error)

// Options adjust the rendering; the zero value is valid.
type Options struct {
	PageSize string        // "A4" (default) or "Letter"
	Images   ImageResolver // nil leaves every image out, showing its alt text
	Date     time.Time     // shown on the title page and recorded as the PDF's creation date; zero means now
}

// Render writes doc as a PDF to w.
func Render(w io.Writer, doc Document, opts Options) (err error) {
	size := opts.PageSize
	switch size {
	case "":
		size = "A4"
	case "A4", "Letter":
	default:
		return fmt.Errorf("pdfrender: page size %q: want A4 or Letter", opts.PageSize)
	}
	// fpdf reports most problems through its error state, but a few inputs make it panic;
	// a document that cannot be drawn must not take the process down with it.
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("pdfrender: %v", p)
		}
	}()
	if opts.Date.IsZero() {
		opts.Date = time.Now()
	}
	images := newImageCache(opts.Images)
	// The table of contents shows where each page starts, known only once everything is
	// laid out: the first pass measures, the second draws with the numbers filled in. Both
	// lay out identically, since the numbers sit in a column of fixed width.
	first := newRenderer(doc, opts, size, images, nil, 0)
	if err := first.render(false); err != nil {
		return err
	}
	final := newRenderer(doc, opts, size, images, first.starts, first.pdf.PageCount())
	if err := final.render(true); err != nil {
		return err
	}
	if err := final.pdf.Output(w); err != nil {
		return fmt.Errorf("pdfrender: %w", err)
	}
	return nil
}

// newPDF sets up the document's pages, fonts and metadata.
func newPDF(doc Document, opts Options, size string) *fpdf.Fpdf {
	pdf := fpdf.New("P", "mm", size, "")
	pdf.SetMargins(marginX, marginTop, marginX)
	pdf.SetAutoPageBreak(true, marginBottom)
	pdf.SetCellMargin(0)     // blocks pad themselves; fpdf's default would also narrow wrapped text
	pdf.SetCatalogSort(true) // the same input gives the same bytes
	pdf.SetTitle(doc.Title, true)
	pdf.SetCreator("docsd", true)
	pdf.SetProducer("docsd", true)
	pdf.SetCreationDate(opts.Date)
	pdf.SetModificationDate(opts.Date)
	return pdf
}
