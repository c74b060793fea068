package markdoc

import (
	"bytes"
	"regexp"
	"sort"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// GitBook's markdown exports write blocks the editor has and markdown lacks as Liquid-like
// tags on lines of their own, e.g.
//
//	{% hint style="warning" %}
//	Markdown content.
//	{% endhint %}
//
// tagBlock is such a block in the goldmark tree; its children are the markdown between the
// opening and closing lines.

// kindTag is the goldmark node kind of a GitBook block tag.
var kindTag = ast.NewNodeKind("GitBookTag")

type tagBlock struct {
	ast.BaseBlock
	Name  string
	Attrs map[string]string
	// Arg is what follows the name when it is not attributes: the quoted path of an include,
	// the condition of an if.
	Arg string
	// start and end are the offsets of the opening line in the source, for ExpandIncludes.
	start, end int
	// container is false for a tag written without a closing line ({% embed url="..." %}).
	container bool
	// nested counts openings of the same tag inside this one that are still open, so that
	// their closing lines do not close this one.
	nested int
	// rendered replaces the tag and what it holds in HTML, when a hook of ToHTMLWith gave it
	// (an API reference rendered from the specification).
	rendered string
}

func (n *tagBlock) Kind() ast.NodeKind { return kindTag }

func (n *tagBlock) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"Name": n.Name}, nil)
}

// Tags that must be closed by their end tag; without one, the opening line is dropped and
// what follows it reads as ordinary markdown.
var containerTags = map[string]bool{
	"hint": true, "tabs": true, "tab": true, "code": true, "content-ref": true, "stepper": true, "step": true,
	"columns": true, "column": true, "updates": true, "update": true, "if": true, "prompt": true,
	"swagger-description": true, "swagger-parameter": true, "swagger-response": true,
}

// Tags that may be written alone or with a caption (or a link for other readers) before their
// end tag.
var optionalEndTags = map[string]bool{
	"embed": true, "file": true, "openapi": true, "swagger": true,
	"openapi-operation": true, "openapi-schemas": true, "openapi-webhook": true,
}

// Tags that are written alone: an include names a reusable content by its file.
var singleTags = map[string]bool{"include": true, "else": true}

// KnownTag reports whether name is one of GitBook's block tags that docsd reads. Any other
// tag on a line of its own is still taken off the text (its inner content is kept), so no raw
// tag leaks onto a published page; UnknownTags lists them so an import can warn.
func KnownTag(name string) bool {
	_, _, integration := IntegrationTag(name)
	return containerTags[name] || optionalEndTags[name] || singleTags[name] || integration
}

// IntegrationTag reads the name of an integration block's tag, `@{integration}/{block}` as in
// `{% @mermaid/diagram content="graph TD; A-->B" %}`: the block's attributes are its props.
// Such a tag is written alone.
func IntegrationTag(name string) (integration, block string, ok bool) {
	rest, ok := strings.CutPrefix(name, "@")
	if !ok {
		return "", "", false
	}
	integration, block, ok = strings.Cut(rest, "/")
	return integration, block, ok && integration != "" && block != ""
}

var (
	tagLine  = regexp.MustCompile(`^[ \t]{0,3}\{%-?[ \t]*([a-z][a-z0-9-]*|@[A-Za-z0-9._-]+/[A-Za-z0-9_-]+)((?:[ \t]+.*?)?)[ \t]*-?%\}[ \t]*\r?\n?$`)
	tagAttr  = regexp.MustCompile(`([A-Za-z][A-Za-z0-9_-]*)[ \t]*=[ \t]*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|([^ \t"']+))`)
	tagScan  = regexp.MustCompile(`(?m)^[ \t]{0,3}\{%-?[ \t]*([a-z][a-z0-9-]*)`)
	unescape = strings.NewReplacer(`\"`, `"`, `\'`, `'`, `\\`, `\`, `\#`, `#`)
)

// tagName reads the name of a tag line, cheaply refusing the lines that are not one: every
// line of a tag's content is checked against every tag open around it.
func tagName(line []byte) (string, bool) {
	trimmed := bytes.TrimLeft(line, " \t")
	if !bytes.HasPrefix(trimmed, []byte("{%")) {
		return "", false
	}
	name, _, ok := parseTagLine(line)
	return name, ok
}

// tagDepth counts the tags n is in, n included, up to maxTagDepth.
func tagDepth(n ast.Node) int {
	depth := 0
	for ; n != nil && depth < maxTagDepth; n = n.Parent() {
		if n.Kind() == kindTag {
			depth++
		}
	}
	return depth
}

// parseTagLine reads a tag line: its name ("endhint" for a closing tag) and attributes.
func parseTagLine(line []byte) (name string, attrs map[string]string, ok bool) {
	name, attrs, _, ok = parseTag(line)
	return name, attrs, ok
}

// parseTag reads a tag line: its name, its attributes, and its argument (the text after the
// name, unquoted when it is one quoted string: `{% include "x.md" %}`, `{% if a == "b" %}`).
func parseTag(line []byte) (name string, attrs map[string]string, arg string, ok bool) {
	m := tagLine.FindSubmatch(line)
	if m == nil {
		return "", nil, "", false
	}
	attrs = map[string]string{}
	for _, a := range tagAttr.FindAllSubmatch(m[2], -1) {
		value := string(a[2]) + string(a[3]) + string(a[4])
		attrs[string(a[1])] = unescape.Replace(value)
	}
	arg = strings.TrimSpace(string(m[2]))
	if q := quotedArg.FindStringSubmatch(arg); q != nil {
		arg = unescape.Replace(q[1] + q[2])
	}
	return string(m[1]), attrs, arg, true
}

var quotedArg = regexp.MustCompile(`^(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')$`)

// tagIndex is, for one source, the offsets of the lines that open and close each tag, so a
// parser can tell whether a tag is closed later without scanning the rest of the source again.
type tagIndex struct {
	opens map[string][]int
	ends  map[string][]int
}

var tagIndexKey = parser.NewContextKey()

func indexTags(source []byte) *tagIndex {
	idx := &tagIndex{opens: map[string][]int{}, ends: map[string][]int{}}
	for _, m := range tagScan.FindAllSubmatchIndex(source, -1) {
		name := string(source[m[2]:m[3]])
		if rest, ok := strings.CutPrefix(name, "end"); ok && rest != "" {
			idx.ends[rest] = append(idx.ends[rest], m[0])
		} else {
			idx.opens[name] = append(idx.opens[name], m[0])
		}
	}
	return idx
}

// next returns the first offset in offsets after pos, or -1.
func next(offsets []int, pos int) int {
	i := sort.SearchInts(offsets, pos+1)
	if i == len(offsets) {
		return -1
	}
	return offsets[i]
}

type tagParser struct{}

func (tagParser) Trigger() []byte { return []byte{'{'} }

// maxTagDepth bounds how deep tags nest; a deeper one stays text. Every line passes through
// every open tag, so unbounded nesting would cost time growing with the square of its depth.
const maxTagDepth = 8

func (tagParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, segment := reader.PeekLine()
	name, attrs, arg, ok := parseTag(line)
	if !ok || tagDepth(parent) >= maxTagDepth {
		return nil, parser.NoChildren
	}
	idx := pc.ComputeIfAbsent(tagIndexKey, func() any { return indexTags(reader.Source()) }).(*tagIndex)
	end := next(idx.ends[name], segment.Start)
	node := &tagBlock{Name: name, Attrs: attrs, Arg: arg, start: segment.Start, end: segment.Start + len(line)}
	switch {
	case singleTags[name], strings.HasPrefix(name, "end"), strings.HasPrefix(name, "@"):
		// A closing line with no opening one, or a tag that never has content: the line
		// alone, shown as nothing.
	case containerTags[name] || !KnownTag(name):
		node.container = end >= 0
	default:
		// An embed is closed only if its end tag comes before the next embed opens.
		following := next(idx.opens[name], segment.Start)
		node.container = end >= 0 && (following < 0 || end < following)
	}
	reader.AdvanceToEOL()
	if !node.container {
		return node, parser.NoChildren
	}
	return node, parser.HasChildren
}

func (tagParser) Continue(n ast.Node, reader text.Reader, pc parser.Context) parser.State {
	node := n.(*tagBlock)
	if !node.container {
		return parser.Close
	}
	if insideCode(node, pc) {
		return parser.Continue | parser.HasChildren
	}
	line, _ := reader.PeekLine()
	name, ok := tagName(line)
	switch {
	case !ok:
	case name == "end"+node.Name && node.nested > 0:
		node.nested--
	case name == "end"+node.Name:
		reader.AdvanceToEOL()
		return parser.Close
	case name == node.Name:
		node.nested++
	}
	return parser.Continue | parser.HasChildren
}

// insideCode reports whether a fenced code block is open inside node: its lines are code,
// even one that reads like the closing tag. A code block holds no other block, so if one is
// open it is the innermost.
func insideCode(node ast.Node, pc parser.Context) bool {
	innermost := pc.LastOpenedBlock().Node
	return innermost != nil && innermost != node && innermost.Kind() == ast.KindFencedCodeBlock
}

func (tagParser) Close(ast.Node, text.Reader, parser.Context) {}

func (tagParser) CanInterruptParagraph() bool { return true }

func (tagParser) CanAcceptIndentedLine() bool { return false }
