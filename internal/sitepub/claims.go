package sitepub

import (
	"encoding/json"
	"strings"
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

// UnsignedClaims keeps, of the raw values a reader sent (from the cookie's JSON object, then
// overridden by the query's visitor.<name> parameters), those the schema declares under
// properties.unsigned.properties with a matching type. Undeclared or mistyped values are
// dropped: a reader can only set what the site chose to let them set.
func UnsignedClaims(schema json.RawMessage, cookie string, query map[string][]string) map[string]any {
	declared := unsignedProperties(schema)
	out := map[string]any{}
	if len(declared) == 0 {
		return out
	}
	if cookie != "" && len(cookie) <= 4096 {
		var raw map[string]any
		if json.Unmarshal([]byte(cookie), &raw) == nil {
			for name, v := range raw {
				if typed, ok := coerce(declared[name], v); ok {
					out[name] = typed
				}
			}
		}
	}
	for key, values := range query {
		name, ok := strings.CutPrefix(key, UnsignedQueryPrefix)
		if !ok || len(values) == 0 {
			continue
		}
		if typed, ok := coerce(declared[name], values[0]); ok {
			out[name] = typed
		}
	}
	return out
}

// unsignedProperties maps each declared unsigned claim to its JSON Schema type.
func unsignedProperties(schema json.RawMessage) map[string]string {
	var s struct {
		Properties struct {
			Unsigned struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			} `json:"unsigned"`
		} `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil {
		return nil
	}
	out := map[string]string{}
	for name, p := range s.Properties.Unsigned.Properties {
		out[name] = p.Type
	}
	return out
}

// coerce checks v against a declared type; query values arrive as strings.
func coerce(typ string, v any) (any, bool) {
	switch typ {
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, true
		case string:
			if x == "true" || x == "false" {
				return x == "true", true
			}
		}
	case "string":
		if s, ok := v.(string); ok && len(s) <= 256 {
			return s, true
		}
	case "number":
		if f, ok := v.(float64); ok {
			return f, true
		}
	}
	return nil, false
}
