package pdfrender

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"

	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/text"
)

// markdown parses GitHub-flavoured markdown (tables, strikethrough, task lists, autolinks)
// with footnotes, as GitBook writes it. A goldmark parser is safe for concurrent use.
var markdown = goldmark.New(goldmark.WithExtensions(extension.GFM, extension.Footnote))

func parse(src []byte) ast.Node {
	return markdown.Parser().Parse(text.NewReader(src))
}

// plainText is the text of an inline subtree, without formatting: for table cells, titles,
// bookmarks.
func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	var walk func(ast.Node)
	walk = func(n ast.Node) {
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			switch c := c.(type) {
			case *ast.Text:
				b.Write(c.Value(src))
				if c.SoftLineBreak() || c.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(c.Value)
			case *ast.AutoLink:
				b.Write(c.Label(src))
			case *ast.RawHTML, *east.FootnoteBacklink:
			case *east.TaskCheckBox:
				if c.IsChecked {
					b.WriteString("[x] ")
				} else {
					b.WriteString("[ ] ")
				}
			default:
				walk(c)
			}
		}
	}
	walk(n)
	return strings.TrimSpace(b.String())
}

// GitBook keeps its own blocks in liquid tags on lines of their own ({% hint style="info" %},
// {% endhint %}, {% tabs %}, {% embed url="…" %}). The PDF keeps what they enclose and drops
// the tags, but an embed becomes its URL.
var (
	liquidRe = regexp.MustCompile(`^\s*\{%-?\s*([a-zA-Z]+)(.*?)-?%\}\s*$`)
	embedRe  = regexp.MustCompile(`url\s*=\s*"([^"]*)"`)
)

// liquidTag reports whether s is a whole liquid tag, and for an embed, its URL.
func liquidTag(s string) (tag bool, embedURL string) {
	m := liquidRe.FindStringSubmatch(s)
	if m == nil {
		return false, ""
	}
	if m[1] == "embed" {
		if u := embedRe.FindStringSubmatch(m[2]); u != nil {
			return true, u[1]
		}
	}
	return true, ""
}

// liquidLabel is the text a tag line shows of its own in the PDF: a changelog entry's date
// and tags ({% update date="2024-05-01" tags="api" %} shows "2024-05-01 · api"); "" for
// other tags.
func liquidLabel(s string) string {
	m := liquidRe.FindStringSubmatch(s)
	if m == nil || m[1] != "update" {
		return ""
	}
	attrs := map[string]string{}
	for _, a := range updateAttrRe.FindAllStringSubmatch(m[2], -1) {
		attrs[a[1]] = a[2]
	}
	var parts []string
	for _, v := range []string{attrs["date"], attrs["tags"]} {
		if v != "" {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " · ")
}

var updateAttrRe = regexp.MustCompile(`\b(date|tags)\s*=\s*"([^"]*)"`)

// htmlImages finds the <img> tags of raw HTML (GitBook wraps images in <figure>), with
// their sources and alt texts.
var (
	imgTagRe  = regexp.MustCompile(`(?is)<img\b[^>]*>`)
	imgAttrRe = regexp.MustCompile(`(?is)\b(src|alt)\s*=\s*("([^"]*)"|'([^']*)')`)
)

type htmlImage struct{ src, alt string }

func htmlImages(html string) []htmlImage {
	var out []htmlImage
	for _, tag := range imgTagRe.FindAllString(html, -1) {
		var img htmlImage
		for _, a := range imgAttrRe.FindAllStringSubmatch(tag, -1) {
			v := a[3] + a[4]
			if strings.EqualFold(a[1], "src") {
				img.src = v
			} else {
				img.alt = v
			}
		}
		if img.src != "" {
			out = append(out, img)
		}
	}
	return out
}

// isBreakTag reports whether raw inline HTML is a line break.
func isBreakTag(html string) bool {
	s := strings.ToLower(strings.Join(strings.Fields(html), ""))
	return s == "<br>" || s == "<br/>"
}
