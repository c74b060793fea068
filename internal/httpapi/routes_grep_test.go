package httpapi_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/httpapi"
)

// Every route's method and path appear once, as a literal string, where it is registered:
// `grep -rn '"GET /v1/spaces/{spaceId}/content/page/{pageId}"' internal/httpapi` finds its
// handler. A registration helper is a Server method whose first parameter is `pattern`; every
// call to one must pass a literal, except a helper handing its own pattern on to another.
func TestRoutesAreGreppable(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var parsed []*ast.File
	helpers := map[string]bool{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		parsed = append(parsed, f)
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && isRegistrationHelper(fn) {
				helpers[fn.Name.Name] = true
			}
		}
	}
	if !helpers["handle"] || !helpers["register"] {
		t.Fatalf("registration helpers found: %v; the test no longer knows how routes are registered", helpers)
	}
	shape := regexp.MustCompile(`^(GET|HEAD|POST|PUT|PATCH|DELETE) /\S*$`)
	var literals []string
	for _, f := range parsed {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			forwarding := fn.Recv != nil && helpers[fn.Name.Name]
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) == 0 {
					return true
				}
				sel, ok := call.Fun.(*ast.SelectorExpr)
				if !ok || !helpers[sel.Sel.Name] {
					return true
				}
				if id, ok := sel.X.(*ast.Ident); !ok || id.Name != "s" {
					return true
				}
				switch arg := call.Args[0].(type) {
				case *ast.BasicLit:
					p, err := strconv.Unquote(arg.Value)
					if arg.Kind != token.STRING || err != nil || !shape.MatchString(p) {
						t.Errorf("%s: route %s is not a \"METHOD /path\" string", fset.Position(arg.Pos()), arg.Value)
					}
					literals = append(literals, p)
				case *ast.Ident:
					if !forwarding || arg.Name != "pattern" {
						t.Errorf("%s: route registered from %s, not a literal string", fset.Position(arg.Pos()), arg.Name)
					}
				default:
					t.Errorf("%s: route registered from an expression, not a literal string", fset.Position(call.Args[0].Pos()))
				}
				return true
			})
		}
	}

	// The literals are exactly the routes the server registers, each once.
	e := apitest.New(t)
	registered := e.App.Handler().(*httpapi.Server).Routes()
	slices.Sort(literals)
	slices.Sort(registered)
	for i := 1; i < len(literals); i++ {
		if literals[i] == literals[i-1] {
			t.Errorf("route %q is written twice", literals[i])
		}
	}
	if !slices.Equal(literals, registered) {
		t.Errorf("the server registers %d routes, the source writes %d literally:\n%s", len(registered), len(literals),
			strings.Join(difference(registered, literals), "\n"))
	}
}

// isRegistrationHelper reports whether fn's first parameter is `pattern string`.
func isRegistrationHelper(fn *ast.FuncDecl) bool {
	params := fn.Type.Params.List
	if len(params) == 0 || len(params[0].Names) == 0 || params[0].Names[0].Name != "pattern" {
		return false
	}
	id, ok := params[0].Type.(*ast.Ident)
	return ok && id.Name == "string"
}

// difference lists what is in one sorted list and not the other, marked by side.
func difference(registered, literal []string) []string {
	var out []string
	for _, p := range registered {
		if !slices.Contains(literal, p) {
			out = append(out, "registered, not written literally: "+p)
		}
	}
	for _, p := range literal {
		if !slices.Contains(registered, p) {
			out = append(out, "written, not registered: "+p)
		}
	}
	return out
}
