package markdoc

import "encoding/json"

// The object kinds of document nodes.
const (
	ObjectBlock  = "block"
	ObjectInline = "inline"
	ObjectText   = "text"
)

// Document is the block tree of a page in the shape of the public API's JSONDocument:
// `{"object":"document","data":{},"nodes":[...]}`.
type Document struct {
	Nodes []*Node
}

// Node is a block, an inline or a text node. Which fields it uses depends on Object and Type,
// as in the public API's Document* schemas: text nodes carry Leaves; blocks and inlines carry
// Type, Data and, unless they are void, Nodes; tables, images, expandables and annotations
// carry Fragments.
type Node struct {
	Object    string
	Type      string
	Key       string
	Data      map[string]any
	Meta      map[string]any
	Nodes     []*Node
	Leaves    []Leaf
	Fragments []*Fragment

	// fallback, when set, is what the node becomes where it may not appear; see fit.
	fallback []*Node
}

// Leaf is a run of text with the same marks.
type Leaf struct {
	Text  string
	Marks []Mark
}

// Mark is a text style: bold, italic, code, strikethrough, keyboard, superscript, subscript.
type Mark struct {
	Type string
}

// Fragment is a named sub-document of a node: a table cell, an image caption, the title or
// body of an expandable, the body of an annotation.
type Fragment struct {
	Key      string
	Fragment string
	Type     string
	Nodes    []*Node
}

// Ref is a content reference (the public API's ContentRef): where a link, an image or an
// embed points. Kind is "url", "file", "page" or "anchor"; the field of the same name holds
// the target, and Page narrows an anchor to another page.
type Ref struct {
	Kind            string
	URL             string
	File            string
	Page            string
	Anchor          string
	ReusableContent string // for kind "reusable-content"
	Spec            string // for kind "openapi": the specification's slug
}

type refJSON struct {
	Kind            string  `json:"kind"`
	URL             *string `json:"url,omitempty"`
	File            *string `json:"file,omitempty"`
	Page            *string `json:"page,omitempty"`
	Anchor          *string `json:"anchor,omitempty"`
	ReusableContent *string `json:"reusableContent,omitempty"`
	Spec            *string `json:"spec,omitempty"`
}

// MarshalJSON renders the fields of the ref's kind, even empty ones (a link to "" is a
// {kind: url, url: ""}), and no others.
func (r Ref) MarshalJSON() ([]byte, error) {
	out := refJSON{Kind: r.Kind}
	switch r.Kind {
	case "url":
		out.URL = &r.URL
	case "file":
		out.File = &r.File
	case "page":
		out.Page = &r.Page
	case "anchor":
		out.Anchor = &r.Anchor
		if r.Page != "" {
			out.Page = &r.Page
		}
	case "reusable-content":
		out.ReusableContent = &r.ReusableContent
	case "openapi":
		out.Spec = &r.Spec
	}
	return json.Marshal(out)
}

// Node types that hold no child nodes.
var voidTypes = map[string]bool{
	"divider": true, "image": true, "file": true, "drawing": true, "embed": true, "math": true,
	"expandable": true, "table": true, "content-ref": true, "integration": true,
	"inline-image": true, "emoji": true, "inline-math": true, "icon": true, "expression": true,
	"mention": true, "button": true, "reusable-content": true, "swagger": true, "openapi-operation": true,
	"openapi-schemas": true, "openapi-webhook": true,
}

// Node types whose schema requires a fragments array, even an empty one.
var fragmentTypes = map[string]bool{"image": true, "table": true, "expandable": true, "annotation": true}

// IsVoid reports whether the node is a block or inline that holds no child nodes.
func (n *Node) IsVoid() bool { return voidTypes[n.Type] }

// block returns a new block node.
func block(typ string, data map[string]any, nodes ...*Node) *Node {
	return &Node{Object: ObjectBlock, Type: typ, Data: data, Nodes: nodes}
}

// inline returns a new inline node.
func inline(typ string, data map[string]any, nodes ...*Node) *Node {
	return &Node{Object: ObjectInline, Type: typ, Data: data, Nodes: nodes}
}

// textNode returns a text node holding leaves.
func textNode(leaves ...Leaf) *Node {
	return &Node{Object: ObjectText, Leaves: leaves}
}

// plainText returns a text node of one unmarked leaf.
func plainText(s string) *Node { return textNode(Leaf{Text: s}) }

// paragraph returns a paragraph of inline content.
func paragraph(nodes ...*Node) *Node { return block("paragraph", nil, nodes...) }
