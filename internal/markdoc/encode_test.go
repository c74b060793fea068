package markdoc_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"docsd/internal/markdoc"
)

// The document's hand-written JSON must be what encoding/json gives for the documented shapes.
// referenceJSON builds those shapes as structs for encoding/json: it is how the document was
// encoded before, and is what the API promises.
func referenceJSON(t *testing.T, d *markdoc.Document) []byte {
	t.Helper()
	b, err := json.Marshal(refDocument{Object: "document", Data: map[string]any{}, Nodes: refNodes(d.Nodes)})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type refDocument struct {
	Object string     `json:"object"`
	Data   any        `json:"data"`
	Nodes  []*refNode `json:"nodes"`
}

type refNode struct {
	Object    string          `json:"object"`
	Type      string          `json:"type,omitempty"`
	Key       string          `json:"key,omitempty"`
	IsVoid    *bool           `json:"isVoid,omitempty"`
	Data      *map[string]any `json:"data,omitempty"`
	Meta      map[string]any  `json:"meta,omitempty"`
	Nodes     *[]*refNode     `json:"nodes,omitempty"`
	Leaves    *[]refLeaf      `json:"leaves,omitempty"`
	Fragments *[]*refFragment `json:"fragments,omitempty"`
}

type refLeaf struct {
	Object string    `json:"object"`
	Text   string    `json:"text"`
	Marks  []refMark `json:"marks"`
}

type refMark struct {
	Object string `json:"object"`
	Type   string `json:"type"`
}

type refFragment struct {
	Object   string     `json:"object"`
	Key      string     `json:"key,omitempty"`
	Fragment string     `json:"fragment,omitempty"`
	Type     string     `json:"type,omitempty"`
	Nodes    []*refNode `json:"nodes"`
}

var fragmentTypes = map[string]bool{"image": true, "table": true, "expandable": true, "annotation": true}

func refNodes(ns []*markdoc.Node) []*refNode {
	out := []*refNode{}
	for _, n := range ns {
		out = append(out, refNodeOf(n))
	}
	return out
}

func refNodeOf(n *markdoc.Node) *refNode {
	if n == nil {
		return nil
	}
	out := &refNode{Object: n.Object, Key: n.Key}
	if n.Object == markdoc.ObjectText {
		leaves := []refLeaf{}
		for _, l := range n.Leaves {
			marks := []refMark{}
			for _, m := range l.Marks {
				marks = append(marks, refMark{Object: "mark", Type: m.Type})
			}
			leaves = append(leaves, refLeaf{Object: "leaf", Text: l.Text, Marks: marks})
		}
		out.Leaves = &leaves
		return out
	}
	out.Type = n.Type
	void := n.IsVoid()
	out.IsVoid = &void
	data := n.Data
	if data == nil {
		data = map[string]any{}
	}
	out.Data = &data
	out.Meta = n.Meta
	if !void {
		nodes := refNodes(n.Nodes)
		out.Nodes = &nodes
	}
	if fragmentTypes[n.Type] || len(n.Fragments) > 0 {
		frags := []*refFragment{}
		for _, f := range n.Fragments {
			if f == nil {
				frags = append(frags, nil)
				continue
			}
			frags = append(frags, &refFragment{Object: "fragment", Key: f.Key, Fragment: f.Fragment, Type: f.Type, Nodes: refNodes(f.Nodes)})
		}
		out.Fragments = &frags
	}
	return out
}

func checkJSONMatchesReference(t *testing.T, d *markdoc.Document) {
	t.Helper()
	got, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if want := referenceJSON(t, d); !bytes.Equal(got, want) {
		t.Fatalf("document JSON differs from encoding/json's:\n got %s\nwant %s", got, want)
	}
}

func TestDocumentJSONIsEncodingJSONs(t *testing.T) {
	t.Parallel()
	tricky := "quote \" backslash \\ controls \x00\x01\b\f\n\r\t\x1f html <a href=\"x\">&amp;</a> " +
		"separators \u2028\u2029 invalid \xff\xfe end é 😀"
	d := &markdoc.Document{Nodes: []*markdoc.Node{
		{Object: markdoc.ObjectBlock, Type: "paragraph", Key: "k<1>", Data: map[string]any{"b": tricky, "a": 1.5, "c": true},
			Meta: map[string]any{"id": "x&y"}, Nodes: []*markdoc.Node{
				{Object: markdoc.ObjectText, Type: "ignored", Leaves: []markdoc.Leaf{{Text: tricky, Marks: []markdoc.Mark{{Type: "bold"}, {Type: "<i>"}}}, {}}},
				{Object: markdoc.ObjectInline, Type: "link", Data: map[string]any{"ref": markdoc.Ref{Kind: "url", URL: "https://x/?a=1&b=<2>"}}},
				nil,
			}},
		{Object: markdoc.ObjectBlock, Type: "table", Data: map[string]any{"nested": map[string]any{"z": []any{1, "two", nil}}}},
		{Object: markdoc.ObjectBlock, Type: "expandable", Fragments: []*markdoc.Fragment{
			{Key: "f", Fragment: "title", Type: "expandable-title", Nodes: []*markdoc.Node{{Object: markdoc.ObjectText}}},
			{Fragment: "body"}, nil}},
		{Object: markdoc.ObjectBlock, Type: "divider", Meta: map[string]any{}},
		{Object: markdoc.ObjectBlock, Fragments: []*markdoc.Fragment{{}}},
	}}
	checkJSONMatchesReference(t, d)
	checkJSONMatchesReference(t, &markdoc.Document{})
	page, err := os.ReadFile("testdata/gitbook-page.md")
	if err != nil {
		t.Fatal(err)
	}
	checkJSONMatchesReference(t, markdoc.ToDocument(string(page)))
}

// FuzzDocumentJSON checks the hand-written JSON against encoding/json's on any document.
func FuzzDocumentJSON(f *testing.F) {
	seed, _ := os.ReadFile("testdata/gitbook-page.md")
	for _, s := range []string{
		string(seed), "", "# x <y> & \u2028", "- [ ] a\n  - b", "| a |\n|---|\n| b |", "{% hint %}\nx\n{% endhint %}",
		"![a](<b c> \"d\")", "[l](https://x/?a=1&b=2)", "$$\nx\n$$", "<kbd><sup>x</kbd>", "**b** _i_ `c` ~~s~~\xff",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, md string) {
		checkJSONMatchesReference(t, markdoc.ToDocument(md))
	})
}
