package richtext

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"docsd/internal/apperr"
)

// walker visits a decoded document, stopping at the first problem.
type walker struct {
	limits Limits
	count  int
}

func (w *walker) document(path string, v any) error {
	obj, err := asObject(path, v, "a rich-text document object")
	if err != nil {
		return err
	}
	if err := onlyFields(path, obj, documentFields); err != nil {
		return err
	}
	if err := literal(path, obj, "object", "document"); err != nil {
		return err
	}
	raw, ok := obj["data"]
	if !ok {
		return apperr.Invalidf("%s.data: is required", path)
	}
	data, err := asObject(path+".data", raw, "an object")
	if err != nil {
		return err
	}
	if sv, ok := data["schemaVersion"]; ok {
		if n, isNum := sv.(json.Number); !isNum || !isWholeNumber(n) {
			return apperr.Invalidf("%s.data.schemaVersion: must be a whole number (got %s)", path, describe(sv))
		}
	}
	nodes, err := children(path, obj, true)
	if err != nil {
		return err
	}
	for i, n := range nodes {
		if err := w.block(fmt.Sprintf("%s.nodes[%d]", path, i), n, "", 1); err != nil {
			return err
		}
	}
	return nil
}

// block checks a block node whose parent block has type parent ("" at the top of a document
// or a fragment).
func (w *walker) block(path string, v any, parent string, depth int) error {
	if err := w.enter(path, depth); err != nil {
		return err
	}
	obj, err := asObject(path, v, "a block node object")
	if err != nil {
		return err
	}
	if err := literal(path, obj, "object", "block"); err != nil {
		return err
	}
	typ, err := requiredString(path, obj, "type")
	if err != nil {
		return err
	}
	spec, ok := blockSpecs[typ]
	if !ok {
		return apperr.Invalidf("%s.type: unknown block type %q", path, typ)
	}
	if allowed := blockSpecs[parent].children; parent != "" && allowed != nil && !contains(allowed, typ) {
		return apperr.Invalidf("%s.type: a %q block may hold only %s blocks (got %q)", path, parent, orList(allowed), typ)
	}
	if spec.parents != nil && !contains(spec.parents, parent) {
		return apperr.Invalidf("%s.type: a %q block must be inside a %s block", path, typ, orList(spec.parents))
	}
	if err := w.nodeFields(path, obj, typ, spec.content == holdsNothing, spec.fragments, depth); err != nil {
		return err
	}
	nodes, err := children(path, obj, spec.content != holdsNothing)
	if err != nil {
		return err
	}
	for i, n := range nodes {
		p := fmt.Sprintf("%s.nodes[%d]", path, i)
		switch spec.content {
		case holdsBlocks:
			err = w.block(p, n, typ, depth+1)
		case holdsInlines:
			err = w.inlineOrText(p, n, typ, spec.inlines, depth+1)
		default:
			err = w.voidChild(p, n, typ, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// inlineOrText checks a child of a node holding inline content. allowed, when not nil,
// restricts the inline types (text is always allowed).
func (w *walker) inlineOrText(path string, v any, parent string, allowed []string, depth int) error {
	if err := w.enter(path, depth); err != nil {
		return err
	}
	obj, err := asObject(path, v, "an inline or text node object")
	if err != nil {
		return err
	}
	switch obj["object"] {
	case "text":
		return w.text(path, obj)
	case "inline":
	default:
		if _, ok := obj["object"]; !ok {
			return apperr.Invalidf("%s.object: is required", path)
		}
		return apperr.Invalidf("%s.object: must be \"inline\" or \"text\" inside a %q node (got %s)", path, parent, describe(obj["object"]))
	}
	typ, err := requiredString(path, obj, "type")
	if err != nil {
		return err
	}
	spec, ok := inlineSpecs[typ]
	if !ok {
		return apperr.Invalidf("%s.type: unknown inline type %q", path, typ)
	}
	if allowed != nil && !contains(allowed, typ) {
		return apperr.Invalidf("%s.type: a %q inline is not allowed inside a %q node", path, typ, parent)
	}
	if err := w.nodeFields(path, obj, typ, spec.content == holdsNothing, spec.fragments, depth); err != nil {
		return err
	}
	nodes, err := children(path, obj, spec.content != holdsNothing)
	if err != nil {
		return err
	}
	for i, n := range nodes {
		p := fmt.Sprintf("%s.nodes[%d]", path, i)
		if spec.content == holdsNothing {
			err = w.voidChild(p, n, typ, depth+1)
		} else {
			err = w.inlineOrText(p, n, typ, spec.inlines, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// voidChild checks what a void node holds: editors keep an empty text node there, nothing else.
func (w *walker) voidChild(path string, v any, parent string, depth int) error {
	if err := w.enter(path, depth); err != nil {
		return err
	}
	obj, err := asObject(path, v, "a text node object")
	if err != nil {
		return err
	}
	if obj["object"] != "text" {
		return apperr.Invalidf("%s.object: a void %q node may hold only text nodes (got %s)", path, parent, describe(obj["object"]))
	}
	return w.text(path, obj)
}

// nodeFields checks the fields blocks and inlines share: key, isVoid, data, meta, fragments.
func (w *walker) nodeFields(path string, obj map[string]any, typ string, void, fragments bool, depth int) error {
	if err := onlyFields(path, obj, nodeFields); err != nil {
		return err
	}
	if err := optionalString(path, obj, "key"); err != nil {
		return err
	}
	if raw, ok := obj["isVoid"]; ok {
		b, isBool := raw.(bool)
		if !isBool {
			return apperr.Invalidf("%s.isVoid: must be a boolean (got %s)", path, describe(raw))
		}
		if b != void {
			return apperr.Invalidf("%s.isVoid: must be %t for a %q node", path, void, typ)
		}
	}
	for _, name := range []string{"data", "meta"} {
		if raw, ok := obj[name]; ok {
			if _, err := asObject(path+"."+name, raw, "an object"); err != nil {
				return err
			}
		}
	}
	raw, ok := obj["fragments"]
	if !ok {
		return nil
	}
	if !fragments {
		return apperr.Invalidf("%s.fragments: a %q node has no fragments", path, typ)
	}
	list, isList := raw.([]any)
	if !isList {
		return apperr.Invalidf("%s.fragments: must be an array (got %s)", path, describe(raw))
	}
	for i, f := range list {
		if err := w.fragment(fmt.Sprintf("%s.fragments[%d]", path, i), f, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// fragment checks a named sub-document of a node (a table cell, a caption, an expandable body).
func (w *walker) fragment(path string, v any, depth int) error {
	if err := w.enter(path, depth); err != nil {
		return err
	}
	obj, err := asObject(path, v, "a fragment object")
	if err != nil {
		return err
	}
	if err := onlyFields(path, obj, fragmentFields); err != nil {
		return err
	}
	if err := literal(path, obj, "object", "fragment"); err != nil {
		return err
	}
	for _, name := range []string{"key", "fragment", "type"} {
		if err := optionalString(path, obj, name); err != nil {
			return err
		}
	}
	nodes, err := children(path, obj, true)
	if err != nil {
		return err
	}
	for i, n := range nodes {
		if err := w.block(fmt.Sprintf("%s.nodes[%d]", path, i), n, "", depth+1); err != nil {
			return err
		}
	}
	return nil
}

// text checks a text node: leaves of text, each with marks.
func (w *walker) text(path string, obj map[string]any) error {
	if err := onlyFields(path, obj, textFields); err != nil {
		return err
	}
	if err := optionalString(path, obj, "key"); err != nil {
		return err
	}
	raw, ok := obj["leaves"]
	if !ok {
		return apperr.Invalidf("%s.leaves: is required", path)
	}
	leaves, isList := raw.([]any)
	if !isList {
		return apperr.Invalidf("%s.leaves: must be an array (got %s)", path, describe(raw))
	}
	for i, l := range leaves {
		if err := w.leaf(fmt.Sprintf("%s.leaves[%d]", path, i), l); err != nil {
			return err
		}
	}
	return nil
}

func (w *walker) leaf(path string, v any) error {
	w.count++
	if w.count > w.limits.MaxNodes {
		return apperr.Invalidf("%s: a document may hold at most %d nodes", path, w.limits.MaxNodes)
	}
	obj, err := asObject(path, v, "a leaf object")
	if err != nil {
		return err
	}
	if err := onlyFields(path, obj, leafFields); err != nil {
		return err
	}
	if err := literal(path, obj, "object", "leaf"); err != nil {
		return err
	}
	if _, err := requiredString(path, obj, "text"); err != nil {
		return err
	}
	raw, ok := obj["marks"]
	if !ok {
		return nil
	}
	marks, isList := raw.([]any)
	if !isList {
		return apperr.Invalidf("%s.marks: must be an array (got %s)", path, describe(raw))
	}
	for i, m := range marks {
		if err := mark(fmt.Sprintf("%s.marks[%d]", path, i), m); err != nil {
			return err
		}
	}
	return nil
}

func mark(path string, v any) error {
	obj, err := asObject(path, v, "a mark object")
	if err != nil {
		return err
	}
	if err := onlyFields(path, obj, markFields); err != nil {
		return err
	}
	if err := literal(path, obj, "object", "mark"); err != nil {
		return err
	}
	typ, err := requiredString(path, obj, "type")
	if err != nil {
		return err
	}
	if !markTypes[typ] {
		return apperr.Invalidf("%s.type: unknown mark type %q", path, typ)
	}
	raw, ok := obj["data"]
	if !ok {
		if typ == "color" {
			return apperr.Invalidf("%s.data: is required for a color mark", path)
		}
		return nil
	}
	_, err = asObject(path+".data", raw, "an object")
	return err
}

// enter counts a node and checks the depth and node limits.
func (w *walker) enter(path string, depth int) error {
	if depth > w.limits.MaxDepth {
		return apperr.Invalidf("%s: nodes may nest at most %d levels deep", path, w.limits.MaxDepth)
	}
	w.count++
	if w.count > w.limits.MaxNodes {
		return apperr.Invalidf("%s: a document may hold at most %d nodes", path, w.limits.MaxNodes)
	}
	return nil
}

func asObject(path string, v any, want string) (map[string]any, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, apperr.Invalidf("%s: must be %s (got %s)", path, want, describe(v))
	}
	return obj, nil
}

// onlyFields refuses fields the kind of object does not have, naming the first in order.
func onlyFields(path string, obj map[string]any, allowed map[string]bool) error {
	var unknown []string
	for k := range obj {
		if !allowed[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return apperr.Invalidf("%s.%s: unknown field", path, unknown[0])
}

func literal(path string, obj map[string]any, name, want string) error {
	v, ok := obj[name]
	if !ok {
		return apperr.Invalidf("%s.%s: is required", path, name)
	}
	if v != want {
		return apperr.Invalidf("%s.%s: must be %q (got %s)", path, name, want, describe(v))
	}
	return nil
}

func requiredString(path string, obj map[string]any, name string) (string, error) {
	v, ok := obj[name]
	if !ok {
		return "", apperr.Invalidf("%s.%s: is required", path, name)
	}
	s, isStr := v.(string)
	if !isStr {
		return "", apperr.Invalidf("%s.%s: must be a string (got %s)", path, name, describe(v))
	}
	return s, nil
}

func optionalString(path string, obj map[string]any, name string) error {
	if v, ok := obj[name]; ok {
		if _, isStr := v.(string); !isStr {
			return apperr.Invalidf("%s.%s: must be a string (got %s)", path, name, describe(v))
		}
	}
	return nil
}

// children returns the `nodes` array; required says whether it must be present.
func children(path string, obj map[string]any, required bool) ([]any, error) {
	v, ok := obj["nodes"]
	if !ok {
		if required {
			return nil, apperr.Invalidf("%s.nodes: is required", path)
		}
		return nil, nil
	}
	list, isList := v.([]any)
	if !isList {
		return nil, apperr.Invalidf("%s.nodes: must be an array (got %s)", path, describe(v))
	}
	return list, nil
}

func isWholeNumber(n json.Number) bool {
	f, err := n.Float64()
	return err == nil && f >= 0 && f == float64(int64(f))
}

// describe names a JSON value for an error message: strings are quoted, others named by kind.
func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		if r := []rune(x); len(r) > 40 {
			x = string(r[:40]) + "…"
		}
		return fmt.Sprintf("%q", x)
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "a value"
}

// orList renders a, b or c.
func orList(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
