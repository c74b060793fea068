// Package evaluate resolves the expressions of a page's markdown (GitBook writes them as
// <code class="expression">space.vars.version</code>) against the space's and the page's
// variables, for reads with `evaluated` set.
package evaluate

import (
	"encoding/json"
	"html"
	"regexp"
	"strconv"
	"strings"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/parser"
)

// Modes of evaluation, as the API's `evaluated` parameter names them.
const (
	None              = "false"              // leave every expression as written
	All               = "true"               // evaluate every expression
	DeterministicOnly = "deterministic-only" // evaluate only expressions of deterministic inputs
)

// Modes lists every mode, for validation.
var Modes = []string{All, None, DeterministicOnly}

// Limits: an expression is at most ExpressionMax characters (as the API's Expression), and
// at most ExpressionsMax of a page are evaluated; the rest, and longer ones, stay as written.
const (
	ExpressionMax  = 1024
	ExpressionsMax = 1000
)

// expressionSpan is how an expression is written in markdown.
var expressionSpan = regexp.MustCompile(`<code\s+class\s*=\s*"expression"\s*>([^<]*)</code>`)

// Vars are the variables an expression can read: the space's (`space.vars.x`) and the
// page's (`page.vars.x`). Values are JSON strings, numbers or booleans.
type Vars struct {
	Space, Page map[string]json.RawMessage
}

func (v Vars) env() map[string]any {
	decode := func(m map[string]json.RawMessage) map[string]any {
		out := make(map[string]any, len(m))
		for k, raw := range m {
			var x any
			if json.Unmarshal(raw, &x) == nil {
				out[k] = x
			}
		}
		return out
	}
	return map[string]any{"space": map[string]any{"vars": decode(v.Space)}, "page": map[string]any{"vars": decode(v.Page)}}
}

// Markdown returns markdown with its expressions replaced by their values as text, in the
// given mode. In mode All, an expression that reads something docsd does not know (a
// visitor's claims) or fails yields nothing; an expression that does not parse stays.
func Markdown(markdown string, v Vars, mode string) string {
	if mode != All && mode != DeterministicOnly {
		return markdown
	}
	if !strings.Contains(markdown, "expression") {
		return markdown
	}
	env := v.env()
	n := 0
	return expressionSpan.ReplaceAllStringFunc(markdown, func(span string) string {
		n++
		source := html.UnescapeString(expressionSpan.FindStringSubmatch(span)[1])
		if n > ExpressionsMax || len([]rune(source)) > ExpressionMax {
			return span
		}
		tree, err := parser.Parse(source)
		if err != nil {
			return span
		}
		if mode == DeterministicOnly && !Deterministic(tree.Node) {
			return span
		}
		program, err := expr.Compile(source, expr.Env(env), expr.AllowUndefinedVariables())
		if err != nil {
			return ""
		}
		out, err := expr.Run(program, env)
		if err != nil {
			return ""
		}
		return escape(text(out))
	})
}

// Deterministic reports whether an expression reads only the space's and the page's
// variables and constants: not a visitor's claims or anything else docsd does not hold, and
// not the clock.
func Deterministic(n ast.Node) bool {
	d := &determinism{ok: true}
	ast.Walk(&n, d)
	return d.ok
}

type determinism struct{ ok bool }

func (d *determinism) Visit(n *ast.Node) {
	switch n := (*n).(type) {
	case *ast.IdentifierNode:
		if n.Value != "space" && n.Value != "page" {
			d.ok = false
		}
	case *ast.BuiltinNode:
		if n.Name == "now" || n.Name == "date" && len(n.Arguments) == 0 {
			d.ok = false
		}
	case *ast.VariableDeclaratorNode, *ast.PointerNode:
		// let bindings and closure arguments are read through identifiers of their own,
		// which the rule above refuses; that errs on the safe side.
	}
}

// text renders a value as the page shows it.
func text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// escape keeps a value's text from being read as markdown or HTML.
var escape = strings.NewReplacer(`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`,
	`<`, `&lt;`, `>`, `&gt;`, `&`, `&amp;`, `{`, `\{`, `}`, `\}`, `|`, `\|`).Replace
