package sitepub

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Claims are what a reader says about themselves: signed claims come from a verified visitor
// token, unsigned claims from the query (visitor.<name>=true) or the public cookie, and count
// only for the properties the site's adaptive schema declares under `unsigned`.
type Claims struct {
	Signed   map[string]any
	Unsigned map[string]any
}

// env is what conditions see: visitor.claims holds the signed claims, with the unsigned ones
// under visitor.claims.unsigned (the names GitBook's condition editor uses).
func (c Claims) env() map[string]any {
	claims := make(map[string]any, len(c.Signed)+1)
	for k, v := range c.Signed {
		claims[k] = v
	}
	unsigned := make(map[string]any, len(c.Unsigned))
	for k, v := range c.Unsigned {
		unsigned[k] = v
	}
	claims["unsigned"] = unsigned
	return map[string]any{"visitor": map[string]any{"claims": claims}}
}

// UnsignedQueryPrefix starts the query parameters that carry unsigned claims.
const UnsignedQueryPrefix = "visitor."

// ClaimSchema checks unsigned claims against a site's adaptive schema: each claim must be
// declared under properties.unsigned.properties and valid against its declaration (type,
// enum, pattern, ...), checked by a JSON Schema (draft-07) validator.
type ClaimSchema struct {
	claims map[string]claimSchema
}

type claimSchema struct {
	typ    string // the declared JSON type, to read query strings as booleans or numbers
	schema *jsonschema.Schema
}

// CompileClaimSchema compiles the unsigned claims a site's adaptive schema declares. A
// missing or unreadable schema declares none.
func CompileClaimSchema(schema json.RawMessage) *ClaimSchema {
	cs := &ClaimSchema{claims: map[string]claimSchema{}}
	var s struct {
		Properties struct {
			Unsigned struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			} `json:"unsigned"`
		} `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil || len(s.Properties.Unsigned.Properties) == 0 {
		return cs
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return cs
	}
	const name = "docsd:adaptive-schema.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft7)
	if c.AddResource(name, doc) != nil {
		return cs
	}
	for claim, p := range s.Properties.Unsigned.Properties {
		sch, err := c.Compile(name + "#/properties/unsigned/properties/" + pointerEscape(claim))
		if err == nil {
			cs.claims[claim] = claimSchema{typ: p.Type, schema: sch}
		}
	}
	return cs
}

// pointerEscape escapes a property name for a JSON pointer, then for a URL fragment.
func pointerEscape(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
	return url.PathEscape(s)
}

// Unsigned keeps, of the raw values a reader sent (the cookie's JSON object, then the
// query's visitor.<name> parameters, which win), those valid against their declaration.
// Undeclared or invalid values are dropped: a reader sets only what the site lets them set.
func (cs *ClaimSchema) Unsigned(cookie string, query map[string][]string) map[string]any {
	out := map[string]any{}
	if len(cs.claims) == 0 {
		return out
	}
	if cookie != "" && len(cookie) <= 4096 {
		var raw map[string]any
		if json.Unmarshal([]byte(cookie), &raw) == nil {
			for name, v := range raw {
				if cs.valid(name, v) {
					out[name] = v
				}
			}
		}
	}
	for key, values := range query {
		name, ok := strings.CutPrefix(key, UnsignedQueryPrefix)
		if !ok || len(values) == 0 {
			continue
		}
		if v, ok := fromQuery(cs.claims[name].typ, values[0]); ok && cs.valid(name, v) {
			out[name] = v
		}
	}
	return out
}

func (cs *ClaimSchema) valid(name string, v any) bool {
	c, ok := cs.claims[name]
	if !ok {
		return false
	}
	if f, isFloat := v.(float64); isFloat {
		// The validator reads numbers as json.Number, as its own decoder makes them.
		v = json.Number(strconv.FormatFloat(f, 'g', -1, 64))
	}
	return c.schema.Validate(v) == nil
}

// fromQuery reads a query string as the declared type.
func fromQuery(typ, s string) (any, bool) {
	switch typ {
	case "boolean":
		if s == "true" || s == "false" {
			return s == "true", true
		}
		return nil, false
	case "number", "integer":
		f, err := strconv.ParseFloat(s, 64)
		return f, err == nil
	}
	return s, len(s) <= 256
}
