package evaluate

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/expr-lang/expr/parser"
)

func span(e string) string { return `<code class="expression">` + e + `</code>` }

func TestMarkdown(t *testing.T) {
	v := Vars{
		Space: map[string]json.RawMessage{"version": json.RawMessage(`"1.2.3"`), "major": json.RawMessage(`2`),
			"beta": json.RawMessage(`true`), "star": json.RawMessage(`"*bold* <b>"`)},
		Page: map[string]json.RawMessage{"name": json.RawMessage(`"Guide"`)},
	}
	for _, tc := range []struct{ in, all, deterministic string }{
		{"v" + span("space.vars.version"), "v1.2.3", "v1.2.3"},
		{span("space.vars.major + 1") + " " + span("page.vars.name"), "3 Guide", "3 Guide"},
		{span(`upper(page.vars.name) + &quot;!&quot;`), "GUIDE!", "GUIDE!"},
		{span("space.vars.beta ? &quot;beta&quot; : &quot;stable&quot;"), "beta", "beta"},
		{span("space.vars.star"), `\*bold\* &lt;b&gt;`, `\*bold\* &lt;b&gt;`},
		{span("space.vars.missing"), "", ""},
		{span("visitor.claims.plan"), "", span("visitor.claims.plan")},
		{span("now().Year() > 2000"), "true", span("now().Year() > 2000")},
		{span("1 +"), span("1 +"), span("1 +")},
		{span(strings.Repeat("1+", 600) + "1"), span(strings.Repeat("1+", 600) + "1"), span(strings.Repeat("1+", 600) + "1")},
		{"no expressions", "no expressions", "no expressions"},
	} {
		if got := Markdown(tc.in, v, All); got != tc.all {
			t.Errorf("all: %q → %q, want %q", tc.in, got, tc.all)
		}
		if got := Markdown(tc.in, v, DeterministicOnly); got != tc.deterministic {
			t.Errorf("deterministic-only: %q → %q, want %q", tc.in, got, tc.deterministic)
		}
		if got := Markdown(tc.in, v, None); got != tc.in {
			t.Errorf("none changed %q to %q", tc.in, got)
		}
	}
}

func TestExpressionsPerPageAreBounded(t *testing.T) {
	in := strings.Repeat(span("1")+" ", ExpressionsMax+5)
	got := Markdown(in, Vars{}, All)
	if n := strings.Count(got, "expression"); n != 5 {
		t.Fatalf("%d expressions left unevaluated, want 5", n)
	}
}

func TestMemoryBudget(t *testing.T) {
	// A range of ten million numbers exceeds the VM's memory budget: nothing, quickly.
	if got := Markdown(span("len(map(1..10000000, # * 2))"), Vars{}, All); got != "" {
		t.Fatalf("got %q", got)
	}
}

func TestDeterministic(t *testing.T) {
	for src, want := range map[string]bool{
		"space.vars.a": true, "page.vars.a == 1": true, "len(space.vars.a)": true, `date("2024-01-01").Year()`: true,
		"visitor.claims.a": false, "now()": false, "f(space.vars.a)": false, "space.vars.a ?? other": false,
	} {
		tree, err := parser.Parse(src)
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		if got := Deterministic(tree.Node); got != want {
			t.Errorf("%s: deterministic %v, want %v", src, got, want)
		}
	}
}
