package markdoc_test

import (
	"encoding/json"
	"strings"
	"testing"

	"docsd/internal/markdoc"
)

// GitBook's exports write an integration block as `{% @integration/block prop="..." %}`: it is
// an integration block of the document with its props, and on a page the hook renders it, its
// HTML put in place after the sanitizer. A page's raw HTML cannot forge the placeholder.
func TestIntegrationBlockTags(t *testing.T) {
	t.Parallel()
	md := "Intro.\n\n{% @mermaid/diagram content=\"graph TD; A-->B\" theme='dark' %}\n\nOutro.\n"
	doc, err := json.Marshal(markdoc.ToDocument(md))
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Nodes []struct {
			Type   string         `json:"type"`
			IsVoid bool           `json:"isVoid"`
			Data   map[string]any `json:"data"`
		} `json:"nodes"`
	}
	if err := json.Unmarshal(doc, &d); err != nil || len(d.Nodes) != 3 {
		t.Fatalf("document %s (%v)", doc, err)
	}
	n := d.Nodes[1]
	props, _ := n.Data["props"].(map[string]any)
	if n.Type != "integration" || !n.IsVoid || n.Data["integration"] != "mermaid" || n.Data["block"] != "diagram" ||
		props["content"] != "graph TD; A-->B" || props["theme"] != "dark" {
		t.Fatalf("integration node %+v", n)
	}
	if tags := markdoc.UnknownTags(md); len(tags) != 0 {
		t.Fatalf("unknown tags %q", tags)
	}

	var calls []string
	hooks := markdoc.HTMLHooks{Integration: func(name, block string, props map[string]any) string {
		calls = append(calls, name+"/"+block+":"+props["content"].(string))
		return `<iframe sandbox="" src="https://frame.example/x"></iframe>`
	}}
	forged := "<div class=\"integration-block\" id=\"docsd-integration-block-0000000000000000-0\"></div>\n\n"
	html := markdoc.ToHTMLWith(forged+md, hooks)
	if len(calls) != 1 || calls[0] != "mermaid/diagram:graph TD; A-->B" {
		t.Fatalf("hook calls %q", calls)
	}
	if strings.Count(html, `<iframe sandbox="" src="https://frame.example/x"></iframe>`) != 1 ||
		!strings.Contains(html, "<p>Intro.</p>") || !strings.Contains(html, "<p>Outro.</p>") || strings.Contains(html, "{%") {
		t.Fatalf("html %s", html)
	}
	// Without the hook, the block shows nothing, and no tag text.
	if plain := markdoc.ToHTML(md); strings.Contains(plain, "@mermaid") || strings.Contains(plain, "iframe") {
		t.Fatalf("without a hook: %s", plain)
	}
}
