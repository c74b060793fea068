package openapi

import (
	"path"
	"strconv"
	"strings"
)

// docTree is a version's files decoded, for reading the specification as a whole: $refs are
// followed across its files with JSON pointers.
type docTree struct {
	entry string
	files map[string]any
	root  map[string]any
}

// newDocTree decodes a version's files; false when its entry is not an object.
func newDocTree(v Version) (*docTree, bool) {
	t := &docTree{entry: v.Entry, files: map[string]any{}}
	for name, text := range v.Files {
		if tree, problem := decodeFile(name, []byte(text)); problem == nil {
			t.files[name] = tree
		}
	}
	root, ok := t.files[v.Entry].(map[string]any)
	t.root = root
	return t, ok
}

// swagger reports a Swagger 2.0 document.
func (t *docTree) swagger() bool { _, ok := t.root["swagger"]; return ok }

// node is a value of the tree and the file it was read from, which its $refs are relative to.
type node struct {
	v    any
	file string
}

// deref follows $refs (at most a few hops, so a cycle ends) and returns the object reached.
func (t *docTree) deref(n node) (map[string]any, node) {
	for range 16 {
		m, ok := n.v.(map[string]any)
		if !ok {
			return nil, n
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return m, n
		}
		next, ok := t.resolve(n.file, ref)
		if !ok {
			return m, n
		}
		n = next
	}
	return nil, n
}

// resolve reads ref ("other.yaml#/Pet", "#/components/schemas/Pet") from file.
func (t *docTree) resolve(file, ref string) (node, bool) {
	target, pointer, _ := strings.Cut(ref, "#")
	if target != "" {
		file = path.Clean(path.Join(path.Dir(file), target))
	}
	cur, ok := t.files[file]
	if !ok {
		return node{}, false
	}
	for _, part := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		if part == "" {
			continue
		}
		part = strings.ReplaceAll(strings.ReplaceAll(part, "~1", "/"), "~0", "~")
		switch c := cur.(type) {
		case map[string]any:
			if cur, ok = c[part]; !ok {
				return node{}, false
			}
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(c) {
				return node{}, false
			}
			cur = c[i]
		default:
			return node{}, false
		}
	}
	return node{v: cur, file: file}, true
}

// refName is the last segment of a $ref, which names a schema ("Pet").
func refName(m map[string]any) string {
	ref, _ := m["$ref"].(string)
	if i := strings.LastIndex(ref, "/"); i >= 0 {
		return ref[i+1:]
	}
	return ""
}

// operation finds the operation at path and method, with the path item's parameters.
func (t *docTree) operation(p, method string) (op map[string]any, item map[string]any, at node, ok bool) {
	paths, _ := t.root["paths"].(map[string]any)
	raw, found := paths[p]
	if !found {
		return nil, nil, node{}, false
	}
	item, at = t.deref(node{v: raw, file: t.entry})
	if item == nil {
		return nil, nil, node{}, false
	}
	op, ok = item[strings.ToLower(method)].(map[string]any)
	return op, item, at, ok
}

// schemaNamed finds a named schema: components.schemas in OpenAPI 3, definitions in Swagger 2.
func (t *docTree) schemaNamed(name string) (node, bool) {
	if t.swagger() {
		defs, _ := t.root["definitions"].(map[string]any)
		s, ok := defs[name]
		return node{v: s, file: t.entry}, ok
	}
	comps, _ := t.root["components"].(map[string]any)
	schemas, _ := comps["schemas"].(map[string]any)
	s, ok := schemas[name]
	return node{v: s, file: t.entry}, ok
}

// server is the base URL requests go to, for the curl sample.
func (t *docTree) server() string {
	if t.swagger() {
		host, _ := t.root["host"].(string)
		if host == "" {
			return "https://api.example.com"
		}
		scheme := "https"
		if schemes, ok := t.root["schemes"].([]any); ok && len(schemes) > 0 {
			if s, ok := schemes[0].(string); ok {
				scheme = s
			}
		}
		base, _ := t.root["basePath"].(string)
		return scheme + "://" + host + strings.TrimSuffix(base, "/")
	}
	if servers, ok := t.root["servers"].([]any); ok && len(servers) > 0 {
		if s, ok := servers[0].(map[string]any); ok {
			if u, ok := s["url"].(string); ok && u != "" {
				return strings.TrimSuffix(u, "/")
			}
		}
	}
	return "https://api.example.com"
}
