package markdoc_test

import (
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

// keysByText maps the text of each top-level block to its key (the first, for repeated text).
func keysByText(t *testing.T, md string) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for _, n := range markdoc.ToDocument(md).Nodes {
		text := ""
		if len(n.Nodes) > 0 && len(n.Nodes[0].Leaves) > 0 {
			text = n.Nodes[0].Leaves[0].Text
		}
		if _, seen := keys[n.Type+":"+text]; !seen {
			keys[n.Type+":"+text] = n.Key
		}
	}
	return keys
}

// allKeys lists the keys of every block, inline and fragment of a document.
func allKeys(d *markdoc.Document) []string {
	var keys []string
	var visit func(nodes []*markdoc.Node)
	visit = func(nodes []*markdoc.Node) {
		for _, n := range nodes {
			if n.Object == markdoc.ObjectText {
				continue
			}
			keys = append(keys, n.Key)
			visit(n.Nodes)
			for _, f := range n.Fragments {
				keys = append(keys, f.Key)
				visit(f.Nodes)
			}
		}
	}
	visit(d.Nodes)
	return keys
}

const keysPage = "## Intro\n\nFirst.\n\nSecond.\n\n- a\n- b\n\n| A |\n|---|\n| 1 |\n\nNote[^n].\n\n[^n]: Body."

func TestKeysAreTheSameForTheSameMarkdown(t *testing.T) {
	t.Parallel()
	a, b := allKeys(markdoc.ToDocument(keysPage)), allKeys(markdoc.ToDocument(keysPage))
	if strings.Join(a, ",") != strings.Join(b, ",") {
		t.Errorf("keys differ between conversions:\n%v\n%v", a, b)
	}
}

func TestKeysAreUniqueInADocument(t *testing.T) {
	t.Parallel()
	md := keysPage + "\n\nFirst.\n\nFirst.\n\n- a\n- a\n\n{% tabs %}\n{% tab title=\"x\" %}\nFirst.\n{% endtab %}\n{% tab title=\"x\" %}\nFirst.\n{% endtab %}\n{% endtabs %}"
	seen := map[string]bool{}
	for _, k := range allKeys(markdoc.ToDocument(md)) {
		if k == "" {
			t.Fatal("a node has no key")
		}
		if seen[k] {
			t.Errorf("key %s used twice", k)
		}
		seen[k] = true
	}
}

func TestKeysSurviveEditsElsewhere(t *testing.T) {
	t.Parallel()
	before := keysByText(t, "First.\n\nSecond.\n\nThird.")
	cases := map[string]string{
		"a block added above":  "New.\n\nFirst.\n\nSecond.\n\nThird.",
		"a block removed":      "First.\n\nThird.\n\nSecond.",
		"a neighbour edited":   "First, edited.\n\nSecond.\n\nThird.",
		"blocks moved":         "Third.\n\nSecond.\n\nFirst.",
		"a duplicate appended": "First.\n\nSecond.\n\nThird.\n\nSecond.",
	}
	for name, md := range cases {
		after := keysByText(t, md)
		for _, text := range []string{"paragraph:Second.", "paragraph:Third."} {
			if after[text] != before[text] {
				t.Errorf("%s: the key of %q changed from %s to %s", name, text, before[text], after[text])
			}
		}
	}
	edited := keysByText(t, "First.\n\nSecond, edited.\n\nThird.")
	if edited["paragraph:Second, edited."] == before["paragraph:Second."] {
		t.Error("an edited block kept its key")
	}
}
