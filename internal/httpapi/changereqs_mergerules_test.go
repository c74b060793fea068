package httpapi_test

import (
	"encoding/json"
	"testing"

	"docsd/internal/apitest"
)

// setRules sets a space's merge rules.
func setRules(t *testing.T, e *apitest.Env, spaceID string, rules map[string]any) {
	t.Helper()
	e.Patch(e.Admin, "/v1/spaces/"+spaceID, map[string]any{"mergeRules": rules}).Expect(200)
}

func rulesOf(rules ...map[string]any) map[string]any {
	list := make([]any, len(rules))
	for i, r := range rules {
		list[i] = r
	}
	return map[string]any{"type": "rules", "rules": list}
}

// refusedMerge checks that a merge is refused with 409 naming want, and that nothing moved.
func refusedMerge(t *testing.T, f *reviewFixture, a apitest.Actor, want ...string) {
	t.Helper()
	head := headOf(f.e, f.space)
	f.e.Post(a, crPath(f.space, f.cr)+"/merge", nil).ExpectError(409).ExpectMessage(append([]string{"merge rules"}, want...)...)
	if headOf(f.e, f.space) != head {
		t.Error("a refused merge moved the head")
	}
	if st := f.e.Get(f.e.Admin, crPath(f.space, f.cr)).Expect(200).Str("status"); st != "open" {
		t.Errorf("status %s after a refused merge", st)
	}
}

func merged(t *testing.T, f *reviewFixture, a apitest.Actor) {
	t.Helper()
	f.e.Post(a, crPath(f.space, f.cr)+"/merge", nil).Expect(200)
	if got := pageAt(f.e, f.space, "", "p1").Expect(200).Str("markdown"); got != "Proposed.\n" {
		t.Errorf("merged content %q", got)
	}
}

func TestMergeRules(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	rule := func(name string, users ...string) map[string]any {
		r := map[string]any{"rule": name}
		if users != nil {
			r["users"] = users
		}
		return r
	}

	t.Run("require_specific_reviewers waits for every listed user", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_specific_reviewers", f.r1.ID, f.r2.ID, f.author.ID)))
		refusedMerge(t, f, e.Admin, "require_specific_reviewers", f.r1.ID, f.r2.ID)
		f.review(f.r1, "approved").Expect(201)
		refusedMerge(t, f, e.Admin, f.r2.ID)
		f.review(f.r2, "changes-requested").Expect(201)
		refusedMerge(t, f, e.Admin, f.r2.ID)
		f.review(f.r2, "approved").Expect(201)
		merged(t, f, e.Admin) // the author, also listed, cannot review and is not waited for
	})
	t.Run("a new request for review voids the earlier approval", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_specific_reviewers", f.r1.ID)))
		f.review(f.r1, "approved").Expect(201)
		e.Post(f.author, f.requested(), map[string]any{"users": []string{f.r1.ID}}).Expect(200)
		refusedMerge(t, f, e.Admin, f.r1.ID)
		f.review(f.r1, "approved").Expect(201)
		merged(t, f, e.Admin)
	})
	t.Run("require_one_of_specific_reviewers", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_one_of_specific_reviewers", f.r1.ID, f.r2.ID)))
		refusedMerge(t, f, e.Admin, "require_one_of_specific_reviewers")
		f.review(f.r2, "approved").Expect(201)
		merged(t, f, e.Admin)
	})
	t.Run("require_at_least_one_review", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_at_least_one_review")))
		refusedMerge(t, f, e.Admin, "require_at_least_one_review")
		f.review(f.r1, "changes-requested").Expect(201)
		refusedMerge(t, f, e.Admin, "require_at_least_one_review")
		f.review(f.r1, "approved").Expect(201)
		merged(t, f, e.Admin)
	})
	t.Run("require_all_reviews_approved", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_all_reviews_approved")))
		f.review(f.r1, "approved").Expect(201)
		f.review(f.r2, "changes-requested").Expect(201)
		refusedMerge(t, f, e.Admin, "require_all_reviews_approved", f.r2.ID)
		f.review(f.r2, "approved").Expect(201)
		merged(t, f, e.Admin)
	})
	t.Run("require_up_to_date_change_request", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_up_to_date_change_request")))
		other := newChangeRequest(t, e, e.Admin, f.space, "elsewhere")
		e.Patch(e.Admin, crPath(f.space, other)+"/pages/p2", map[string]any{"markdown": "Moved on.\n"}).Expect(200)
		e.Post(e.Admin, crPath(f.space, other)+"/merge", nil).Expect(200) // up to date: allowed
		refusedMerge(t, f, e.Admin, "require_up_to_date_change_request", "updated")
		e.Post(f.author, crPath(f.space, f.cr)+"/update", nil).Expect(200)
		merged(t, f, e.Admin)
	})
	t.Run("require_change_request_subject", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_change_request_subject")))
		e.Patch(f.author, crPath(f.space, f.cr), map[string]any{"subject": " "}).Expect(200)
		refusedMerge(t, f, e.Admin, "require_change_request_subject")
		e.Patch(f.author, crPath(f.space, f.cr), map[string]any{"subject": "Fix the intro"}).Expect(200)
		merged(t, f, e.Admin)
	})
	t.Run("require_change_request_description", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_change_request_description")))
		refusedMerge(t, f, e.Admin, "require_change_request_description")
		e.Patch(f.author, crPath(f.space, f.cr), map[string]any{"description": json.RawMessage(crDescription)}).Expect(200)
		merged(t, f, e.Admin)
	})
	t.Run("allow_bypass lets the listed users merge anyway", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_at_least_one_review"), rule("allow_bypass", e.Admin.ID)))
		refusedMerge(t, f, f.author, "require_at_least_one_review")
		merged(t, f, e.Admin)
	})
	t.Run("agent reviews and custom expressions are never met here", func(t *testing.T) {
		f := newReviewFixture(t, e)
		setRules(t, e, f.space, rulesOf(rule("require_agent_review"),
			map[string]any{"rule": "custom", "expression": "true"}))
		f.review(f.r1, "approved").Expect(201)
		refusedMerge(t, f, e.Admin, "require_agent_review", "custom")
		setRules(t, e, f.space, map[string]any{"type": "none"})
		merged(t, f, e.Admin)
	})
	t.Run("a space that inherits follows its organization's rules", func(t *testing.T) {
		org := e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"mergeRules": rulesOf(rule("require_at_least_one_review"))})
		org.Expect(200)
		defer func() { e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"mergeRules": rulesOf()}).Expect(200) }()
		f := newReviewFixture(t, e)
		refusedMerge(t, f, e.Admin, "require_at_least_one_review")
		setRules(t, e, f.space, rulesOf()) // its own, empty rules
		merged(t, f, e.Admin)
	})
	t.Run("with the organization's rules met", func(t *testing.T) {
		e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"mergeRules": rulesOf(rule("require_at_least_one_review"))}).Expect(200)
		defer func() { e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"mergeRules": rulesOf()}).Expect(200) }()
		f := newReviewFixture(t, e)
		f.review(f.r2, "approved").Expect(201)
		merged(t, f, e.Admin)
	})
}
