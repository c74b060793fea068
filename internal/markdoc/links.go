package markdoc

import (
	"net/url"
	"path"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Kinds of link targets.
const (
	LinkPage   = "page"   // a relative path to another page: "setup.md", "../guides/", "intro"
	LinkFile   = "file"   // a relative path to a file: ".gitbook/assets/logo.png", "data.csv"
	LinkAnchor = "anchor" // a heading of the same page: "#install"
	LinkURL    = "url"    // an absolute URL: "https://...", "mailto:..."
)

// Link is a reference from a page to something else: a link, an image, or the target of a
// GitBook tag ({% embed url %}, {% file src %}, {% content-ref url %}).
type Link struct {
	Kind string `json:"kind"`
	// Dest is the destination as written, escapes resolved.
	Dest string `json:"dest"`
	// Path is the target's path for page and file links, percent-decoded, without query
	// or fragment.
	Path string `json:"path,omitempty"`
	// Anchor is the fragment after '#', if any.
	Anchor string `json:"anchor,omitempty"`
	// Text is the link's text, or an image's description.
	Text string `json:"text,omitempty"`
	// Image is set for images.
	Image bool `json:"image,omitempty"`
	// Line is the line of the markdown the reference is on, from 1.
	Line int `json:"line"`
}

// Links returns the page's links and images in the order they appear. Link reference
// definitions count where they are used; an empty destination is not a link.
func Links(markdown string) []Link {
	p := parse(markdown)
	lines := lineStarts(p.src)
	var out []Link
	add := func(dest, text string, image bool, pos int) {
		if l, ok := ParseLink(dest); ok {
			l.Text, l.Image, l.Line = collapseSpace(text), image, lineOf(lines, pos)
			out = append(out, l)
		}
	}
	_ = ast.Walk(p.root, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.Link:
			add(unescapeMarkdown(n.Destination), inlineText(n, p.src), false, inlinePos(n))
		case *ast.Image:
			add(unescapeMarkdown(n.Destination), inlineText(n, p.src), true, inlinePos(n))
		case *ast.AutoLink:
			dest := string(n.URL(p.src))
			if n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
				dest = "mailto:" + dest
			}
			add(dest, string(n.Label(p.src)), false, inlinePos(n))
		case *ast.RawHTML:
			for _, h := range htmlLinks(string(n.Segments.Value(p.src))) {
				add(h.dest, h.text, h.image, inlinePos(n))
			}
		case *ast.HTMLBlock:
			raw := htmlBlockText(n, p.src)
			for _, h := range htmlLinks(raw) {
				add(h.dest, h.text, h.image, blockPos(n)+h.offset)
			}
		case *tagBlock:
			for _, a := range []string{"url", "src"} {
				if dest := n.Attrs[a]; dest != "" {
					add(dest, "", false, blockPos(n))
				}
			}
		}
		return ast.WalkContinue, nil
	})
	return out
}

// ParseLink classifies a link destination as written in markdown, as Links does; it reports
// false for an empty destination. Options.Ref functions can use it to resolve destinations
// the same way.
func ParseLink(dest string) (Link, bool) {
	dest = strings.TrimSpace(dest)
	if dest == "" {
		return Link{}, false
	}
	l := Link{Dest: dest}
	if anchor, ok := strings.CutPrefix(dest, "#"); ok {
		l.Kind, l.Anchor = LinkAnchor, anchor
		return l, true
	}
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || strings.HasPrefix(dest, "//") {
		l.Kind = LinkURL
		return l, true
	}
	l.Path, l.Anchor = u.Path, u.Fragment
	ext := strings.ToLower(path.Ext(l.Path))
	switch {
	case strings.Contains(l.Path, ".gitbook/assets/"):
		l.Kind = LinkFile
	case ext == ".md" || ext == ".markdown" || ext == "" || strings.HasSuffix(l.Path, "/"):
		l.Kind = LinkPage
	default:
		l.Kind = LinkFile
	}
	return l, true
}

// Resolve returns the path, from the root of the content, of what a page or file link points
// at, given the path of the page it is written in ("guides/setup.md"). A path starting with
// "/" is taken from the root, and a link to a directory ("guides/", "..") points at the
// directory's README.md, GitBook's page for a directory. It reports false for other kinds of
// links and for paths that climb above the root.
func (l Link) Resolve(pagePath string) (string, bool) {
	if l.Kind != LinkPage && l.Kind != LinkFile {
		return "", false
	}
	var parts []string
	if dir := path.Dir(pagePath); !strings.HasPrefix(l.Path, "/") && dir != "." && dir != "/" {
		parts = strings.Split(strings.Trim(dir, "/"), "/")
	}
	segments := strings.Split(l.Path, "/")
	for _, seg := range segments {
		switch seg {
		case "", ".":
		case "..":
			if len(parts) == 0 {
				return "", false
			}
			parts = parts[:len(parts)-1]
		default:
			parts = append(parts, seg)
		}
	}
	if last := segments[len(segments)-1]; last == "" || last == "." || last == ".." {
		parts = append(parts, "README.md")
	}
	return strings.Join(parts, "/"), true
}

type htmlLink struct {
	dest, text string
	image      bool
	offset     int // bytes from the start of the HTML
}

// htmlLinks returns the <a href> and <img src> of a piece of HTML.
func htmlLinks(raw string) []htmlLink {
	var out []htmlLink
	z := html.NewTokenizer(strings.NewReader(raw))
	offset := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return out
		}
		start := offset
		offset += len(z.Raw())
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		t := z.Token()
		switch t.DataAtom {
		case atom.A:
			if href := attr(t, "href"); href != "" {
				out = append(out, htmlLink{dest: href, offset: start})
			}
		case atom.Img:
			if src := attr(t, "src"); src != "" {
				out = append(out, htmlLink{dest: src, text: attr(t, "alt"), image: true, offset: start})
			}
		}
	}
}

// lineStarts returns the offset at which each line of src starts.
func lineStarts(src []byte) []int {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// lineOf returns the line, from 1, of a byte offset.
func lineOf(starts []int, pos int) int {
	if pos < 0 {
		return 0
	}
	return sort.Search(len(starts), func(i int) bool { return starts[i] > pos })
}

// inlinePos returns the offset of an inline node, from its own position or its first text.
func inlinePos(n ast.Node) int {
	if p := n.Pos(); p >= 0 {
		return p
	}
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			return t.Segment.Start
		}
	}
	if n.Parent() != nil {
		return blockPos(n.Parent())
	}
	return -1
}

// blockPos returns the offset of a block: its position, or its first line's.
func blockPos(n ast.Node) int {
	for ; n != nil; n = n.Parent() {
		if p := n.Pos(); p >= 0 {
			return p
		}
		if n.Type() == ast.TypeBlock && n.Lines().Len() > 0 {
			return n.Lines().At(0).Start
		}
	}
	return -1
}
