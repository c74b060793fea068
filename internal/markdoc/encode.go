package markdoc

import (
	"encoding/json"
	"slices"
	"unicode/utf8"
)

// The document's JSON is written by hand, appending to one buffer: it is on the path of every
// page read, and encoding/json, given a MarshalJSON on every node, re-reads each node's
// output at every level above it. The output is byte for byte what encoding/json gives for
// the shapes documented on each method (HTML-safe escaping included), and the tests compare
// the two.

// MarshalJSON renders the document in the public API's shape:
// {"object":"document","data":{},"nodes":[...]}.
func (d *Document) MarshalJSON() ([]byte, error) {
	var e encoder
	e.buf = make([]byte, 0, 4096)
	e.str(`{"object":"document","data":{},"nodes":`)
	e.nodes(d.Nodes)
	e.byte('}')
	return e.buf, e.err
}

// MarshalJSON renders a node with the fields its schema requires present even when empty
// (data, nodes, leaves, marks, fragments), so clients can read them without checks: a text
// node as {"object","key"?,"leaves"}, a block or inline as {"object","type"?,"key"?,"isVoid",
// "data","meta"?,"nodes" (unless void),"fragments" (when its type has them, or it has some)}.
func (n *Node) MarshalJSON() ([]byte, error) {
	var e encoder
	e.node(n)
	return e.buf, e.err
}

// MarshalJSON renders a leaf with its marks, an empty array when there are none:
// {"object":"leaf","text","marks"}.
func (l Leaf) MarshalJSON() ([]byte, error) {
	var e encoder
	e.leaf(l)
	return e.buf, e.err
}

// MarshalJSON renders a mark as {"object":"mark","type":...}.
func (m Mark) MarshalJSON() ([]byte, error) {
	var e encoder
	e.mark(m)
	return e.buf, e.err
}

// MarshalJSON renders a fragment as {"object":"fragment","key"?,"fragment"?,"type"?,"nodes"}.
func (f *Fragment) MarshalJSON() ([]byte, error) {
	var e encoder
	e.fragment(f)
	return e.buf, e.err
}

// encoder appends JSON to buf; err keeps the first failure (only a data value can fail).
type encoder struct {
	buf []byte
	err error
}

func (e *encoder) byte(b byte)  { e.buf = append(e.buf, b) }
func (e *encoder) str(s string) { e.buf = append(e.buf, s...) }

// field appends `,"name":` (without the comma for the first field).
func (e *encoder) field(name string, first bool) {
	if !first {
		e.byte(',')
	}
	e.byte('"')
	e.str(name)
	e.str(`":`)
}

func (e *encoder) nodes(ns []*Node) {
	e.byte('[')
	for i, n := range ns {
		if i > 0 {
			e.byte(',')
		}
		e.node(n)
	}
	e.byte(']')
}

func (e *encoder) node(n *Node) {
	if n == nil {
		e.str("null")
		return
	}
	e.str(`{"object":`)
	e.string(n.Object)
	if n.Object != ObjectText && n.Type != "" {
		e.field("type", false)
		e.string(n.Type)
	}
	if n.Key != "" {
		e.field("key", false)
		e.string(n.Key)
	}
	if n.Object == ObjectText {
		e.field("leaves", false)
		e.byte('[')
		for i, l := range n.Leaves {
			if i > 0 {
				e.byte(',')
			}
			e.leaf(l)
		}
		e.str("]}")
		return
	}
	void := n.IsVoid()
	e.field("isVoid", false)
	if void {
		e.str("true")
	} else {
		e.str("false")
	}
	e.field("data", false)
	e.object(n.Data)
	if len(n.Meta) > 0 {
		e.field("meta", false)
		e.object(n.Meta)
	}
	if !void {
		e.field("nodes", false)
		e.nodes(n.Nodes)
	}
	if fragmentTypes[n.Type] || len(n.Fragments) > 0 {
		e.field("fragments", false)
		e.byte('[')
		for i, f := range n.Fragments {
			if i > 0 {
				e.byte(',')
			}
			e.fragment(f)
		}
		e.byte(']')
	}
	e.byte('}')
}

func (e *encoder) leaf(l Leaf) {
	e.str(`{"object":"leaf","text":`)
	e.string(l.Text)
	e.str(`,"marks":[`)
	for i, m := range l.Marks {
		if i > 0 {
			e.byte(',')
		}
		e.mark(m)
	}
	e.str("]}")
}

func (e *encoder) mark(m Mark) {
	e.str(`{"object":"mark","type":`)
	e.string(m.Type)
	e.byte('}')
}

func (e *encoder) fragment(f *Fragment) {
	if f == nil {
		e.str("null")
		return
	}
	e.str(`{"object":"fragment"`)
	if f.Key != "" {
		e.field("key", false)
		e.string(f.Key)
	}
	if f.Fragment != "" {
		e.field("fragment", false)
		e.string(f.Fragment)
	}
	if f.Type != "" {
		e.field("type", false)
		e.string(f.Type)
	}
	e.field("nodes", false)
	e.nodes(f.Nodes)
	e.byte('}')
}

// object appends a data or meta map with its keys sorted, as encoding/json does; its values
// (strings, numbers, refs, small maps) are few, so encoding/json writes each.
func (e *encoder) object(m map[string]any) {
	e.byte('{')
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		if i > 0 {
			e.byte(',')
		}
		e.string(k)
		e.byte(':')
		if s, ok := m[k].(string); ok {
			e.string(s)
			continue
		}
		b, err := json.Marshal(m[k])
		if err != nil && e.err == nil {
			e.err = err
		}
		e.buf = append(e.buf, b...)
	}
	e.byte('}')
}

const hexDigits = "0123456789abcdef"

// string appends s as a JSON string escaped as encoding/json escapes it by default: quotes,
// backslashes and control characters, <, > and & (HTML-safe), U+2028 and U+2029, and invalid
// UTF-8 as U+FFFD.
func (e *encoder) string(s string) {
	dst := append(e.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '\\', '"':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	e.buf = append(dst, '"')
}
