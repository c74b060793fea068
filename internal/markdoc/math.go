package markdoc

import (
	"bytes"
	"regexp"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// GitBook writes TeX formulas between `$$`: on fence lines of their own for a math block,
// inside a line for inline math.

var (
	kindMathBlock  = ast.NewNodeKind("MathBlock")
	kindInlineMath = ast.NewNodeKind("InlineMath")
)

// mathBlock holds the lines of a formula between two `$$` lines.
type mathBlock struct {
	ast.BaseBlock
}

func (n *mathBlock) Kind() ast.NodeKind { return kindMathBlock }
func (n *mathBlock) IsRaw() bool        { return true }
func (n *mathBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, nil, nil)
}

// formula returns the TeX of the block.
func (n *mathBlock) formula(source []byte) string {
	var b bytes.Buffer
	for i := 0; i < n.Lines().Len(); i++ {
		seg := n.Lines().At(i)
		b.Write(seg.Value(source))
	}
	return string(bytes.TrimSpace(b.Bytes()))
}

// inlineMath is a `$$formula$$` span.
type inlineMath struct {
	ast.BaseInline
	Formula string
}

func (n *inlineMath) Kind() ast.NodeKind { return kindInlineMath }
func (n *inlineMath) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Formula": n.Formula}, nil)
}

var (
	mathFence     = regexp.MustCompile(`^[ \t]{0,3}\$\$[ \t]*\r?\n?$`)
	mathFenceScan = regexp.MustCompile(`(?m)^[ \t]{0,3}\$\$[ \t]*\r?$`)
	mathFencesKey = parser.NewContextKey()
)

type mathBlockParser struct{}

func (mathBlockParser) Trigger() []byte { return []byte{'$'} }

func (mathBlockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	if !mathFence.Match(line) {
		return nil, parser.NoChildren
	}
	// Without a closing fence the line is text, not a formula running to the end of the page.
	fences := pc.ComputeIfAbsent(mathFencesKey, func() any {
		var starts []int
		for _, m := range mathFenceScan.FindAllIndex(reader.Source(), -1) {
			starts = append(starts, m[0])
		}
		return starts
	}).([]int)
	if next(fences, segment.Start) < 0 {
		return nil, parser.NoChildren
	}
	reader.AdvanceToEOL()
	return &mathBlock{}, parser.NoChildren
}

func (mathBlockParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, segment := reader.PeekLine()
	if mathFence.Match(line) {
		reader.AdvanceToEOL()
		return parser.Close
	}
	node.Lines().Append(segment)
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (mathBlockParser) Close(ast.Node, text.Reader, parser.Context) {}
func (mathBlockParser) CanInterruptParagraph() bool                 { return true }
func (mathBlockParser) CanAcceptIndentedLine() bool                 { return false }

type inlineMathParser struct{}

func (inlineMathParser) Trigger() []byte { return []byte{'$'} }

func (inlineMathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	if !bytes.HasPrefix(line, []byte("$$")) {
		return nil
	}
	end := bytes.Index(line[2:], []byte("$$"))
	if end <= 0 {
		return nil
	}
	formula := bytes.TrimSpace(line[2 : 2+end])
	if len(formula) == 0 {
		return nil
	}
	block.Advance(2 + end + 2)
	return &inlineMath{Formula: string(formula)}
}
