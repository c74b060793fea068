package openapi

import "sort"

// example makes a value that fits a schema, for the samples of a reference page: the
// schema's own example or default when it has one, else the first enum value, else a
// value of its type, with every property of an object.
func (t *docTree) example(n node, depth int) any {
	s, at := t.deref(n)
	if s == nil || depth > 8 {
		return nil
	}
	for _, k := range []string{"example", "default", "const"} {
		if v, ok := s[k]; ok {
			return v
		}
	}
	if ex, ok := s["examples"].([]any); ok && len(ex) > 0 {
		return ex[0]
	}
	if enum, ok := s["enum"].([]any); ok && len(enum) > 0 {
		return enum[0]
	}
	for _, k := range []string{"allOf", "oneOf", "anyOf"} {
		parts, ok := s[k].([]any)
		if !ok || len(parts) == 0 {
			continue
		}
		if k != "allOf" {
			return t.example(node{v: parts[0], file: at.file}, depth+1)
		}
		merged := map[string]any{}
		for _, p := range parts {
			if m, ok := t.example(node{v: p, file: at.file}, depth+1).(map[string]any); ok {
				for key, v := range m {
					merged[key] = v
				}
			}
		}
		return merged
	}
	switch schemaType(s) {
	case "object":
		out := map[string]any{}
		props, _ := s["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			out[name] = t.example(node{v: props[name], file: at.file}, depth+1)
		}
		return out
	case "array":
		return []any{t.example(node{v: s["items"], file: at.file}, depth+1)}
	case "integer":
		return 0
	case "number":
		return 0.0
	case "boolean":
		return true
	case "null":
		return nil
	}
	if f, _ := s["format"].(string); f != "" {
		switch f {
		case "date-time":
			return "2024-01-01T00:00:00Z"
		case "date":
			return "2024-01-01"
		case "email":
			return "user@example.com"
		case "uri", "url":
			return "https://example.com"
		case "uuid":
			return "00000000-0000-0000-0000-000000000000"
		}
	}
	return "text"
}

// schemaType is a schema's type: the first non-null one of a 3.1 type list, "object" for a
// schema with properties but no type.
func schemaType(s map[string]any) string {
	switch tv := s["type"].(type) {
	case string:
		return tv
	case []any:
		for _, e := range tv {
			if str, ok := e.(string); ok && str != "null" {
				return str
			}
		}
		return "null"
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	if _, ok := s["items"]; ok {
		return "array"
	}
	return ""
}
