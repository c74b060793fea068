// Package docxtest writes small Word documents for tests, part by part as Word lays them out
// (WordprocessingML in a zip), so that the converter is tested on the format itself rather
// than on its own output.
package docxtest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// NeedPandoc skips a test that converts .docx files when pandoc is not installed, unless
// DOCSD_TEST_PANDOC=required (as CI sets it, having installed pandoc), which fails it.
func NeedPandoc(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("pandoc"); err != nil {
		if os.Getenv("DOCSD_TEST_PANDOC") == "required" {
			tb.Fatal("DOCSD_TEST_PANDOC=required but pandoc is not installed (apt-get install pandoc)")
		}
		tb.Skip("pandoc not installed")
	}
}

// Doc is what a test document holds: a title (Heading 1), a paragraph with a link, a
// section (Heading 2) with a bulleted and a numbered list, a table and an image.
type Doc struct {
	Title    string
	Intro    string // before the link
	LinkText string
	LinkURL  string
	Section  string
	Bullets  []string
	Steps    []string
	Table    [][]string // first row is the header
	ImageAlt string
}

// Sample is a document with something of each kind.
func Sample() Doc {
	return Doc{
		Title: "Release guide", Intro: "Read the notes at", LinkText: "the changelog", LinkURL: "https://example.com/changelog",
		Section: "Before you start", Bullets: []string{"Back up the data", "Tell the team"},
		Steps: []string{"Stop the server", "Install the update"},
		Table: [][]string{{"Version", "Date"}, {"2.0", "March"}, {"2.1", "June"}}, ImageAlt: "Architecture diagram",
	}
}

// ImageWidth and ImageHeight are the pixel size of the document's image.
const ImageWidth, ImageHeight = 6, 4

// Build writes the document as a .docx file.
func (d Doc) Build() ([]byte, error) {
	var img bytes.Buffer
	m := image.NewRGBA(image.Rect(0, 0, ImageWidth, ImageHeight))
	for x := range ImageWidth {
		for y := range ImageHeight {
			m.Set(x, y, color.RGBA{R: 200, G: uint8(40 * y), B: 30, A: 255})
		}
	}
	if err := png.Encode(&img, m); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	parts := []struct {
		name string
		data []byte
	}{
		{"[Content_Types].xml", []byte(contentTypes)},
		{"_rels/.rels", []byte(rootRels)},
		{"word/_rels/document.xml.rels", []byte(fmt.Sprintf(documentRels, esc(d.LinkURL)))},
		{"word/styles.xml", []byte(styles)},
		{"word/numbering.xml", []byte(numbering)},
		{"word/document.xml", []byte(d.document())},
		{"word/media/image1.png", img.Bytes()},
	}
	for _, p := range parts {
		w, err := zw.Create(p.name)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write(p.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func (d Doc) document() string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"
 xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"
 xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
 xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"
 xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><w:body>`)
	styled := func(style, text string) {
		fmt.Fprintf(&b, `<w:p><w:pPr><w:pStyle w:val="%s"/></w:pPr><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, style, esc(text))
	}
	listItem := func(numID int, text string) {
		fmt.Fprintf(&b, `<w:p><w:pPr><w:pStyle w:val="ListParagraph"/><w:numPr><w:ilvl w:val="0"/><w:numId w:val="%d"/></w:numPr></w:pPr><w:r><w:t xml:space="preserve">%s</w:t></w:r></w:p>`, numID, esc(text))
	}
	styled("Heading1", d.Title)
	fmt.Fprintf(&b, `<w:p><w:r><w:t xml:space="preserve">%s </w:t></w:r><w:hyperlink r:id="rIdLink"><w:r><w:rPr><w:rStyle w:val="Hyperlink"/></w:rPr><w:t>%s</w:t></w:r></w:hyperlink><w:r><w:t>.</w:t></w:r></w:p>`,
		esc(d.Intro), esc(d.LinkText))
	styled("Heading2", d.Section)
	for _, s := range d.Bullets {
		listItem(1, s)
	}
	b.WriteString(`<w:p><w:r><w:t>Then:</w:t></w:r></w:p>`)
	for _, s := range d.Steps {
		listItem(2, s)
	}
	b.WriteString(`<w:tbl><w:tblPr><w:tblStyle w:val="TableGrid"/><w:tblW w:w="0" w:type="auto"/><w:tblLook w:firstRow="1"/></w:tblPr><w:tblGrid>`)
	for range d.Table[0] {
		b.WriteString(`<w:gridCol w:w="3000"/>`)
	}
	b.WriteString(`</w:tblGrid>`)
	for i, row := range d.Table {
		b.WriteString(`<w:tr>`)
		if i == 0 {
			b.WriteString(`<w:trPr><w:tblHeader/></w:trPr>`)
		}
		for _, cell := range row {
			fmt.Fprintf(&b, `<w:tc><w:tcPr><w:tcW w:w="3000" w:type="dxa"/></w:tcPr><w:p><w:r><w:t>%s</w:t></w:r></w:p></w:tc>`, esc(cell))
		}
		b.WriteString(`</w:tr>`)
	}
	b.WriteString(`</w:tbl>`)
	// 9525 EMU to a pixel at 96 dpi.
	fmt.Fprintf(&b, `<w:p><w:r><w:drawing><wp:inline><wp:extent cx="%d" cy="%d"/><wp:docPr id="1" name="Picture 1" descr="%s"/>`+
		`<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>`+
		`<pic:nvPicPr><pic:cNvPr id="1" name="image1.png" descr="%s"/><pic:cNvPicPr/></pic:nvPicPr>`+
		`<pic:blipFill><a:blip r:embed="rIdImg"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>`+
		`<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="%d" cy="%d"/></a:xfrm><a:prstGeom prst="rect"/></pic:spPr>`+
		`</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>`,
		ImageWidth*9525, ImageHeight*9525, esc(d.ImageAlt), esc(d.ImageAlt), ImageWidth*9525, ImageHeight*9525)
	b.WriteString(`<w:sectPr/></w:body></w:document>`)
	return b.String()
}

func esc(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

const contentTypes = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Default Extension="png" ContentType="image/png"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/word/numbering.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.numbering+xml"/>
</Types>`

const rootRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`

const documentRels = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rIdStyles" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<Relationship Id="rIdNumbering" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>
<Relationship Id="rIdImg" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="media/image1.png"/>
<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="%s" TargetMode="External"/>
</Relationships>`

const styles = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="0"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="1"/></w:pPr></w:style>
<w:style w:type="paragraph" w:styleId="ListParagraph"><w:name w:val="List Paragraph"/><w:basedOn w:val="Normal"/></w:style>
<w:style w:type="character" w:styleId="Hyperlink"><w:name w:val="Hyperlink"/></w:style>
<w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/></w:style>
</w:styles>`

const numbering = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:numbering xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">
<w:abstractNum w:abstractNumId="0"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="•"/></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>
</w:numbering>`
