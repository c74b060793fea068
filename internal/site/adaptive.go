package site

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// adaptiveShape is the shape an adaptive schema must have, from the public specification's
// SiteAdaptiveJSONSchema, as a JSON Schema draft-07 document.
//
//go:embed adaptive.schema.json
var adaptiveShapeDoc []byte

var adaptiveShape = mustCompile("docsd:site-adaptive-schema.json", adaptiveShapeDoc)

// AdaptiveSchema is a site's schema of visitor claims.
type AdaptiveSchema struct {
	JSONSchema json.RawMessage
	UpdatedAt  time.Time
}

// GetAdaptiveSchema returns a site's adaptive schema; 404 when it has none.
func (s *Service) GetAdaptiveSchema(ctx context.Context, c auth.Caller, orgID, siteID string) (AdaptiveSchema, error) {
	st, err := s.siteIn(ctx, s.store.Read(), c, orgID, siteID, false)
	if err != nil {
		return AdaptiveSchema{}, err
	}
	if len(st.AdaptiveSchema) == 0 || st.AdaptiveSchemaAt == nil {
		return AdaptiveSchema{}, apperr.NotFoundf("site %s has no adaptive schema", siteID)
	}
	return AdaptiveSchema{JSONSchema: st.AdaptiveSchema, UpdatedAt: *st.AdaptiveSchemaAt}, nil
}

// PutAdaptiveSchema replaces a site's adaptive schema. It must have the shape of the
// specification (claims of type boolean, string, number, arrays and objects of them, and an
// `unsigned` object for unsigned claims) and compile as a JSON Schema draft-07 document.
func (s *Service) PutAdaptiveSchema(ctx context.Context, c auth.Caller, orgID, siteID string, raw json.RawMessage) (AdaptiveSchema, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return AdaptiveSchema{}, apperr.Invalidf("jsonSchema: is required")
	}
	if err := validateJSON("jsonSchema", adaptiveShape, raw); err != nil {
		return AdaptiveSchema{}, err
	}
	if _, err := compileSchema("docsd:visitor-claims.json", raw); err != nil {
		return AdaptiveSchema{}, apperr.Invalidf("jsonSchema: not a valid JSON Schema draft-07 document: %v", err)
	}
	var compact strings.Builder
	if err := json.NewEncoder(&compact).Encode(json.RawMessage(raw)); err != nil {
		return AdaptiveSchema{}, apperr.Invalidf("jsonSchema: %v", err)
	}
	var out AdaptiveSchema
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		st.AdaptiveSchema = json.RawMessage(strings.TrimSpace(compact.String()))
		st.AdaptiveSchemaAt, st.UpdatedAt = &now, now
		out = AdaptiveSchema{JSONSchema: st.AdaptiveSchema, UpdatedAt: now}
		return tx.UpdateSite(ctx, st)
	})
	return out, err
}

// ValidateClaims checks a visitor's claims against a site's adaptive schema (serving uses
// it for unsigned claims); a site without a schema accepts none.
func ValidateClaims(st Site, claims json.RawMessage) error {
	if len(st.AdaptiveSchema) == 0 {
		return apperr.Invalidf("claims: site %s has no adaptive schema", st.ID)
	}
	sch, err := compileSchema("docsd:visitor-claims.json", st.AdaptiveSchema)
	if err != nil {
		return err
	}
	return validateJSON("claims", sch, claims)
}

// TemplateCondition is a condition suggested from the adaptive schema.
type TemplateCondition struct {
	Description string
	Condition   string
}

// TemplateConditions suggests one condition per claim of the site's adaptive schema, in the
// expression syntax of site conditions: boolean claims as they are, enumerated strings
// compared with their first value, other strings and numbers compared with a placeholder,
// arrays tested for containing one. Claims sit under `visitor.claims` (unsigned claims under
// `visitor.claims.unsigned`). A site without a schema has none.
func (s *Service) TemplateConditions(ctx context.Context, c auth.Caller, orgID, siteID string) ([]TemplateCondition, error) {
	st, err := s.siteIn(ctx, s.store.Read(), c, orgID, siteID, false)
	if err != nil {
		return nil, err
	}
	out := []TemplateCondition{}
	if len(st.AdaptiveSchema) == 0 {
		return out, nil
	}
	var root claimSchema
	if err := json.Unmarshal(st.AdaptiveSchema, &root); err != nil {
		return nil, fmt.Errorf("site: stored adaptive schema: %w", err)
	}
	root.walk("visitor.claims", &out)
	return out, nil
}

// claimSchema is the part of an adaptive schema that conditions are made from.
type claimSchema struct {
	Type        string                 `json:"type"`
	Description string                 `json:"description"`
	Enum        []string               `json:"enum"`
	Items       *claimSchema           `json:"items"`
	Properties  map[string]claimSchema `json:"properties"`
}

func (c claimSchema) walk(path string, out *[]TemplateCondition) {
	names := make([]string, 0, len(c.Properties))
	for n := range c.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := c.Properties[n]
		at := path + "." + n
		what := p.Description
		if what == "" {
			what = n
		}
		switch p.Type {
		case "object":
			p.walk(at, out)
			continue
		case "boolean":
			*out = append(*out, TemplateCondition{Description: "Visitors for whom " + what + " is true", Condition: at})
		case "string":
			v := "value"
			if len(p.Enum) > 0 {
				v = p.Enum[0]
			}
			*out = append(*out, TemplateCondition{Description: fmt.Sprintf("Visitors whose %s is %q", what, v),
				Condition: fmt.Sprintf("%s == %q", at, v)})
		case "number":
			*out = append(*out, TemplateCondition{Description: "Visitors whose " + what + " is at least 1", Condition: at + " >= 1"})
		case "array":
			v := `"value"`
			if p.Items != nil && len(p.Items.Enum) > 0 {
				v = fmt.Sprintf("%q", p.Items.Enum[0])
			}
			*out = append(*out, TemplateCondition{Description: "Visitors whose " + what + " include " + v,
				Condition: v + " in " + at})
		}
	}
}
