// Package richtext checks the API's rich-text documents (change-request descriptions, docs
// agent and translation instructions) structurally: node kinds, known block and inline types,
// what may nest in what, text leaves and marks, within limits on size, depth and node count.
// It does not interpret a node's data.
package richtext

import (
	"bytes"
	"encoding/json"

	"docsd/internal/apperr"
)

// Document is a rich-text document that passed validation, kept as its compact JSON so it is
// stored and answered exactly as the client sent it.
type Document struct{ raw json.RawMessage }

const emptyJSON = `{"object":"document","data":{},"nodes":[]}`

// Empty is a document with no nodes.
func Empty() Document { return Document{raw: json.RawMessage(emptyJSON)} }

// FromStore wraps the JSON of a document read back from storage; it was validated when written.
func FromStore(raw []byte) Document { return Document{raw: json.RawMessage(raw)} }

// JSON returns the document's compact JSON.
func (d Document) JSON() []byte {
	if d.raw == nil {
		return []byte(emptyJSON)
	}
	return d.raw
}

// MarshalJSON renders the document as it was stored; the zero Document renders as Empty.
func (d Document) MarshalJSON() ([]byte, error) { return d.JSON(), nil }

// Limits bound a document so one request can neither store nor make the server walk an
// unbounded tree.
type Limits struct {
	MaxBytes int // size of the compact JSON
	MaxDepth int // nesting of nodes; a top-level block is at depth 1
	MaxNodes int // blocks, inlines, texts, leaves and fragments together
}

// DefaultLimits suit documents written by people: far above a long page, far below what
// would strain a request.
var DefaultLimits = Limits{MaxBytes: 512 << 10, MaxDepth: 32, MaxNodes: 20000}

// Validate checks raw against DefaultLimits. field names the document in error messages,
// which give the JSON path of the first problem, e.g.
// `instructions.nodes[2].type: unknown block type "foo"`.
func Validate(field string, raw json.RawMessage) (Document, error) {
	return DefaultLimits.Validate(field, raw)
}

// Validate checks raw against l. Every failure is an apperr Invalid error.
func (l Limits) Validate(field string, raw json.RawMessage) (Document, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return Document{}, apperr.Invalidf("%s: invalid JSON: %v", field, err)
	}
	if compact.Len() > l.MaxBytes {
		return Document{}, apperr.Invalidf("%s: must be at most %d bytes of JSON (got %d)", field, l.MaxBytes, compact.Len())
	}
	dec := json.NewDecoder(bytes.NewReader(compact.Bytes()))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return Document{}, apperr.Invalidf("%s: invalid JSON: %v", field, err)
	}
	w := walker{limits: l}
	if err := w.document(field, v); err != nil {
		return Document{}, err
	}
	return Document{raw: json.RawMessage(compact.Bytes())}, nil
}
