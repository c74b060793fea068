// Package apispec judges HTTP answers by an OpenAPI document (3.0 or 3.1, as JSON): it finds
// the operation a request was for and says whether the answer is one the operation allows.
//
// What the judge checks, for an answer to a request that matches an operation:
//
//   - a success or redirect status (1xx-3xx) is one the operation declares (or `default`);
//   - an error status (4xx, 5xx) is one the operation declares, or its `default`, or one of
//     the statuses any operation of the API may answer (GenericErrors): the public GitBook
//     spec declares errors sparsely (0.146.0 declares 401 on no operation, although every
//     operation takes a token, and 400 on a third of those that take a body), so the judge
//     holds an undeclared error to the API-wide error shape instead of refusing it;
//   - an error body is {"error":{"code":N,"message":"..."}} with N the status;
//   - a JSON body validates against the schema the status declares for its media type;
//   - a status that declares no content answers with no body; one that declares content
//     answers with a media type it declares.
//
// Schemas are converted to JSON Schema with OpenAPI's meaning (see convert.go), compiled
// when first needed and kept: a document is parsed once and judges any number of answers,
// from any number of goroutines.
package apispec

import (
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// GenericErrors are the error statuses any operation may answer without declaring them:
// bad input, a missing or unknown token, a caller who may see but not do, a resource absent
// or invisible to the caller, a conflict with the current state, a body over the size cap,
// too many requests, and the server's own failures.
var GenericErrors = map[int]bool{400: true, 401: true, 403: true, 404: true, 409: true,
	413: true, 429: true, 500: true, 502: true, 503: true}

// Doc is a parsed OpenAPI document.
type Doc struct {
	// Label names the document in messages: a version of the public spec, or "docsd".
	Label string
	ops   map[string][]*Operation // by upper-case method

	mu       sync.Mutex
	compiler *jsonschema.Compiler
	compiled map[string]*jsonschema.Schema // by $defs name
	resource string
}

// Operation is one method on one path of a document.
type Operation struct {
	ID     string
	Method string
	// Path is the full path template, with the server's base: /v1/spaces/{spaceId}.
	Path      string
	segs      []string
	Responses map[string]*Response // by status code, "2XX" or "default"
	doc       *Doc
}

// Response is what an operation declares for one status.
type Response struct {
	// Content maps a media type to the $defs name of its schema ("" when none).
	Content map[string]string
}

var methods = []string{"get", "put", "post", "patch", "delete", "head", "options", "trace"}

// Parse reads an OpenAPI document. Nothing is compiled yet.
func Parse(label string, raw []byte) (*Doc, error) {
	v, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	root, _ := v.(map[string]any)
	version, _ := root["openapi"].(string)
	if !strings.HasPrefix(version, "3.0") && !strings.HasPrefix(version, "3.1") {
		return nil, fmt.Errorf("%s: openapi %q, want 3.0 or 3.1", label, version)
	}
	oas30 := strings.HasPrefix(version, "3.0")
	d := &Doc{Label: label, ops: map[string][]*Operation{}, compiled: map[string]*jsonschema.Schema{},
		resource: "mem://apispec/" + url.PathEscape(label) + ".json"}

	comps, _ := root["components"].(map[string]any)
	defs := map[string]any{}
	schemas, _ := comps["schemas"].(map[string]any)
	for name, s := range schemas {
		defs[name] = convertSchema(s, oas30)
	}
	sharedResponses, _ := comps["responses"].(map[string]any)

	base := serverBase(root["servers"])
	paths, _ := root["paths"].(map[string]any)
	for p, itemV := range paths {
		item, _ := itemV.(map[string]any)
		prefix := base
		if s, ok := item["servers"]; ok {
			prefix = serverBase(s)
		}
		full := strings.TrimSuffix(prefix, "/") + p
		for _, m := range methods {
			opV, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			op := &Operation{Method: strings.ToUpper(m), Path: full, segs: strings.Split(strings.Trim(full, "/"), "/"),
				Responses: map[string]*Response{}, doc: d}
			op.ID, _ = opV["operationId"].(string)
			if op.ID == "" {
				op.ID = op.Method + " " + full
			}
			responses, _ := opV["responses"].(map[string]any)
			for status, rV := range responses {
				r, _ := rV.(map[string]any)
				if ref, ok := r["$ref"].(string); ok {
					r, _ = sharedResponses[strings.TrimPrefix(ref, "#/components/responses/")].(map[string]any)
				}
				resp := &Response{Content: map[string]string{}}
				content, _ := r["content"].(map[string]any)
				for mt, mV := range content {
					media, _ := mV.(map[string]any)
					name := ""
					if s, ok := media["schema"]; ok {
						name = "apispec.response." + strconv.Itoa(len(defs))
						defs[name] = convertSchema(s, oas30)
					}
					resp.Content[mt] = name
				}
				op.Responses[status] = resp
			}
			d.ops[op.Method] = append(d.ops[op.Method], op)
		}
	}
	for _, ops := range d.ops {
		// Most literal segments first, leftmost first: /spaces/{id}/content/template before
		// /spaces/{id}/content/{x}.
		sort.Slice(ops, func(i, j int) bool { return moreLiteral(ops[i].segs, ops[j].segs) })
	}

	d.compiler = jsonschema.NewCompiler()
	d.compiler.DefaultDraft(jsonschema.Draft2020)
	d.compiler.AssertFormat()
	if err := d.compiler.AddResource(d.resource, map[string]any{"$defs": defs}); err != nil {
		return nil, fmt.Errorf("%s: %w", label, err)
	}
	return d, nil
}

// serverBase is the path of a servers list's first URL: "{host}/v1" and
// "https://api.gitbook.com/v1" are /v1, "/" is "".
func serverBase(v any) string {
	l, _ := v.([]any)
	if len(l) == 0 {
		return ""
	}
	s, _ := l[0].(map[string]any)
	u, _ := s["url"].(string)
	u = strings.TrimPrefix(u, "{host}")
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
		if j := strings.IndexByte(u, '/'); j >= 0 {
			u = u[j:]
		} else {
			u = ""
		}
	}
	return strings.TrimSuffix(u, "/")
}

func isParam(seg string) bool { return strings.HasPrefix(seg, "{") && strings.HasSuffix(seg, "}") }

func moreLiteral(a, b []string) bool {
	for i := 0; i < len(a) && i < len(b); i++ {
		if pa, pb := isParam(a[i]), isParam(b[i]); pa != pb {
			return !pa
		}
	}
	return len(a) > len(b)
}

// Operations lists the document's operations.
func (d *Doc) Operations() []*Operation {
	var out []*Operation
	for _, ops := range d.ops {
		out = append(out, ops...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Find returns the operation for a request's method and path (without query), or nil. A
// parameter matches one segment; when no template matches, a parameter at the end of a
// template whose name ends in "path" ({path}, {pagePath}) matches the rest of the path: page
// paths and published sites' paths hold slashes.
func (d *Doc) Find(method, path string) *Operation {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	ops := d.ops[strings.ToUpper(method)]
	for _, op := range ops {
		if matchSegs(op.segs, segs, false) {
			return op
		}
	}
	for _, op := range ops {
		if matchSegs(op.segs, segs, true) {
			return op
		}
	}
	return nil
}

func restParam(seg string) bool {
	return isParam(seg) && strings.HasSuffix(strings.ToLower(seg), "path}")
}

func matchSegs(tmpl, segs []string, restAtEnd bool) bool {
	if len(tmpl) != len(segs) && !(restAtEnd && len(tmpl) > 0 && len(segs) >= len(tmpl) && restParam(tmpl[len(tmpl)-1])) {
		return false
	}
	for i, t := range tmpl {
		if isParam(t) {
			if segs[i] == "" && len(tmpl) > 1 {
				return false
			}
			continue
		}
		if t != segs[i] {
			return false
		}
	}
	return true
}

// response returns what the operation declares for status and the key it is declared under.
func (op *Operation) response(status int) (*Response, string) {
	code := strconv.Itoa(status)
	if r, ok := op.Responses[code]; ok {
		return r, code
	}
	rng := code[:1] + "XX"
	if r, ok := op.Responses[rng]; ok {
		return r, rng
	}
	if r, ok := op.Responses["default"]; ok {
		return r, "default"
	}
	return nil, ""
}

// schema compiles (once) and returns the schema named name in the document's $defs.
func (d *Doc) schema(name string) (*jsonschema.Schema, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.compiled[name]; ok {
		return s, nil
	}
	// Names are component names or apispec.response.N: nothing in them needs escaping.
	s, err := d.compiler.Compile(d.resource + "#/$defs/" + name)
	if err != nil {
		return nil, err
	}
	d.compiled[name] = s
	return s, nil
}

// Literals counts the template's literal segments: of two templates that match a path, the
// one with more is the more specific.
func (op *Operation) Literals() int {
	n := 0
	for _, s := range op.segs {
		if !isParam(s) {
			n++
		}
	}
	return n
}

// Label names the document an operation belongs to: a version of the public spec, or "docsd".
func (o *Operation) Label() string { return o.doc.Label }
