package richtext_test

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"docsd/internal/apperr"
	"docsd/internal/richtext"
)

// Builders for documents in tests.

func doc(nodes ...string) string {
	return `{"object":"document","data":{"schemaVersion":1},"nodes":[` + strings.Join(nodes, ",") + `]}`
}

func text(s string, marks ...string) string {
	return `{"object":"text","leaves":[{"object":"leaf","text":` + quote(s) + `,"marks":[` + strings.Join(marks, ",") + `]}]}`
}

func block(typ string, nodes ...string) string {
	return `{"object":"block","type":"` + typ + `","key":"k","data":{},"nodes":[` + strings.Join(nodes, ",") + `]}`
}

func void(typ string) string {
	return `{"object":"block","type":"` + typ + `","isVoid":true,"data":{}}`
}

func inline(typ string, nodes ...string) string {
	return `{"object":"inline","type":"` + typ + `","data":{},"nodes":[` + strings.Join(nodes, ",") + `]}`
}

func voidInline(typ string) string {
	return `{"object":"inline","type":"` + typ + `","isVoid":true,"data":{}}`
}

func fragment(name string, nodes ...string) string {
	return `{"object":"fragment","fragment":"` + name + `","type":"` + name + `","nodes":[` + strings.Join(nodes, ",") + `]}`
}

func withFragments(typ string, fragments ...string) string {
	return `{"object":"block","type":"` + typ + `","isVoid":true,"data":{},"fragments":[` + strings.Join(fragments, ",") + `]}`
}

func para(s string) string { return block("paragraph", text(s)) }

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func TestValidateAcceptsWellFormedDocuments(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc string }{
		{"empty", `{"object":"document","data":{},"nodes":[]}`},
		{"extra data properties", `{"object":"document","data":{"schemaVersion":3,"anything":{"x":[1]}},"nodes":[]}`},
		{"paragraph with marks", doc(block("paragraph", text("hello", `{"object":"mark","type":"bold"}`,
			`{"object":"mark","type":"color","data":{"text":"red","background":"default"}}`)))},
		{"paragraph without marks or key", doc(`{"object":"block","type":"paragraph","nodes":[{"object":"text","leaves":[{"object":"leaf","text":"x"}]}]}`)},
		{"paragraph with align", doc(`{"object":"block","type":"paragraph","data":{"align":"center"},"isVoid":false,"nodes":[` + text("x") + `]}`)},
		{"headings with inlines", doc(
			block("heading-1", text("Title "), inline("link", text("a link"), voidInline("inline-image"))),
			block("heading-2", voidInline("emoji"), text("x")),
			block("heading-3", inline("annotation", text("noted")), voidInline("mention"), voidInline("button"), voidInline("icon"), voidInline("inline-math")))},
		{"nested lists", doc(block("list-ordered",
			block("list-item", para("one"), block("list-unordered", block("list-item", para("one.a")))),
			block("list-item", para("two"))), block("list-tasks", block("list-item", para("task"))))},
		{"code lines", doc(block("code", block("code-line", text("x := 1"), voidInline("expression")),
			block("code-line", inline("annotation", text("y")))))},
		{"void blocks", doc(void("divider"), void("math"), void("file"), void("drawing"), void("embed"), void("swagger"),
			void("openapi-operation"), void("openapi-schemas"), void("openapi-webhook"), void("content-ref"),
			void("integration"), void("reusable-content"))},
		{"void block with an empty text", doc(`{"object":"block","type":"divider","isVoid":true,"nodes":[` + text("") + `]}`)},
		{"containers", doc(block("blockquote", para("q"), block("blockquote", para("qq"))), block("hint", para("h")),
			block("if", para("maybe")), block("tabs", block("tabs-item", para("tab"))),
			block("stepper", block("stepper-step", para("step"))), block("columns", block("column", para("col"))))},
		{"fragments", doc(withFragments("table", fragment("cell", para("a cell"))),
			block("images", withFragments("image", fragment("caption", para("caption")))),
			withFragments("expandable", fragment("expandable-title", para("title")), fragment("expandable-body", para("body"))),
			block("paragraph", `{"object":"inline","type":"annotation","nodes":[`+text("x")+`],"fragments":[`+fragment("annotation-body", para("note"))+`]}`))},
		{"unicode text", doc(para("héllo — 世界 🎉"))},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := richtext.Validate("instructions", json.RawMessage(c.doc))
			if err != nil {
				t.Fatalf("Validate: %v\n%s", err, c.doc)
			}
			var want bytes.Buffer
			json.Compact(&want, []byte(c.doc))
			if !bytes.Equal(d.JSON(), want.Bytes()) {
				t.Errorf("JSON() = %s, want the compact input %s", d.JSON(), want.Bytes())
			}
		})
	}
}

func TestValidateRefusesMalformedDocuments(t *testing.T) {
	t.Parallel()
	cases := []struct{ name, doc, msg string }{
		{"invalid JSON", `{"object":`, `instructions: invalid JSON`},
		{"not an object", `[]`, `instructions: must be a rich-text document object (got an array)`},
		{"null", `null`, `instructions: must be a rich-text document object (got null)`},
		{"wrong object", `{"object":"page","data":{},"nodes":[]}`, `instructions.object: must be "document" (got "page")`},
		{"object missing", `{"data":{},"nodes":[]}`, `instructions.object: is required`},
		{"data missing", `{"object":"document","nodes":[]}`, `instructions.data: is required`},
		{"data not an object", `{"object":"document","data":[],"nodes":[]}`, `instructions.data: must be an object (got an array)`},
		{"schemaVersion a string", `{"object":"document","data":{"schemaVersion":"1"},"nodes":[]}`, `instructions.data.schemaVersion: must be a whole number (got "1")`},
		{"schemaVersion fractional", `{"object":"document","data":{"schemaVersion":1.5},"nodes":[]}`, `instructions.data.schemaVersion: must be a whole number`},
		{"schemaVersion negative", `{"object":"document","data":{"schemaVersion":-1},"nodes":[]}`, `instructions.data.schemaVersion: must be a whole number`},
		{"nodes missing", `{"object":"document","data":{}}`, `instructions.nodes: is required`},
		{"nodes not an array", `{"object":"document","data":{},"nodes":{}}`, `instructions.nodes: must be an array (got an object)`},
		{"unknown document field", `{"object":"document","data":{},"nodes":[],"title":"x"}`, `instructions.title: unknown field`},
		{"unknown block type", doc(para("a"), para("b"), block("foo", text("x"))), `instructions.nodes[2].type: unknown block type "foo"`},
		{"block type missing", doc(`{"object":"block","nodes":[]}`), `instructions.nodes[0].type: is required`},
		{"block type not a string", doc(`{"object":"block","type":7,"nodes":[]}`), `instructions.nodes[0].type: must be a string (got a number)`},
		{"text at the top", doc(text("loose")), `instructions.nodes[0].object: must be "block" (got "text")`},
		{"node not an object", doc(`"paragraph"`), `instructions.nodes[0]: must be a block node object (got "paragraph")`},
		{"list item outside a list", doc(block("list-item", para("x"))), `instructions.nodes[0].type: a "list-item" block must be inside a list-ordered, list-unordered or list-tasks block`},
		{"paragraph directly in a list", doc(block("list-ordered", para("x"))), `instructions.nodes[0].nodes[0].type: a "list-ordered" block may hold only list-item blocks (got "paragraph")`},
		{"code line outside code", doc(block("hint", block("code-line", text("x")))), `instructions.nodes[0].nodes[0].type: a "code-line" block must be inside a code block`},
		{"block inside a paragraph", doc(block("paragraph", para("x"))), `instructions.nodes[0].nodes[0].object: must be "inline" or "text" inside a "paragraph" node (got "block")`},
		{"text inside a container", doc(block("blockquote", text("x"))), `instructions.nodes[0].nodes[0].object: must be "block" (got "text")`},
		{"unknown inline type", doc(block("paragraph", inline("sparkle", text("x")))), `instructions.nodes[0].nodes[0].type: unknown inline type "sparkle"`},
		{"emoji in a code line", doc(block("code", block("code-line", voidInline("emoji")))), `instructions.nodes[0].nodes[0].nodes[0].type: a "emoji" inline is not allowed inside a "code-line" node`},
		{"link in a link", doc(block("paragraph", inline("link", inline("link", text("x"))))), `instructions.nodes[0].nodes[0].nodes[0].type: a "link" inline is not allowed inside a "link" node`},
		{"void block marked not void", doc(`{"object":"block","type":"divider","isVoid":false}`), `instructions.nodes[0].isVoid: must be true for a "divider" node`},
		{"paragraph marked void", doc(`{"object":"block","type":"paragraph","isVoid":true,"nodes":[]}`), `instructions.nodes[0].isVoid: must be false for a "paragraph" node`},
		{"isVoid not a boolean", doc(`{"object":"block","type":"paragraph","isVoid":"no","nodes":[]}`), `instructions.nodes[0].isVoid: must be a boolean (got "no")`},
		{"void block holding a paragraph", doc(`{"object":"block","type":"divider","nodes":[` + para("x") + `]}`), `instructions.nodes[0].nodes[0].object: a void "divider" node may hold only text nodes (got "block")`},
		{"void inline holding text is fine but not inlines", doc(block("paragraph", `{"object":"inline","type":"emoji","data":{},"nodes":[`+voidInline("emoji")+`]}`)), `instructions.nodes[0].nodes[0].nodes[0].object: a void "emoji" node may hold only text nodes (got "inline")`},
		{"paragraph without nodes", doc(`{"object":"block","type":"paragraph"}`), `instructions.nodes[0].nodes: is required`},
		{"data not an object", doc(`{"object":"block","type":"paragraph","data":"x","nodes":[]}`), `instructions.nodes[0].data: must be an object (got "x")`},
		{"meta not an object", doc(`{"object":"block","type":"heading-1","meta":[],"nodes":[]}`), `instructions.nodes[0].meta: must be an object (got an array)`},
		{"key not a string", doc(`{"object":"block","type":"paragraph","key":1,"nodes":[]}`), `instructions.nodes[0].key: must be a string (got a number)`},
		{"unknown node field", doc(`{"object":"block","type":"paragraph","nodes":[],"style":{}}`), `instructions.nodes[0].style: unknown field`},
		{"fragments on a paragraph", doc(`{"object":"block","type":"paragraph","nodes":[],"fragments":[]}`), `instructions.nodes[0].fragments: a "paragraph" node has no fragments`},
		{"fragments not an array", doc(`{"object":"block","type":"table","isVoid":true,"fragments":{}}`), `instructions.nodes[0].fragments: must be an array (got an object)`},
		{"fragment of the wrong object", doc(withFragments("table", `{"object":"block","nodes":[]}`)), `instructions.nodes[0].fragments[0].object: must be "fragment" (got "block")`},
		{"fragment without nodes", doc(withFragments("table", `{"object":"fragment","fragment":"cell"}`)), `instructions.nodes[0].fragments[0].nodes: is required`},
		{"bad block in a fragment", doc(withFragments("table", fragment("cell", block("foo")))), `instructions.nodes[0].fragments[0].nodes[0].type: unknown block type "foo"`},
		{"text without leaves", doc(block("paragraph", `{"object":"text"}`)), `instructions.nodes[0].nodes[0].leaves: is required`},
		{"leaves not an array", doc(block("paragraph", `{"object":"text","leaves":"x"}`)), `instructions.nodes[0].nodes[0].leaves: must be an array (got "x")`},
		{"leaf without text", doc(block("paragraph", `{"object":"text","leaves":[{"object":"leaf","marks":[]}]}`)), `instructions.nodes[0].nodes[0].leaves[0].text: is required`},
		{"leaf text not a string", doc(block("paragraph", `{"object":"text","leaves":[{"object":"leaf","text":5}]}`)), `instructions.nodes[0].nodes[0].leaves[0].text: must be a string (got a number)`},
		{"leaf of the wrong object", doc(block("paragraph", `{"object":"text","leaves":[{"object":"mark","text":""}]}`)), `instructions.nodes[0].nodes[0].leaves[0].object: must be "leaf" (got "mark")`},
		{"unknown mark", doc(block("paragraph", text("x", `{"object":"mark","type":"blink"}`))), `instructions.nodes[0].nodes[0].leaves[0].marks[0].type: unknown mark type "blink"`},
		{"color mark without data", doc(block("paragraph", text("x", `{"object":"mark","type":"color"}`))), `instructions.nodes[0].nodes[0].leaves[0].marks[0].data: is required for a color mark`},
		{"marks not an array", doc(block("paragraph", `{"object":"text","leaves":[{"object":"leaf","text":"","marks":{}}]}`)), `instructions.nodes[0].nodes[0].leaves[0].marks: must be an array (got an object)`},
		{"unknown leaf field", doc(block("paragraph", `{"object":"text","leaves":[{"object":"leaf","text":"","bold":true}]}`)), `instructions.nodes[0].nodes[0].leaves[0].bold: unknown field`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := richtext.Validate("instructions", json.RawMessage(c.doc))
			if err == nil {
				t.Fatalf("Validate accepted %s", c.doc)
			}
			if !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("error %v is not an Invalid application error", err)
			}
			e, _ := apperr.As(err)
			if !strings.Contains(e.Message, c.msg) {
				t.Errorf("message %q does not contain %q", e.Message, c.msg)
			}
		})
	}
}

func TestValidateLimits(t *testing.T) {
	t.Parallel()
	generous := richtext.Limits{MaxBytes: 1 << 20, MaxDepth: 100, MaxNodes: 100000}

	t.Run("size", func(t *testing.T) {
		d := doc(para(strings.Repeat("a", 1000)))
		l := generous
		l.MaxBytes = len(d)
		if _, err := l.Validate("f", json.RawMessage(d)); err != nil {
			t.Fatalf("a document of exactly MaxBytes was refused: %v", err)
		}
		l.MaxBytes = len(d) - 1
		_, err := l.Validate("f", json.RawMessage(d))
		if err == nil || !strings.Contains(err.Error(), "f: must be at most "+strconv.Itoa(len(d)-1)+" bytes") {
			t.Fatalf("one byte over MaxBytes: got %v", err)
		}
	})
	t.Run("size counts the compact form", func(t *testing.T) {
		d := doc(para("x"))
		spaced := strings.ReplaceAll(d, ",", " ,  ")
		l := generous
		l.MaxBytes = len(d)
		if _, err := l.Validate("f", json.RawMessage(spaced)); err != nil {
			t.Fatalf("whitespace counted against the limit: %v", err)
		}
	})
	t.Run("depth", func(t *testing.T) {
		// k nested blockquotes around a paragraph and its text: the text is at depth k+2.
		const k = 10
		inner := para("deep")
		for i := 0; i < k; i++ {
			inner = block("blockquote", inner)
		}
		d := doc(inner)
		l := generous
		l.MaxDepth = k + 2
		if _, err := l.Validate("f", json.RawMessage(d)); err != nil {
			t.Fatalf("a document at MaxDepth was refused: %v", err)
		}
		l.MaxDepth = k + 1
		_, err := l.Validate("f", json.RawMessage(d))
		if err == nil || !strings.Contains(err.Error(), "nest at most "+strconv.Itoa(k+1)+" levels") ||
			!strings.Contains(err.Error(), "f.nodes[0]"+strings.Repeat(".nodes[0]", k+1)+":") {
			t.Fatalf("one level over MaxDepth: got %v", err)
		}
	})
	t.Run("node count", func(t *testing.T) {
		// n paragraphs, each a block, a text and a leaf: 3n nodes.
		const n = 50
		var ps []string
		for i := 0; i < n; i++ {
			ps = append(ps, para("p"))
		}
		d := doc(ps...)
		l := generous
		l.MaxNodes = 3 * n
		if _, err := l.Validate("f", json.RawMessage(d)); err != nil {
			t.Fatalf("a document of exactly MaxNodes was refused: %v", err)
		}
		l.MaxNodes = 3*n - 1
		_, err := l.Validate("f", json.RawMessage(d))
		if err == nil || !strings.Contains(err.Error(), "at most "+strconv.Itoa(3*n-1)+" nodes") {
			t.Fatalf("one node over MaxNodes: got %v", err)
		}
	})
	t.Run("defaults hold a long document", func(t *testing.T) {
		var ps []string
		for i := 0; i < 1000; i++ {
			ps = append(ps, para(strings.Repeat("words ", 30)))
		}
		if _, err := richtext.Validate("f", json.RawMessage(doc(ps...))); err != nil {
			t.Fatalf("a 1000-paragraph document was refused: %v", err)
		}
	})
}

func TestDocumentJSON(t *testing.T) {
	t.Parallel()
	var zero richtext.Document
	if string(zero.JSON()) != string(richtext.Empty().JSON()) {
		t.Errorf("the zero Document renders %s, want the empty document", zero.JSON())
	}
	if _, err := richtext.Validate("f", richtext.Empty().JSON()); err != nil {
		t.Errorf("the empty document does not validate: %v", err)
	}
	b, err := json.Marshal(struct {
		D richtext.Document `json:"d"`
	}{richtext.FromStore([]byte(doc(para("x"))))})
	if err != nil || !strings.Contains(string(b), `"d":{"object":"document"`) {
		t.Errorf("marshal embedded document: %s, %v", b, err)
	}
}
