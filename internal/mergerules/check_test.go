package mergerules

import (
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	approved := func(users ...string) []Review {
		var out []Review
		for _, u := range users {
			out = append(out, Review{Reviewer: u, Approved: true})
		}
		return out
	}
	rules := func(rs ...Rule) Config { return Config{Type: TypeRules, Rules: rs} }
	expr := "x"
	for _, tc := range []struct {
		name    string
		cfg     Config
		st      State
		missing string // "" when the merge may go ahead
	}{
		{"none", Config{Type: TypeNone}, State{}, ""},
		{"no rules", rules(), State{}, ""},
		{"specific: one missing", rules(Rule{Rule: RequireSpecificReviewers, Users: []string{"a", "b"}}),
			State{Reviews: approved("a")}, "approval from user b"},
		{"specific: all approved", rules(Rule{Rule: RequireSpecificReviewers, Users: []string{"a", "b"}}),
			State{Reviews: approved("a", "b")}, ""},
		{"specific: the author is not waited for", rules(Rule{Rule: RequireSpecificReviewers, Users: []string{"a", "me"}}),
			State{Author: "me", Reviews: approved("a")}, ""},
		{"one of: none", rules(Rule{Rule: RequireOneOfSpecificReviewers, Users: []string{"a", "b"}}),
			State{Reviews: approved("c")}, "one of user a, b"},
		{"one of: met", rules(Rule{Rule: RequireOneOfSpecificReviewers, Users: []string{"a", "b"}}),
			State{Reviews: approved("b")}, ""},
		{"at least one: changes requested only", rules(Rule{Rule: RequireAtLeastOneReview}),
			State{Reviews: []Review{{Reviewer: "a"}}}, "at least one approving review"},
		{"all approved: one not", rules(Rule{Rule: RequireAllReviewsApproved}),
			State{Reviews: append(approved("a"), Review{Reviewer: "b"})}, "user b requested changes"},
		{"all approved: no reviews", rules(Rule{Rule: RequireAllReviewsApproved}), State{}, ""},
		{"up to date", rules(Rule{Rule: RequireUpToDate}), State{}, "updated"},
		{"subject", rules(Rule{Rule: RequireSubject}), State{UpToDate: true}, "a subject"},
		{"description", rules(Rule{Rule: RequireDescription}), State{HasSubject: true}, "a description"},
		{"agent", rules(Rule{Rule: RequireAgentReview}), State{}, "agent review"},
		{"custom", rules(Rule{Rule: Custom, Expression: &expr}), State{}, "custom"},
		{"bypass", rules(Rule{Rule: RequireAgentReview}, Rule{Rule: AllowBypass, Users: []string{"boss"}}),
			State{Merger: "boss"}, ""},
		{"bypass for others only", rules(Rule{Rule: RequireAgentReview}, Rule{Rule: AllowBypass, Users: []string{"boss"}}),
			State{Merger: "me"}, "agent review"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(tc.cfg.Check(tc.st), "; ")
			if (tc.missing == "") != (got == "") || !strings.Contains(got, tc.missing) {
				t.Errorf("missing %q, want it to mention %q", got, tc.missing)
			}
		})
	}
	if got := Effective(Config{Type: TypeInherit}, Config{Type: TypeNone}); got.Type != TypeNone {
		t.Errorf("inherit: %v", got)
	}
	if got := Effective(Config{Type: TypeRules}, Config{Type: TypeNone}); got.Type != TypeRules {
		t.Errorf("own rules: %v", got)
	}
}
