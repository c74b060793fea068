package markdoc

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"golang.org/x/text/unicode/norm"
)

// headingIDs gives every heading an anchor id, unique in the page and matching the public
// API's pattern for heading ids (^[-a-z0-9.+_]+$). An id written in the markdown wins: either
// a `{#id}` attribute, or the empty anchor GitBook's exports end a heading with,
// `## Title <a href="#id" id="id"></a>`, which is removed from the heading's text. Other
// headings get a slug of their text ("Getting started" → "getting-started"); a repeated slug
// takes a suffix ("-1", "-2", ...), as GitHub does.
type headingIDs struct{}

// explicitIDAttr marks a heading whose id the markdown gave, for the document's data.id.
var explicitIDAttr = []byte("explicit-id") // not an HTML attribute: the renderer skips it

func (headingIDs) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var headings []*ast.Heading
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if h, ok := n.(*ast.Heading); ok && entering {
			headings = append(headings, h)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	used := map[string]bool{}
	next := map[string]int{} // the next suffix to try for a repeated slug
	explicit := make([]string, len(headings))
	// Written ids are claimed first, so a generated id never takes one a link may point at.
	for i, h := range headings {
		id := trailingAnchorID(h, src)
		if v, ok := h.AttributeString("id"); ok && id == "" {
			if b, isBytes := v.([]byte); isBytes {
				id = Slugify(string(b))
			}
		}
		if id != "" && !used[id] {
			explicit[i] = id
			used[id] = true
		}
	}
	for i, h := range headings {
		id := explicit[i]
		if id != "" {
			h.SetAttribute(explicitIDAttr, []byte("true"))
		} else {
			id = uniqueID(headingSlug(inlineText(h, src)), used, next)
		}
		h.SetAttributeString("id", []byte(id))
	}
}

// headingSlug is the generated id of a heading; text without a single letter or digit of the
// Latin alphabet (a heading in Japanese, say) gets a short hash of itself instead.
func headingSlug(title string) string {
	if s := Slugify(title); s != "" {
		return s
	}
	sum := sha256.Sum256([]byte(collapseSpace(title)))
	return "h-" + hex.EncodeToString(sum[:4])
}

func uniqueID(base string, used map[string]bool, next map[string]int) string {
	id := base
	for used[id] {
		next[base]++
		id = base + "-" + strconv.Itoa(next[base])
	}
	used[id] = true
	return id
}

// Slugify lowercases s, drops accents, keeps ASCII letters, digits, '_' and '.', and joins
// the words with single hyphens: "Héllo, World!" → "hello-world". Text with none of those
// characters gives "".
func Slugify(s string) string {
	var b strings.Builder
	hyphen := false
	for _, r := range norm.NFKD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
			continue
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_', r == '.':
		case r >= 'A' && r <= 'Z':
			r = unicode.ToLower(r)
		default:
			hyphen = b.Len() > 0
			continue
		}
		if hyphen {
			b.WriteByte('-')
			hyphen = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

var anchorOpen = regexp.MustCompile(`^<a\s[^>]*\bid\s*=\s*["']([^"']+)["'][^>]*>$`)

// trailingAnchorID finds the `<a ... id="x"></a>` GitBook ends a heading with, removes it and
// the space before it, and returns its id slugified ("" when there is none).
func trailingAnchorID(h *ast.Heading, src []byte) string {
	last, ok := h.LastChild().(*ast.RawHTML)
	if !ok || strings.TrimSpace(string(last.Segments.Value(src))) != "</a>" {
		return ""
	}
	open, ok := last.PreviousSibling().(*ast.RawHTML)
	if !ok {
		return ""
	}
	m := anchorOpen.FindStringSubmatch(strings.TrimSpace(string(open.Segments.Value(src))))
	if m == nil {
		return ""
	}
	h.RemoveChild(h, last)
	h.RemoveChild(h, open)
	if t, ok := h.LastChild().(*ast.Text); ok {
		t.Segment = t.Segment.TrimRightSpace(src)
	}
	return Slugify(m[1])
}
