package mergerules

import (
	"fmt"
	"slices"
	"strings"
)

// State is what the rules look at when a change request is merged.
type State struct {
	Author         string // the user who opened the change request; "" when gone
	Merger         string // the user merging
	HasSubject     bool
	HasDescription bool
	UpToDate       bool // the change request holds the space's current content
	// Reviews are the current reviews: each reviewer's latest, not outdated.
	Reviews []Review
}

// Review is one reviewer's current verdict.
type Review struct {
	Reviewer string
	Approved bool // false: changes requested
}

// Effective is the configuration that applies to a space: its own, or its organization's when
// the space inherits.
func Effective(spaceRules, orgRules Config) Config {
	if spaceRules.Type == TypeInherit || spaceRules.Type == "" {
		return orgRules
	}
	return spaceRules
}

// Check lists, in the configuration's order, what the state is missing to pass the rules;
// nil means the merge may go ahead. A user named by an allow_bypass rule passes whatever the
// other rules say. Rules this server cannot evaluate (agent reviews, custom expressions) are
// never met.
func (c Config) Check(st State) []string {
	if c.Type != TypeRules {
		return nil
	}
	for _, r := range c.Rules {
		if r.Rule == AllowBypass && slices.Contains(r.Users, st.Merger) {
			return nil
		}
	}
	approved := map[string]bool{}
	changesRequested := []string{}
	for _, rv := range st.Reviews {
		if rv.Approved {
			approved[rv.Reviewer] = true
		} else {
			changesRequested = append(changesRequested, rv.Reviewer)
		}
	}
	var missing []string
	for _, r := range c.Rules {
		switch r.Rule {
		case RequireSpecificReviewers:
			var lacking []string
			for _, u := range r.Users {
				// The author cannot review their own change request, so they are not waited for.
				if u != st.Author && !approved[u] {
					lacking = append(lacking, u)
				}
			}
			if len(lacking) > 0 {
				missing = append(missing, fmt.Sprintf("%s: an approval from user %s", r.Rule, strings.Join(lacking, ", ")))
			}
		case RequireOneOfSpecificReviewers:
			if !slices.ContainsFunc(r.Users, func(u string) bool { return approved[u] }) {
				missing = append(missing, fmt.Sprintf("%s: an approval from one of user %s", r.Rule, strings.Join(r.Users, ", ")))
			}
		case RequireAtLeastOneReview:
			if len(approved) == 0 {
				missing = append(missing, r.Rule+": at least one approving review")
			}
		case RequireAllReviewsApproved:
			if len(changesRequested) > 0 {
				missing = append(missing, fmt.Sprintf("%s: user %s requested changes", r.Rule, strings.Join(changesRequested, ", ")))
			}
		case RequireUpToDate:
			if !st.UpToDate {
				missing = append(missing, r.Rule+": the change request must be updated with the space's current content first")
			}
		case RequireSubject:
			if !st.HasSubject {
				missing = append(missing, r.Rule+": a subject")
			}
		case RequireDescription:
			if !st.HasDescription {
				missing = append(missing, r.Rule+": a description")
			}
		case RequireAgentReview:
			missing = append(missing, r.Rule+": an agent review (this server has no review agent)")
		case Custom:
			missing = append(missing, r.Rule+": custom expressions are not evaluated by this server")
		}
	}
	return missing
}
