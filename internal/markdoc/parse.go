package markdoc

import (
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// markdown is the one goldmark configuration every function of the package reads with, so
// the document, the HTML, the sections and the links of a page always agree. goldmark keeps
// per-parse state in a parser.Context, so one instance serves concurrent calls.
var markdown = goldmark.New(
	goldmark.WithExtensions(extension.GFM, extension.Footnote, gitbookExtension{}),
	goldmark.WithParserOptions(parser.WithAttribute()),
	// Raw HTML is kept in the rendering and removed or kept by the sanitizer in ToHTML, which
	// is the one place that decides what is safe.
	goldmark.WithRendererOptions(html.WithUnsafe()),
)

// gitbookExtension adds GitBook's block tags, `$$` math and our heading anchors.
type gitbookExtension struct{}

func (gitbookExtension) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			util.Prioritized(tagParser{}, 150),
			util.Prioritized(mathBlockParser{}, 160),
		),
		parser.WithInlineParsers(util.Prioritized(inlineMathParser{}, 150)),
		parser.WithASTTransformers(util.Prioritized(headingIDs{}, 100)),
	)
	m.Renderer().AddOptions(renderer.WithNodeRenderers(util.Prioritized(htmlExtras{}, 100)))
}

// parsed is a page's markdown and its goldmark tree.
type parsed struct {
	src  []byte
	root ast.Node
}

// parse reads a page's markdown, less any front matter.
func parse(src string) parsed {
	b := []byte(withoutFrontMatter(src))
	return parsed{src: b, root: markdown.Parser().Parse(text.NewReader(b))}
}
