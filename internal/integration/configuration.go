package integration

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"docsd/internal/apperr"
	"docsd/internal/validate"
)

// configurationKeys are the targets an integration's configurations describe: the
// organization ("account"), a space and a site.
var configurationKeys = []string{"account", "space", "site"}

// configField is one property of a configuration form.
type configField struct {
	Type          string   `json:"type"`
	Title         *string  `json:"title"`
	Description   *string  `json:"description"`
	Default       any      `json:"default"`
	Enum          []string `json:"enum"`
	CallbackURL   *string  `json:"callback_url"`
	ButtonText    *string  `json:"button_text"`
	CompletionURL *string  `json:"completion_url"`
}

// configurationSchemas checks an integration's configurations and returns, for each target
// that has a form (not a ContentKit component), the JSON Schema installations' configuration
// must satisfy.
func configurationSchemas(raw json.RawMessage) (map[string]*jsonschema.Schema, error) {
	var byKey map[string]json.RawMessage
	if err := json.Unmarshal(raw, &byKey); err != nil {
		return nil, apperr.Invalidf("configurations: must be an object with account, space and site")
	}
	out := map[string]*jsonschema.Schema{}
	for key, conf := range byKey {
		f := "configurations." + key
		if !slices.Contains(configurationKeys, key) {
			return nil, apperr.Invalidf("%s: unknown target (account, space or site)", f)
		}
		var form struct {
			Properties  map[string]configField `json:"properties"`
			Required    []string               `json:"required"`
			ComponentID *string                `json:"componentId"`
		}
		if err := json.Unmarshal(conf, &form); err != nil {
			return nil, apperr.Invalidf("%s: must be {properties, required} or {componentId}", f)
		}
		if form.Properties == nil {
			if form.ComponentID == nil {
				return nil, apperr.Invalidf("%s: must be {properties, required} or {componentId}", f)
			}
			continue
		}
		props := map[string]any{}
		for name, p := range form.Properties {
			pf := f + ".properties." + name
			if p.Title != nil && len(*p.Title) > 30 {
				return nil, apperr.Invalidf("%s.title: must be at most 30 characters", pf)
			}
			if p.Description != nil && len(*p.Description) > 100 {
				return nil, apperr.Invalidf("%s.description: must be at most 100 characters", pf)
			}
			prop := map[string]any{}
			switch p.Type {
			case "string":
				prop["type"] = "string"
				if p.Enum != nil {
					prop["enum"] = p.Enum
				}
			case "number", "boolean":
				prop["type"] = p.Type
			case "button":
				if p.CallbackURL == nil || p.ButtonText == nil {
					return nil, apperr.Invalidf("%s: a button needs callback_url and button_text", pf)
				}
			default:
				return nil, apperr.Invalidf("%s.type: must be string, number, boolean or button", pf)
			}
			if p.Default != nil {
				if err := defaultMatches(p.Type, p.Default); err != nil {
					return nil, apperr.Invalidf("%s.default: %v", pf, err)
				}
			}
			props[name] = prop
		}
		for _, r := range form.Required {
			if _, ok := form.Properties[r]; !ok {
				return nil, apperr.Invalidf("%s.required: %q is not one of its properties", f, r)
			}
		}
		doc := map[string]any{"type": "object", "properties": props}
		if len(form.Required) > 0 {
			doc["required"] = slices.Compact(slices.Sorted(slices.Values(form.Required)))
		}
		b, _ := json.Marshal(doc)
		sch, err := validate.CompileSchema("docsd:integration-configuration/"+key, b)
		if err != nil {
			return nil, apperr.Invalidf("%s: not a valid schema: %v", f, err)
		}
		out[key] = sch
	}
	return out, nil
}

func defaultMatches(typ string, v any) error {
	ok := false
	switch typ {
	case "string":
		_, ok = v.(string)
	case "number":
		_, ok = v.(float64)
	case "boolean":
		_, ok = v.(bool)
	}
	if !ok {
		return fmt.Errorf("must be a %s", typ)
	}
	return nil
}

// checkConfiguration validates an installation's configuration for target (account, space or
// site) against the integration's form for it; any object passes where there is no form.
func checkConfiguration(it Integration, target string, conf json.RawMessage) error {
	var obj map[string]any
	if err := json.Unmarshal(conf, &obj); err != nil || obj == nil {
		return apperr.Invalidf("configuration: must be an object")
	}
	if it.Manifest.Configurations == nil {
		return nil
	}
	schemas, err := configurationSchemas(it.Manifest.Configurations)
	if err != nil {
		return err
	}
	if sch, ok := schemas[target]; ok {
		return validate.AgainstSchema("configuration", sch, conf)
	}
	return nil
}

// contentID names bytes by their hash.
func contentID(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:12])
}
