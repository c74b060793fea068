// Package mergerules describes the rules a change request must pass before it can be merged,
// as configured on an organization or a space.
package mergerules

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"docsd/internal/apperr"
)

// Configuration kinds.
const (
	TypeRules   = "rules"   // every listed rule must pass
	TypeNone    = "none"    // merging needs no review
	TypeInherit = "inherit" // a space follows its organization's configuration
)

// Rule names.
const (
	RequireSpecificReviewers      = "require_specific_reviewers"
	RequireOneOfSpecificReviewers = "require_one_of_specific_reviewers"
	AllowBypass                   = "allow_bypass"
	RequireAtLeastOneReview       = "require_at_least_one_review"
	RequireAllReviewsApproved     = "require_all_reviews_approved"
	RequireAgentReview            = "require_agent_review"
	RequireUpToDate               = "require_up_to_date_change_request"
	RequireSubject                = "require_change_request_subject"
	RequireDescription            = "require_change_request_description"
	Custom                        = "custom"
)

// Config is a merge-rules configuration; it is also its own JSON shape.
type Config struct {
	Type  string `json:"type"`
	Rules []Rule `json:"rules,omitempty"`
}

// Rule is one merge rule.
type Rule struct {
	Rule       string   `json:"rule"`
	Users      []string `json:"users,omitempty"`
	Expression *string  `json:"expression,omitempty"`
}

// Default is an organization's configuration until one is set: no rules.
func Default() Config { return Config{Type: TypeRules, Rules: []Rule{}} }

var withUsers = map[string]bool{RequireSpecificReviewers: true, RequireOneOfSpecificReviewers: true, AllowBypass: true}

var plain = map[string]bool{RequireAtLeastOneReview: true, RequireAllReviewsApproved: true, RequireAgentReview: true,
	RequireUpToDate: true, RequireSubject: true, RequireDescription: true}

// Validate checks a configuration given in field; allowInherit is true for spaces.
func (c Config) Validate(field string, allowInherit bool) error {
	switch c.Type {
	case TypeRules:
	case TypeNone:
		if len(c.Rules) > 0 {
			return apperr.Invalidf("%s.rules: must be absent when type is none", field)
		}
		return nil
	case TypeInherit:
		if !allowInherit {
			return apperr.Invalidf("%s.type: must be rules or none (got %q)", field, c.Type)
		}
		if len(c.Rules) > 0 {
			return apperr.Invalidf("%s.rules: must be absent when type is inherit", field)
		}
		return nil
	case "":
		return apperr.Invalidf("%s.type: is required", field)
	default:
		allowed := "rules, none"
		if allowInherit {
			allowed = "inherit, rules, none"
		}
		return apperr.Invalidf("%s.type: must be one of %s (got %q)", field, allowed, c.Type)
	}
	if len(c.Rules) > 100 {
		return apperr.Invalidf("%s.rules: must hold at most 100 rules", field)
	}
	for i, r := range c.Rules {
		f := fmt.Sprintf("%s.rules[%d]", field, i)
		switch {
		case withUsers[r.Rule]:
			if r.Users == nil {
				return apperr.Invalidf("%s.users: is required for rule %s", f, r.Rule)
			}
			if r.Expression != nil {
				return apperr.Invalidf("%s.expression: is only allowed for rule custom", f)
			}
		case plain[r.Rule]:
			if r.Users != nil || r.Expression != nil {
				return apperr.Invalidf("%s: rule %s takes no users or expression", f, r.Rule)
			}
		case r.Rule == Custom:
			if r.Expression == nil {
				return apperr.Invalidf("%s.expression: is required for rule custom", f)
			}
			if n := utf8.RuneCountInString(*r.Expression); n > 1024 {
				return apperr.Invalidf("%s.expression: must be at most 1024 characters (got %d)", f, n)
			}
			if r.Users != nil {
				return apperr.Invalidf("%s.users: is not allowed for rule custom", f)
			}
		case r.Rule == "":
			return apperr.Invalidf("%s.rule: is required", f)
		default:
			return apperr.Invalidf("%s.rule: unknown rule %q", f, r.Rule)
		}
	}
	return nil
}

// MarshalJSON always writes `rules` for the rules type (the list is required there) and
// never for the others.
func (c Config) MarshalJSON() ([]byte, error) {
	type plainConfig struct {
		Type  string  `json:"type"`
		Rules *[]Rule `json:"rules,omitempty"`
	}
	p := plainConfig{Type: c.Type}
	if c.Type == TypeRules {
		rules := c.Rules
		if rules == nil {
			rules = []Rule{}
		}
		p.Rules = &rules
	}
	return json.Marshal(p)
}
