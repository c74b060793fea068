package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"sort"
	"strings"
)

// OperationHTML renders one operation of a version as an API reference: method and path,
// summary and description, parameters, request body and responses with their schemas
// (nested, required marks, enums), examples made from the schemas and a curl sample.
// false when the version has no such operation.
func OperationHTML(v Version, p, method string) (string, bool) {
	return operationWith(v, p, method, false)
}

// OperationTryItHTML is OperationHTML with a "try it" panel when the spec names an absolute
// http(s) server: a form for the parameters and body that the site's first-party script
// (TryItScript) sends from the reader's browser. Only for public specs.
func OperationTryItHTML(v Version, p, method string) (string, bool) {
	return operationWith(v, p, method, true)
}

func operationWith(v Version, p, method string, tryIt bool) (string, bool) {
	t, ok := newDocTree(v)
	if !ok {
		return "", false
	}
	op, item, at, ok := t.operation(p, method)
	if !ok {
		return "", false
	}
	out := t.operationHTML(op, item, at, p, method, true)
	if tryIt {
		out = strings.TrimSuffix(out, "</div>") + t.tryItHTML(item, op, at, p, method) + "</div>"
	}
	return out, true
}

// WebhookHTML renders a webhook of an OpenAPI 3.1 version (what the API sends, by name and
// method), as OperationHTML does an operation, without a sample request.
func WebhookHTML(v Version, name, method string) (string, bool) {
	t, ok := newDocTree(v)
	if !ok {
		return "", false
	}
	hooks, _ := t.root["webhooks"].(map[string]any)
	raw, found := hooks[name]
	if !found {
		return "", false
	}
	item, at := t.deref(node{v: raw, file: t.entry})
	op, ok := item[strings.ToLower(method)].(map[string]any)
	if !ok {
		return "", false
	}
	return t.operationHTML(op, item, at, name, method, false), true
}

func (t *docTree) operationHTML(op, item map[string]any, at node, p, method string, sample bool) string {
	var b strings.Builder
	m := strings.ToUpper(method)
	fmt.Fprintf(&b, `<div class="openapi-operation"><p class="openapi-endpoint"><span class="openapi-method openapi-method-%s">%s</span> <code>%s</code></p>`,
		strings.ToLower(method), esc(m), esc(p))
	if s, _ := op["summary"].(string); s != "" {
		fmt.Fprintf(&b, `<p class="openapi-summary"><strong>%s</strong></p>`, esc(s))
	}
	if d, _ := op["description"].(string); d != "" {
		paragraphs(&b, d)
	}
	if dep, _ := op["deprecated"].(bool); dep {
		b.WriteString(`<p class="openapi-deprecated">Deprecated</p>`)
	}

	params := t.parameters(item, op, at)
	var body *node
	var bodyType string
	if len(params) > 0 {
		b.WriteString(`<p class="openapi-heading"><strong>Parameters</strong></p><table class="openapi-parameters"><thead><tr><th>Name</th><th>In</th><th>Type</th><th>Description</th></tr></thead><tbody>`)
		for _, prm := range params {
			if prm.in == "body" {
				n := prm.schema
				body, bodyType = &n, "application/json"
				continue
			}
			s, _ := t.deref(prm.schema)
			fmt.Fprintf(&b, `<tr><td><code>%s</code>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>`,
				esc(prm.name), requiredMark(prm.required), esc(prm.in), esc(typeLabel(s, prm.schema)), esc(prm.description)+enumHTML(s))
		}
		b.WriteString(`</tbody></table>`)
	}
	if rb, rbAt := t.deref(node{v: op["requestBody"], file: at.file}); rb != nil {
		if mt, schema, ok := t.mediaSchema(rb, rbAt); ok {
			body, bodyType = &schema, mt
		}
	}
	if body != nil {
		fmt.Fprintf(&b, `<p class="openapi-heading"><strong>Request body</strong> <code>%s</code></p>`, esc(bodyType))
		t.schemaHTML(&b, *body, 0)
		example(&b, t.example(*body, 0))
	}

	responses, _ := op["responses"].(map[string]any)
	codes := make([]string, 0, len(responses))
	for c := range responses {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	if len(codes) > 0 {
		b.WriteString(`<p class="openapi-heading"><strong>Responses</strong></p>`)
	}
	for _, code := range codes {
		r, rAt := t.deref(node{v: responses[code], file: at.file})
		if r == nil {
			continue
		}
		desc, _ := r["description"].(string)
		fmt.Fprintf(&b, `<details class="openapi-response" open><summary><code>%s</code> %s</summary>`, esc(code), esc(desc))
		var schema node
		found := false
		if t.swagger() {
			if s, ok := r["schema"]; ok {
				schema, found = node{v: s, file: rAt.file}, true
			}
		} else if mt, s, ok := t.mediaSchema(r, rAt); ok {
			fmt.Fprintf(&b, `<p class="openapi-media-type"><code>%s</code></p>`, esc(mt))
			schema, found = s, true
		}
		if found {
			t.schemaHTML(&b, schema, 0)
			example(&b, t.example(schema, 0))
		}
		b.WriteString(`</details>`)
	}
	if sample {
		b.WriteString(`<p class="openapi-heading"><strong>Sample request</strong></p>`)
		b.WriteString(`<pre class="openapi-curl"><code class="language-bash">` + esc(t.curl(m, p, params, body)) + `</code></pre>`)
	}
	b.WriteString(`</div>`)
	return b.String()
}

// SchemasHTML renders named schemas of a version ("The Pet object"); false when it has none
// of them.
func SchemasHTML(v Version, names []string) (string, bool) {
	t, ok := newDocTree(v)
	if !ok {
		return "", false
	}
	var b strings.Builder
	found := false
	b.WriteString(`<div class="openapi-schemas">`)
	for _, name := range names {
		name = strings.TrimSpace(name)
		n, ok := t.schemaNamed(name)
		if name == "" || !ok {
			continue
		}
		found = true
		fmt.Fprintf(&b, `<div class="openapi-schema-block"><p class="openapi-heading"><strong>The %s object</strong></p>`, esc(name))
		if s, _ := t.deref(n); s != nil {
			if d, _ := s["description"].(string); d != "" {
				paragraphs(&b, d)
			}
		}
		t.schemaHTML(&b, n, 0)
		example(&b, t.example(n, 0))
		b.WriteString(`</div>`)
	}
	b.WriteString(`</div>`)
	return b.String(), found
}

type parameter struct {
	name, in, description string
	required              bool
	schema                node
}

// parameters are the path item's and the operation's, the operation's winning by name and
// place; Swagger 2.0's type sits on the parameter itself, its body parameter's under schema.
func (t *docTree) parameters(item, op map[string]any, at node) []parameter {
	var out []parameter
	index := map[string]int{}
	for _, list := range []any{item["parameters"], op["parameters"]} {
		arr, _ := list.([]any)
		for _, raw := range arr {
			pm, pAt := t.deref(node{v: raw, file: at.file})
			if pm == nil {
				continue
			}
			prm := parameter{}
			prm.name, _ = pm["name"].(string)
			prm.in, _ = pm["in"].(string)
			prm.description, _ = pm["description"].(string)
			prm.required, _ = pm["required"].(bool)
			if s, ok := pm["schema"]; ok {
				prm.schema = node{v: s, file: pAt.file}
			} else {
				prm.schema = node{v: pm, file: pAt.file}
			}
			key := prm.in + ":" + prm.name
			if i, dup := index[key]; dup {
				out[i] = prm
				continue
			}
			index[key] = len(out)
			out = append(out, prm)
		}
	}
	return out
}

// mediaSchema picks the JSON media type of a request body or response, else the first.
func (t *docTree) mediaSchema(m map[string]any, at node) (string, node, bool) {
	content, _ := m["content"].(map[string]any)
	types := make([]string, 0, len(content))
	for mt := range content {
		types = append(types, mt)
	}
	sort.Slice(types, func(i, j int) bool {
		ji, jj := strings.Contains(types[i], "json"), strings.Contains(types[j], "json")
		if ji != jj {
			return ji
		}
		return types[i] < types[j]
	})
	for _, mt := range types {
		media, _ := content[mt].(map[string]any)
		if s, ok := media["schema"]; ok {
			return mt, node{v: s, file: at.file}, true
		}
	}
	return "", node{}, false
}

// schemaHTML writes a schema as a nested list of its properties.
func (t *docTree) schemaHTML(b *strings.Builder, n node, depth int) {
	s, at := t.deref(n)
	if s == nil || depth > 6 {
		return
	}
	props := map[string]any{}
	var required []any
	collect := func(m map[string]any) {
		if p, ok := m["properties"].(map[string]any); ok {
			for k, v := range p {
				props[k] = node{v: v, file: at.file}
			}
		}
		if r, ok := m["required"].([]any); ok {
			required = append(required, r...)
		}
	}
	collect(s)
	if all, ok := s["allOf"].([]any); ok {
		for _, part := range all {
			if pm, pAt := t.deref(node{v: part, file: at.file}); pm != nil {
				if p, ok := pm["properties"].(map[string]any); ok {
					for k, v := range p {
						props[k] = node{v: v, file: pAt.file}
					}
				}
				if r, ok := pm["required"].([]any); ok {
					required = append(required, r...)
				}
			}
		}
	}
	if schemaType(s) == "array" && len(props) == 0 {
		fmt.Fprintf(b, `<p class="openapi-type">%s</p>`, esc(typeLabel(s, n)))
		t.schemaHTML(b, node{v: s["items"], file: at.file}, depth+1)
		return
	}
	if len(props) == 0 {
		fmt.Fprintf(b, `<p class="openapi-type">%s%s</p>`, esc(typeLabel(s, n)), enumHTML(s))
		return
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	sort.Strings(names)
	b.WriteString(`<ul class="openapi-schema">`)
	for _, name := range names {
		pn := props[name].(node)
		ps, _ := t.deref(pn)
		isRequired := false
		for _, r := range required {
			if r == name {
				isRequired = true
			}
		}
		fmt.Fprintf(b, `<li><code>%s</code> <span class="openapi-type">%s</span>%s`, esc(name), esc(typeLabel(ps, pn)), requiredMark(isRequired))
		if ps != nil {
			if d, _ := ps["description"].(string); d != "" {
				fmt.Fprintf(b, ` <span class="openapi-description">%s</span>`, esc(d))
			}
			b.WriteString(enumHTML(ps))
			if st := schemaType(ps); st == "object" || st == "array" {
				t.schemaHTML(b, pn, depth+1)
			}
		}
		b.WriteString(`</li>`)
	}
	b.WriteString(`</ul>`)
}

// typeLabel names a schema's type as a reader expects it: "Pet", "string · date-time",
// "array of Pet".
func typeLabel(s map[string]any, n node) string {
	if m, ok := n.v.(map[string]any); ok {
		if name := refName(m); name != "" {
			return name
		}
	}
	if s == nil {
		return "any"
	}
	st := schemaType(s)
	if st == "array" {
		if items, ok := s["items"].(map[string]any); ok {
			if name := refName(items); name != "" {
				return "array of " + name
			}
			if it := schemaType(items); it != "" {
				return "array of " + it
			}
		}
		return "array"
	}
	if st == "" {
		st = "any"
	}
	if f, _ := s["format"].(string); f != "" {
		st += " · " + f
	}
	return st
}

func requiredMark(required bool) string {
	if required {
		return ` <span class="openapi-required">required</span>`
	}
	return ""
}

func enumHTML(s map[string]any) string {
	enum, _ := s["enum"].([]any)
	if len(enum) == 0 {
		return ""
	}
	vals := make([]string, 0, len(enum))
	for _, e := range enum {
		vals = append(vals, "<code>"+esc(fmt.Sprint(e))+"</code>")
	}
	return ` <span class="openapi-enum">One of: ` + strings.Join(vals, ", ") + `</span>`
}

func example(b *strings.Builder, v any) {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil || v == nil {
		return
	}
	b.WriteString(`<pre class="openapi-example"><code class="language-json">` + esc(string(out)) + `</code></pre>`)
}

// curl is a sample request: the server, the path with its path parameters named, the
// required query parameters, and an example body.
func (t *docTree) curl(method, p string, params []parameter, body *node) string {
	u := t.server() + p
	var query []string
	for _, prm := range params {
		if prm.in == "query" && prm.required {
			query = append(query, prm.name+"="+fmt.Sprint(t.example(prm.schema, 0)))
		}
	}
	if len(query) > 0 {
		u += "?" + strings.Join(query, "&")
	}
	lines := []string{fmt.Sprintf("curl -X %s '%s'", method, u)}
	for _, prm := range params {
		if prm.in == "header" && prm.required {
			lines = append(lines, fmt.Sprintf("  -H '%s: %v'", prm.name, t.example(prm.schema, 0)))
		}
	}
	if body != nil {
		ex, _ := json.Marshal(t.example(*body, 0))
		lines = append(lines, "  -H 'Content-Type: application/json'", "  -d '"+strings.ReplaceAll(string(ex), "'", `'\''`)+"'")
	}
	return strings.Join(lines, " \\\n")
}

// paragraphs writes a description's paragraphs as text.
func paragraphs(b *strings.Builder, text string) {
	for _, para := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		if para = strings.TrimSpace(para); para != "" {
			b.WriteString(`<p class="openapi-description">` + esc(para) + `</p>`)
		}
	}
}

func esc(s string) string { return html.EscapeString(s) }

// References renders the API reference blocks of an organization's pages from the latest
// version of the spec each names by slug, for markdoc.HTMLHooks: read at render time, so a
// new version shows on the next page view. Versions are read once per call of the result.
func (s *Service) References(ctx context.Context, orgID string) func(tag string, attrs map[string]string) (string, bool) {
	versions := map[string]*Version{}
	public := map[string]bool{} // by the key of versions: the spec is public
	// latest reads the latest version of the spec of a slug, or of a source URL for the
	// older {% openapi src="…" %} and {% swagger %} blocks.
	latest := func(slug, src string) *Version {
		key := slug + "\x00" + src
		if v, seen := versions[key]; seen {
			return v
		}
		versions[key] = nil
		var sp Spec
		var err error
		if src != "" {
			sp, err = s.store.SpecBySourceURL(ctx, orgID, src)
		} else {
			sp, err = s.store.Spec(ctx, orgID, slug)
		}
		if err != nil || sp.LastVersion == "" {
			return nil
		}
		v, err := s.store.Version(ctx, sp.ID, sp.LastVersion)
		if err != nil {
			return nil
		}
		versions[key] = &v
		public[key] = sp.Visibility == Public
		return &v
	}
	return func(tag string, attrs map[string]string) (string, bool) {
		var v *Version
		key := ""
		if tag == "openapi" || tag == "swagger" {
			if strings.HasPrefix(attrs["src"], "http://") || strings.HasPrefix(attrs["src"], "https://") {
				key = "\x00" + attrs["src"]
				v = latest("", attrs["src"])
			}
		} else if attrs["spec"] != "" {
			key = attrs["spec"] + "\x00"
			v = latest(attrs["spec"], "")
		}
		if v == nil {
			return "", false
		}
		switch tag {
		case "openapi", "swagger", "openapi-operation":
			// Readers may try the operations of a public spec; a private one's server is
			// the organization's business, so its pages carry no panel and load no script.
			return operationWith(*v, attrs["path"], attrs["method"], public[key])
		case "openapi-schemas":
			return SchemasHTML(*v, strings.Split(attrs["schemas"], ","))
		case "openapi-webhook":
			return WebhookHTML(*v, attrs["name"], attrs["method"])
		}
		return "", false
	}
}
