package apispec

import (
	"encoding/json"
	"regexp"
	"strings"
)

// The conversion from OpenAPI schema objects to JSON Schema (draft 2020-12), with the
// meaning OpenAPI gives them:
//
//   - 3.0 `nullable: true` allows null (a type list with "null", null in an enum, or an
//     anyOf with {type: null} where the schema has no type of its own);
//   - 3.0 `$ref` ignores its siblings; 3.0 boolean exclusiveMinimum/Maximum become numbers;
//   - every `oneOf` is judged as `anyOf`: the public spec's variants often overlap (an
//     object that satisfies two of them is still what the spec means), and a discriminator
//     only names the variant, it does not exclude the others;
//   - formats other than date-time, uri and email are dropped, as they are OpenAPI's own
//     (int32, byte, emoji, icon...) or not worth judging;
//   - OpenAPI-only keywords (discriminator, example, xml, externalDocs, readOnly, writeOnly,
//     deprecated, x-*) are dropped;
//   - an object with no properties and `additionalProperties: false` (TypeScript's `{}`,
//     the spec's "Empty" document variant) accepts any object: the spec composes it with
//     allOf beside other properties, where JSON Schema's meaning would refuse every value;
//   - a `pattern` Go's regexp cannot compile (lookaround) is dropped;
//   - `$ref: #/components/schemas/X` becomes `#/$defs/X` in the converted document.

// assertedFormats are the formats the judge asserts.
var assertedFormats = map[string]bool{"date-time": true, "uri": true, "email": true}

// dropped are OpenAPI keywords with no JSON Schema meaning for the judge.
var dropped = map[string]bool{
	"discriminator": true, "example": true, "examples": true, "xml": true, "externalDocs": true,
	"readOnly": true, "writeOnly": true, "deprecated": true, "nullable": true,
	"title": true, "description": true, "$comment": true,
}

// Keywords whose value is a schema, a list of schemas, or a map of names to schemas.
var (
	schemaValued = map[string]bool{"items": true, "not": true, "additionalProperties": true,
		"contains": true, "propertyNames": true, "if": true, "then": true, "else": true,
		"additionalItems": true, "unevaluatedProperties": true, "unevaluatedItems": true,
		"contentSchema": true}
	schemaListValued = map[string]bool{"allOf": true, "anyOf": true, "oneOf": true, "prefixItems": true}
	schemaMapValued  = map[string]bool{"properties": true, "patternProperties": true,
		"$defs": true, "definitions": true, "dependentSchemas": true}
)

// convertSchema returns the JSON Schema for the OpenAPI schema s. oas30 selects the 3.0
// meaning of nullable, $ref siblings and exclusive bounds.
func convertSchema(s any, oas30 bool) any {
	obj, ok := s.(map[string]any)
	if !ok {
		return s // true, false
	}
	if ref, ok := obj["$ref"].(string); ok {
		ref = convertRef(ref)
		if oas30 {
			out := map[string]any{"$ref": ref}
			if obj["nullable"] == true {
				return map[string]any{"anyOf": []any{out, map[string]any{"type": "null"}}}
			}
			return out
		}
		obj = shallowCopy(obj)
		obj["$ref"] = ref
	}
	out := map[string]any{}
	for k, v := range obj {
		switch {
		case dropped[k] || strings.HasPrefix(k, "x-"):
		case k == "$ref":
			out[k] = v
		case k == "pattern":
			// Go's regexp has no lookaround (0.202.0 uses it for redirect paths): such a
			// pattern is not judged.
			if p, _ := v.(string); validPattern(p) {
				out[k] = p
			}
		case k == "format":
			if f, _ := v.(string); assertedFormats[f] {
				out[k] = f
			}
		case k == "oneOf":
			out["anyOf"] = convertList(v, oas30)
		case schemaListValued[k]:
			out[k] = convertList(v, oas30)
		case schemaMapValued[k]:
			m, _ := v.(map[string]any)
			cm := make(map[string]any, len(m))
			for name, sub := range m {
				cm[name] = convertSchema(sub, oas30)
			}
			out[k] = cm
		case k == "items" && isList(v): // draft-4 style tuple items
			out["prefixItems"] = convertList(v, oas30)
		case schemaValued[k]:
			out[k] = convertSchema(v, oas30)
		case oas30 && (k == "exclusiveMinimum" || k == "exclusiveMaximum"):
			// 3.0: a boolean that turns minimum/maximum exclusive; handled below.
		default:
			out[k] = v
		}
	}
	if out["additionalProperties"] == false && len(asMap(out["properties"])) == 0 && out["patternProperties"] == nil {
		delete(out, "additionalProperties")
	}
	if oas30 {
		for _, b := range [][2]string{{"exclusiveMinimum", "minimum"}, {"exclusiveMaximum", "maximum"}} {
			if obj[b[0]] == true {
				if n, ok := obj[b[1]]; ok {
					out[b[0]] = n
					delete(out, b[1])
				}
			}
		}
		if obj["nullable"] == true {
			return allowNull(out)
		}
	}
	return out
}

// allowNull widens a converted schema to accept null as well.
func allowNull(s map[string]any) any {
	if e, ok := s["enum"].([]any); ok {
		s["enum"] = append(append([]any{}, e...), nil)
	}
	switch t := s["type"].(type) {
	case string:
		s["type"] = []any{t, "null"}
		return s
	case []any:
		s["type"] = append(append([]any{}, t...), "null")
		return s
	}
	// No type of its own (allOf, anyOf...): null is one more alternative.
	return map[string]any{"anyOf": []any{s, map[string]any{"type": "null"}}}
}

func convertList(v any, oas30 bool) []any {
	l, _ := v.([]any)
	out := make([]any, len(l))
	for i, s := range l {
		out[i] = convertSchema(s, oas30)
	}
	return out
}

func convertRef(ref string) string {
	if rest, ok := strings.CutPrefix(ref, "#/components/schemas/"); ok {
		return "#/$defs/" + rest
	}
	return ref
}

func isList(v any) bool { _, ok := v.([]any); return ok }

func shallowCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// decodeJSON decodes with json.Number, as the schema compiler wants numbers.
func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

func validPattern(p string) bool {
	_, err := regexp.Compile(p)
	return err == nil
}

func asMap(v any) map[string]any { m, _ := v.(map[string]any); return m }
