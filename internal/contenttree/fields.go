package contenttree

import (
	"bytes"
	"encoding/json"
	"reflect"
)

// Field names, as the API names the fields; Diff and Conflict use them.
const (
	FieldParent        = "parent" // the page's parent (a move)
	FieldOrder         = "order"  // the page's place among its siblings
	FieldPath          = "path"   // Diff only: the page's path changed, maybe through an ancestor
	FieldType          = "type"
	FieldTitle         = "title"
	FieldSlug          = "slug"
	FieldEmoji         = "emoji"
	FieldIcon          = "icon"
	FieldDescription   = "description"
	FieldHidden        = "hidden"
	FieldNoIndex       = "noIndex"
	FieldNoRobotsIndex = "noRobotsIndex"
	FieldLayout        = "layout"
	FieldCover         = "cover"
	FieldTarget        = "target"
	FieldVariables     = "variables"
	FieldMarkdown      = "markdown"

	FieldName        = "name"        // file
	FieldContentType = "contentType" // file
	FieldContent     = "content"     // file: its bytes, Hash and Size together
)

// pageField is one field of a page that merges as a single value.
type pageField struct {
	name  string
	equal func(a, b *Page) bool
	copy  func(dst, src *Page)
}

func scalarField[T comparable](name string, field func(*Page) *T) pageField {
	return pageField{
		name:  name,
		equal: func(a, b *Page) bool { return *field(a) == *field(b) },
		copy:  func(dst, src *Page) { *field(dst) = *field(src) },
	}
}

func jsonField(name string, field func(*Page) *json.RawMessage) pageField {
	return pageField{
		name:  name,
		equal: func(a, b *Page) bool { return jsonEqual(*field(a), *field(b)) },
		copy:  func(dst, src *Page) { *field(dst) = *field(src) },
	}
}

// valueFields are the page fields that merge as single values. The position (parent and order),
// the variables and the markdown have rules of their own.
var valueFields = []pageField{
	scalarField(FieldType, func(p *Page) *Kind { return &p.Kind }),
	scalarField(FieldTitle, func(p *Page) *string { return &p.Title }),
	scalarField(FieldSlug, func(p *Page) *string { return &p.Slug }),
	scalarField(FieldEmoji, func(p *Page) *string { return &p.Emoji }),
	scalarField(FieldIcon, func(p *Page) *string { return &p.Icon }),
	scalarField(FieldDescription, func(p *Page) *string { return &p.Description }),
	scalarField(FieldHidden, func(p *Page) *bool { return &p.Hidden }),
	scalarField(FieldNoIndex, func(p *Page) *bool { return &p.NoIndex }),
	scalarField(FieldNoRobotsIndex, func(p *Page) *bool { return &p.NoRobotsIndex }),
	jsonField(FieldLayout, func(p *Page) *json.RawMessage { return &p.Layout }),
	jsonField(FieldCover, func(p *Page) *json.RawMessage { return &p.Cover }),
	jsonField(FieldTarget, func(p *Page) *json.RawMessage { return &p.Target }),
}

// pageDiff lists the fields in which two versions of a page differ, in a fixed order.
func pageDiff(a, b *Page) []string {
	var fields []string
	if a.ParentID != b.ParentID {
		fields = append(fields, FieldParent)
	}
	if a.Order != b.Order {
		fields = append(fields, FieldOrder)
	}
	for _, f := range valueFields {
		if !f.equal(a, b) {
			fields = append(fields, f.name)
		}
	}
	if !valuesEqual(a.Variables, b.Variables) {
		fields = append(fields, FieldVariables)
	}
	if a.Markdown != b.Markdown {
		fields = append(fields, FieldMarkdown)
	}
	return fields
}

// fileDiff lists the fields in which two versions of a file differ, in a fixed order.
func fileDiff(a, b File) []string {
	var fields []string
	if a.Name != b.Name {
		fields = append(fields, FieldName)
	}
	if a.ContentType != b.ContentType {
		fields = append(fields, FieldContentType)
	}
	if a.Hash != b.Hash || a.Size != b.Size {
		fields = append(fields, FieldContent)
	}
	return fields
}

// jsonEqual compares two JSON values by meaning. Absent (nil or empty) equals null. Values that do
// not parse compare by their bytes.
func jsonEqual(a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if err := unmarshalOrNull(a, &x); err != nil {
		return false
	}
	if err := unmarshalOrNull(b, &y); err != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func unmarshalOrNull(raw json.RawMessage, v *any) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		*v = nil
		return nil
	}
	return json.Unmarshal(raw, v)
}

// valuesEqual compares two maps of JSON values; nil equals empty.
func valuesEqual(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		w, ok := b[k]
		if !ok || !jsonEqual(v, w) {
			return false
		}
	}
	return true
}
