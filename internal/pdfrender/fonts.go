package pdfrender

import (
	"strings"
	"sync"
	"unicode"

	"codeberg.org/go-pdf/fpdf"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/text/unicode/norm"
)

// The PDF embeds the Go fonts (shipped as TrueType bytes by golang.org/x/image) rather than
// using the PDF core fonts, which know only Latin-1. They cover Latin, Greek and Cyrillic
// with the usual punctuation and symbols (the WGL4 set); fpdf embeds only the glyphs used.
const (
	sans = "go"
	mono = "gomono"
)

var fontFiles = []struct {
	family, style string
	ttf           []byte
}{
	{sans, "", goregular.TTF}, {sans, "B", gobold.TTF}, {sans, "I", goitalic.TTF}, {sans, "BI", gobolditalic.TTF},
	{mono, "", gomono.TTF}, {mono, "B", gomonobold.TTF}, {mono, "I", gomonoitalic.TTF}, {mono, "BI", gomonobolditalic.TTF},
}

// loadFont adds a font to the PDF the first time it is used: fpdf's parsing of one costs
// more than laying out a short document, and most documents use only a few of the eight.
// style may carry fpdf's U and S flags, which are not fonts of their own.
func loadFont(pdf *fpdf.Fpdf, loaded map[string]bool, family, style string) {
	style = strings.NewReplacer("U", "", "S", "").Replace(style)
	if loaded[family+style] {
		return
	}
	loaded[family+style] = true
	for _, f := range fontFiles {
		if f.family == family && f.style == style {
			pdf.AddUTF8FontFromBytes(f.family, f.style, f.ttf)
		}
	}
}

// covered[r] tells whether every embedded font has a glyph for rune r, so that text can
// switch between styles without a character going missing in one of them.
var (
	coverOnce sync.Once
	covered   []bool
)

func hasGlyph(r rune) bool {
	coverOnce.Do(func() {
		covered = make([]bool, 0x10000)
		for i := range covered {
			covered[i] = true
		}
		var buf sfnt.Buffer
		for _, f := range fontFiles {
			font, err := sfnt.Parse(f.ttf)
			for i := range covered {
				if !covered[i] {
					continue
				}
				if err != nil {
					covered[i] = false
					continue
				}
				g, err := font.GlyphIndex(&buf, rune(i))
				covered[i] = err == nil && g != 0
			}
		}
	})
	return r >= 0 && int(r) < len(covered) && covered[r]
}

// Symbols that the fonts lack but that carry meaning in documentation (ticks and crosses in
// tables, task boxes), mapped to the nearest glyph the fonts have.
var symbolFallback = map[rune]string{
	'✓': "√", '✔': "√", '☑': "√", '✅': "√",
	'✗': "×", '✘': "×", '❌': "×", '☒': "×", '❎': "×",
	'☐': "□",
}

// plain makes text printable with the embedded fonts. A character the fonts lack becomes
// its compatibility decomposition when the fonts have that (ﬁ → fi, ① → 1, Å → Å); a few
// common symbols map to a near equivalent (✓ → √); emoji, pictographs and invisible format
// characters are dropped; any other character the fonts lack (CJK, Arabic, …) becomes
// U+FFFD, so the reader sees that something was there. Tabs and line breaks become spaces.
func plain(s string) string {
	ok := true
	for _, r := range s {
		if !hasGlyph(r) || r < ' ' || r == '\u00ad' {
			ok = false
			break
		}
	}
	if ok {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			b.WriteByte(' ')
		case r < ' ' || r == '\u00ad': // controls; soft hyphens would print as hyphens
		case hasGlyph(r):
			b.WriteRune(r)
		default:
			b.WriteString(substitute(r))
		}
	}
	return b.String()
}

func substitute(r rune) string {
	if s, ok := symbolFallback[r]; ok {
		return s
	}
	if d := norm.NFKD.String(string(r)); d != string(r) {
		var b strings.Builder
		for _, c := range d {
			if hasGlyph(c) {
				b.WriteRune(c)
			} else if !unicode.Is(unicode.Mn, c) {
				b.Reset()
				break
			}
		}
		if b.Len() > 0 {
			return b.String()
		}
	}
	if unicode.In(r, unicode.Cc, unicode.Mn, unicode.Me, unicode.Cf, unicode.So, unicode.Sk, unicode.Cs, unicode.Co) ||
		unicode.Is(unicode.Variation_Selector, r) || r == '\u200d' {
		return ""
	}
	return "\uFFFD"
}
