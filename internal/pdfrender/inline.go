package pdfrender

import (
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
)

// style is how a run of inline text is set.
type style struct {
	bold, italic, strike, code, muted bool
	link                              string // external URL the text points to
	linkID                            int    // or the internal link to a page of the document
	size, line                        float64
}

// base is the plain style of the current block at a size and line height.
func (r *renderer) base(size, line float64) style { return style{size: size, line: line} }

func (r *renderer) muted() style {
	st := r.base(bodySize, bodyLine)
	st.muted, st.italic = true, true
	return st
}

// inlines draws the inline children of n, flowing from the cursor.
func (r *renderer) inlines(n ast.Node, st style) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		r.inline(c, st)
	}
}

func (r *renderer) inline(n ast.Node, st style) {
	switch n := n.(type) {
	case *ast.Text:
		if l := r.liquidAt(n.Segment.Start); l != nil {
			if (l.url != "" || l.label != "") && !l.drawn {
				l.drawn = true
				r.newline(st.line)
				shown, text := st, l.url
				if l.url != "" {
					shown.link = l.url
				} else {
					shown.bold, text = true, l.label
				}
				r.text(text, shown)
				r.newline(st.line)
			}
			return
		}
		r.text(string(n.Value(r.src)), st)
		switch {
		case n.HardLineBreak():
			r.pdf.Ln(st.line)
			r.pdf.SetX(r.left)
		case n.SoftLineBreak():
			r.text(" ", st)
		}
	case *ast.String:
		r.text(string(n.Value), st)
	case *ast.CodeSpan:
		st.code = true
		r.inlines(n, st)
	case *ast.Emphasis:
		if n.Level >= 2 {
			st.bold = true
		} else {
			st.italic = true
		}
		r.inlines(n, st)
	case *east.Strikethrough:
		st.strike = true
		r.inlines(n, st)
	case *ast.Link:
		r.link(n, st)
	case *ast.AutoLink:
		label := string(n.Label(r.src))
		st.link = string(n.URL(r.src))
		if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(st.link, "mailto:") {
			st.link = "mailto:" + st.link
		}
		r.text(label, st)
	case *ast.Image:
		alt := plainText(n, r.src)
		if !r.image(string(n.Destination)) {
			r.text("["+altOr(alt)+"]", r.mutedLike(st))
		}
	case *ast.RawHTML:
		var html strings.Builder
		for i := 0; i < n.Segments.Len(); i++ {
			seg := n.Segments.At(i)
			html.Write(seg.Value(r.src))
		}
		if isBreakTag(html.String()) {
			r.pdf.Ln(st.line)
			r.pdf.SetX(r.left)
		}
		for _, img := range htmlImages(html.String()) {
			if !r.image(img.src) {
				r.text("["+altOr(img.alt)+"]", r.mutedLike(st))
			}
		}
	case *east.TaskCheckBox:
		r.checkbox(n.IsChecked, st)
	case *east.FootnoteLink:
		small := st
		small.size = st.size * 0.75
		r.text("["+strconv.Itoa(n.Index)+"]", small)
	case *east.FootnoteBacklink:
	default:
		r.inlines(n, st)
	}
}

func (r *renderer) mutedLike(st style) style {
	st.muted, st.italic, st.link, st.linkID = true, true, "", 0
	return st
}

func altOr(alt string) string {
	if alt == "" {
		return "image"
	}
	return alt
}

// link draws a link's text. A link to another page of the document jumps there inside the
// PDF; a link to the web is clickable and, where its text does not already say so, followed
// by its address, so it survives printing. Other relative links are plain text.
func (r *renderer) link(n *ast.Link, st style) {
	dest := string(n.Destination)
	if id, ok := r.pageLink(dest); ok {
		st.linkID = id
		r.inlines(n, st)
		return
	}
	u, err := url.Parse(dest)
	if err != nil || u.Scheme == "" {
		r.inlines(n, st)
		return
	}
	st.link = dest
	r.inlines(n, st)
	label := plainText(n, r.src)
	bare := strings.TrimPrefix(strings.TrimPrefix(dest, "mailto:"), "https://")
	bare = strings.TrimPrefix(bare, "http://")
	if label != dest && label != bare && strings.TrimSuffix(label, "/") != strings.TrimSuffix(bare, "/") {
		note := st
		note.link, note.bold, note.italic, note.muted = "", false, false, true
		note.size = st.size * 0.85
		r.text(" ("+dest+")", note)
	}
}

// pageLink finds the document page a relative link points to, when pages have paths.
func (r *renderer) pageLink(dest string) (int, bool) {
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" {
		return 0, false
	}
	from := r.doc.Pages[r.pageIdx].Path
	target := pathKey(path.Join(path.Dir("/"+from), u.Path))
	if strings.HasPrefix(u.Path, "/") {
		target = pathKey(u.Path)
	}
	for i, p := range r.doc.Pages {
		if p.Path != "" && pathKey("/"+p.Path) == target {
			return r.links[i], true
		}
	}
	return 0, false
}

// pathKey puts the ways GitBook links name a page (guide.md, guide, guide/README.md,
// guide/) in one form.
func pathKey(p string) string {
	p = path.Clean("/" + p)
	p = strings.TrimSuffix(p, "/README.md")
	p = strings.TrimSuffix(p, "/readme.md")
	p = strings.TrimSuffix(p, ".md")
	if p == "" || p == "/README" || p == "/readme" {
		return "/"
	}
	return p
}

// text writes s in style st, word by word, so that lines break between words (fpdf's own
// wrapping is quadratic in the length of what it is given).
func (r *renderer) text(s string, st style) {
	family, fs := sans, ""
	size := st.size
	if st.code {
		family = mono
		size *= 0.92
	}
	if st.bold {
		fs += "B"
	}
	if st.italic {
		fs += "I"
	}
	if st.link != "" || st.linkID != 0 {
		fs += "U"
	}
	if st.strike {
		fs += "S"
	}
	c := r.color
	switch {
	case st.link != "" || st.linkID != 0:
		c = linkColor
	case st.code:
		c = codeColor
	case st.muted:
		c = mutedColor
	}
	r.setFont(family, fs, size, c)
	s = plain(s)
	for len(s) > 0 {
		i := strings.IndexByte(s, ' ')
		var word string
		switch {
		case i == 0:
			word, s = " ", s[1:]
			if r.atLineStart() || (!st.code && strings.HasPrefix(s, " ")) {
				continue // no space at the start of a line, nor two in a row outside code
			}
		case i < 0:
			word, s = s, ""
		default:
			word, s = s[:i], s[i:]
			if st.link != "" || st.linkID != 0 {
				// A link's words take the space after them, so its underline runs on.
				if len(s) > 1 && s[1] != ' ' {
					word, s = word+" ", s[1:]
				}
			}
		}
		switch {
		case st.link != "":
			r.pdf.WriteLinkString(st.line, word, st.link)
		case st.linkID != 0:
			r.pdf.WriteLinkID(st.line, word, st.linkID)
		default:
			r.pdf.Write(st.line, word)
		}
	}
}

func (r *renderer) atLineStart() bool { return r.pdf.GetX() <= r.left+0.01 }

// checkbox draws a task list box, ticked when checked, as the fonts have no such glyph.
func (r *renderer) checkbox(checked bool, st style) {
	const side = 3.0
	pdf := r.pdf
	x, y := pdf.GetXY()
	top := y + (st.line-side)/2
	pdf.SetDrawColor(mutedColor.r, mutedColor.g, mutedColor.b)
	pdf.SetLineWidth(0.3)
	pdf.Rect(x, top, side, side, "D")
	if checked {
		pdf.SetLineWidth(0.45)
		pdf.Line(x+0.6, top+1.6, x+1.3, top+2.4)
		pdf.Line(x+1.3, top+2.4, x+2.5, top+0.6)
	}
	pdf.SetX(x + side + 1.5)
}
