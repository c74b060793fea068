package httpapi_test

import (
	"encoding/json"
	"testing"

	"docsd/internal/apitest"
)

func TestPageEvaluation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	b := newTreeBuilder().doc("p", "", "Page", "page",
		"Version <code class=\"expression\">space.vars.version</code> of <code class=\"expression\">page.vars.product</code>, "+
			"plan <code class=\"expression\">visitor.claims.plan</code>.\n")
	b.tree.Variables["version"] = json.RawMessage(`"2.1"`)
	p := b.tree.Pages["p"]
	p.Variables = map[string]json.RawMessage{"product": json.RawMessage(`"docsd"`)}
	b.tree.Pages["p"] = p
	replaceContent(t, e, e.Admin, sp, b.tree)
	cr := newChangeRequest(t, e, e.Admin, sp, "read it here too")
	visitor := `<code class="expression">visitor.claims.plan</code>`

	for _, base := range []string{"/v1/spaces/" + sp + "/content", crPath(sp, cr) + "/content"} {
		for q, want := range map[string]string{
			"":                              "Version <code class=\"expression\">space.vars.version</code> of <code class=\"expression\">page.vars.product</code>, plan " + visitor + ".\n",
			"&evaluated=false":              "Version <code class=\"expression\">space.vars.version</code> of <code class=\"expression\">page.vars.product</code>, plan " + visitor + ".\n",
			"&evaluated=true":               "Version 2.1 of docsd, plan .\n",
			"&evaluated=deterministic-only": "Version 2.1 of docsd, plan " + visitor + ".\n",
		} {
			if got := e.Get(e.Admin, base+"/page/p?format=markdown"+q).Expect(200).Str("markdown"); got != want {
				t.Fatalf("%s %s: %q, want %q", base, q, got, want)
			}
		}
		// In the document format, an expression left as written is an expression inline.
		doc := e.Get(e.Admin, base+"/page/p").Expect(200)
		if doc.Str("document.nodes.0.nodes.1.type") != "expression" || doc.Str("document.nodes.0.nodes.1.data.expression") != "space.vars.version" {
			t.Fatalf("document: %s", doc.Body)
		}
		doc = e.Get(e.Admin, base+"/page/p?evaluated=true").Expect(200)
		if doc.Str("document.nodes.0.nodes.0.leaves.0.text") != "Version 2.1 of docsd, plan ." {
			t.Fatalf("evaluated document: %s", doc.Body)
		}
		e.Get(e.Admin, base+"/page/p?evaluated=yes").ExpectError(400).ExpectMessage("evaluated", "deterministic-only")
	}
}
