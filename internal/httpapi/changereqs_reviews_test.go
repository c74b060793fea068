package httpapi_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// reviewFixture is a space whose change request was opened by an editor, with two reviewers,
// a reader and an outsider.
type reviewFixture struct {
	e                                *apitest.Env
	space, cr                        string
	author, r1, r2, reader, outsider apitest.Actor
}

// fixtureCount keeps the users of fixtures sharing an environment apart.
var fixtureCount atomic.Int64

func newReviewFixture(t *testing.T, e *apitest.Env) *reviewFixture {
	t.Helper()
	f := &reviewFixture{e: e}
	f.space, _ = crSpace(t, e)
	n := fixtureCount.Add(1)
	name := func(s string) string { return fmt.Sprintf("%s-%d", s, n) }
	f.author = e.Member(name("author"), auth.Edit)
	f.r1 = e.Member(name("rev-one"), auth.Review)
	f.r2 = e.Member(name("rev-two"), auth.Review)
	f.reader = e.Member(name("reader"), auth.Read)
	f.outsider = e.NewUser(name("outsider"))
	sp := "/v1/spaces/" + f.space
	grant(t, e, e.Admin, sp, "edit", []string{f.author.ID}, nil)
	grant(t, e, e.Admin, sp, "review", []string{f.r1.ID, f.r2.ID}, nil)
	grant(t, e, e.Admin, sp, "read", []string{f.reader.ID}, nil)
	f.cr = newChangeRequest(t, e, f.author, f.space, "proposal")
	e.Patch(f.author, crPath(f.space, f.cr)+"/pages/p1", map[string]any{"markdown": "Proposed.\n"}).Expect(200)
	return f
}

func (f *reviewFixture) reviews() string   { return crPath(f.space, f.cr) + "/reviews" }
func (f *reviewFixture) requested() string { return crPath(f.space, f.cr) + "/requested-reviewers" }

func (f *reviewFixture) review(a apitest.Actor, status string) *apitest.Resp {
	return f.e.Post(a, f.reviews(), map[string]any{"status": status})
}

func TestChangeRequestReviews(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	f := newReviewFixture(t, e)
	crRev := e.Get(e.Admin, crPath(f.space, f.cr)).Expect(200).Str("revision")

	var first string
	t.Run("a reviewer approves: 201 with the review and its location", func(t *testing.T) {
		r := f.review(f.r1, "approved").Expect(201)
		first = r.Str("id")
		if r.Str("object") != "change-request-review" || r.Str("status") != "approved" || r.Bool("outdated") ||
			r.Str("revision") != crRev || r.Str("reviewer.id") != f.r1.ID || r.Str("reviewer.object") != "user" ||
			r.Has("requestedBy") || r.Str("createdAt") == "" || r.Str("updatedAt") == "" {
			t.Errorf("review %v", r.Map())
		}
		loc := r.Str("urls.location")
		if !strings.HasSuffix(loc, "/reviews/"+first) || r.Header.Get("Location") != loc {
			t.Errorf("location %q, header %q", loc, r.Header.Get("Location"))
		}
		g := e.Get(f.reader, f.reviews()+"/"+first).Expect(200)
		if g.Str("id") != first || g.Str("status") != "approved" {
			t.Errorf("get %v", g.Map())
		}
	})
	t.Run("a reviewer's new review makes their earlier one outdated", func(t *testing.T) {
		second := f.review(f.r1, "changes-requested").Expect(201).Str("id")
		if !e.Get(e.Admin, f.reviews()+"/"+first).Expect(200).Bool("outdated") {
			t.Error("the first review is not outdated")
		}
		if got := strings.Join(e.Get(e.Admin, f.reviews()).Expect(200).IDs(), ","); got != first+","+second {
			t.Errorf("list %s", got)
		}
		if got := strings.Join(e.Get(e.Admin, f.reviews()+"?outdated=false").Expect(200).IDs(), ","); got != second {
			t.Errorf("current %s, want %s", got, second)
		}
		if got := strings.Join(e.Get(e.Admin, f.reviews()+"?outdated=true").Expect(200).IDs(), ","); got != first {
			t.Errorf("outdated %s, want %s", got, first)
		}
		items := e.WalkList(e.Admin, f.reviews(), 1)
		if len(items) != 2 {
			t.Errorf("walked %d reviews", len(items))
		}
	})
	t.Run("the change request's number works as its reference", func(t *testing.T) {
		n := int(e.Get(e.Admin, crPath(f.space, f.cr)).Expect(200).Num("number"))
		r := e.Get(e.Admin, fmt.Sprintf("%s/%d/reviews", changeRequestsPath(f.space), n)).Expect(200)
		if len(r.Items()) != 2 {
			t.Errorf("by number: %v", r.Map())
		}
	})
	t.Run("permissions", func(t *testing.T) {
		own := newChangeRequest(t, e, f.r2, f.space, "by a reviewer")
		e.Post(f.r2, crPath(f.space, own)+"/reviews", map[string]any{"status": "approved"}).ExpectError(403).ExpectMessage("author")
		f.review(f.author, "approved").ExpectError(403).ExpectMessage("review role")
		f.review(f.reader, "approved").ExpectError(403).ExpectMessage("review role")
		f.review(f.outsider, "approved").ExpectError(404)
		e.Get(f.outsider, f.reviews()).ExpectError(404)
		e.Get(f.outsider, f.reviews()+"/"+first).ExpectError(404)
		e.Get(f.reader, f.reviews()).Expect(200)
	})
	t.Run("bad input", func(t *testing.T) {
		f.review(f.r2, "lgtm").ExpectError(400).ExpectMessage("status", "approved", "changes-requested")
		e.Post(f.r2, f.reviews(), map[string]any{}).ExpectError(400).ExpectMessage("status", "required")
		e.Post(f.r2, f.reviews(), map[string]any{"status": "approved", "comment": map[string]any{"markdown": "nice"}}).
			ExpectError(400).ExpectMessage("comment")
		e.Post(f.r2, f.reviews(), map[string]any{"status": "approved", "extra": 1}).ExpectError(400).ExpectMessage("extra")
		e.Get(e.Admin, f.reviews()+"?outdated=maybe").ExpectError(400).ExpectMessage("outdated")
		e.Get(e.Admin, f.reviews()+"?format=html").ExpectError(400).ExpectMessage("format")
		e.Get(e.Admin, f.reviews()+"?limit=1001").ExpectError(400).ExpectMessage("limit", "1000")
		e.Get(e.Admin, f.reviews()+"/nope").ExpectError(404)
		e.Get(e.Admin, changeRequestsPath(f.space)+"/nope/reviews").ExpectError(404)
		if n := len(e.Get(e.Admin, f.reviews()).Expect(200).Items()); n != 2 {
			t.Errorf("refused reviews were stored: %d reviews", n)
		}
	})
	t.Run("an empty comment is accepted", func(t *testing.T) {
		e.Post(f.r2, f.reviews(), map[string]any{"status": "approved", "comment": map[string]any{}}).Expect(201)
	})
	t.Run("a merged change request takes no more reviews", func(t *testing.T) {
		e.Post(e.Admin, crPath(f.space, f.cr)+"/merge", nil).Expect(200)
		f.review(f.r2, "approved").ExpectError(409).ExpectMessage("merged")
		e.Post(f.author, f.requested(), map[string]any{"users": []string{f.r2.ID}}).ExpectError(409).ExpectMessage("merged")
	})
}

func TestChangeRequestRequestedReviewers(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	f := newReviewFixture(t, e)

	t.Run("an editor asks a reviewer: 200 with the requests", func(t *testing.T) {
		r := e.Post(f.author, f.requested(), map[string]any{"users": []string{f.r1.ID, f.r1.ID}}).Expect(200)
		var out struct {
			Users []map[string]any `json:"users"`
		}
		r.JSON(&out)
		if len(out.Users) != 1 {
			t.Fatalf("answer %v", r.Map())
		}
		u := out.Users[0]
		user, _ := u["user"].(map[string]any)
		by, _ := u["requestedBy"].(map[string]any)
		if u["object"] != "change-request-requested-reviewer" || u["kind"] != "user" || user["id"] != f.r1.ID ||
			by["id"] != f.author.ID || u["revision"] == "" || u["createdAt"] == "" {
			t.Errorf("request %v", u)
		}
		l := e.Get(f.reader, f.requested()).Expect(200)
		if got := l.Items(); len(got) != 1 || l.Num("count") != 1 {
			t.Errorf("list %v", l.Map())
		}
	})
	t.Run("the requestedReviewer filter finds the change request", func(t *testing.T) {
		other := newChangeRequest(t, e, f.author, f.space, "other")
		r := e.Get(e.Admin, changeRequestsPath(f.space)+"?requestedReviewer="+f.r1.ID).Expect(200)
		if got := strings.Join(r.IDs(), ","); got != f.cr {
			t.Errorf("filter: %s, want %s (not %s)", got, f.cr, other)
		}
		if got := e.Get(e.Admin, changeRequestsPath(f.space)+"?requestedReviewer="+f.r2.ID).Expect(200).IDs(); len(got) != 0 {
			t.Errorf("r2 filter: %v", got)
		}
		org := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/change-requests?requestedReviewer="+f.r1.ID).Expect(200)
		if got := strings.Join(org.IDs(), ","); got != f.cr {
			t.Errorf("org filter: %s", got)
		}
	})
	t.Run("a requested reviewer's review names who asked; asking again outdates it", func(t *testing.T) {
		rv := f.review(f.r1, "approved").Expect(201)
		if rv.Str("requestedBy.id") != f.author.ID {
			t.Errorf("requestedBy %v", rv.Map())
		}
		e.Post(e.Admin, f.requested(), map[string]any{"users": []string{f.r1.ID}}).Expect(200)
		if !e.Get(e.Admin, f.reviews()+"/"+rv.Str("id")).Expect(200).Bool("outdated") {
			t.Error("asking again did not outdate the review")
		}
		l := e.Get(e.Admin, f.requested()).Expect(200).Items()
		if by, _ := l[0]["requestedBy"].(map[string]any); len(l) != 1 || by["id"] != e.Admin.ID {
			t.Errorf("refreshed request %v", l)
		}
	})
	t.Run("subject and description change with the request", func(t *testing.T) {
		e.Post(f.author, f.requested(), map[string]any{"users": []string{f.r2.ID}, "subject": "Please review",
			"description": json.RawMessage(crDescription)}).Expect(200)
		cr := e.Get(e.Admin, crPath(f.space, f.cr)).Expect(200)
		if cr.Str("subject") != "Please review" || !cr.Has("description") {
			t.Errorf("change request %v", cr.Map())
		}
	})
	t.Run("bad input writes nothing", func(t *testing.T) {
		e.Post(f.author, f.requested(), map[string]any{}).ExpectError(400).ExpectMessage("users", "required")
		many := make([]string, 51)
		for i := range many {
			many[i] = f.r2.ID
		}
		e.Post(f.author, f.requested(), map[string]any{"users": many}).ExpectError(400).ExpectMessage("users", "50")
		e.Post(f.author, f.requested(), map[string]any{"users": []string{f.r2.ID, f.reader.ID}}).
			ExpectError(400).ExpectMessage("users[1]", "review role")
		e.Post(f.author, f.requested(), map[string]any{"users": []string{f.outsider.ID}}).
			ExpectError(400).ExpectMessage("users[0]")
		e.Post(f.author, f.requested(), map[string]any{"users": []string{"nobody"}}).ExpectError(400).ExpectMessage("users[0]")
		e.Post(f.author, f.requested(), map[string]any{"users": []string{""}}).ExpectError(400).ExpectMessage("users[0]")
		e.Post(e.Admin, f.requested(), map[string]any{"users": []string{f.author.ID}}).
			ExpectError(400).ExpectMessage("users[0]", "review role")
		own := newChangeRequest(t, e, f.r2, f.space, "by a reviewer")
		e.Post(e.Admin, crPath(f.space, own)+"/requested-reviewers", map[string]any{"users": []string{f.r2.ID}}).
			ExpectError(400).ExpectMessage("users[0]", "opened")
		e.Post(f.author, f.requested(), map[string]any{"users": []string{f.r1.ID}, "subject": strings.Repeat("s", 101)}).
			ExpectError(400).ExpectMessage("subject", "100")
		e.Get(e.Admin, f.requested()+"?limit=1001").ExpectError(400).ExpectMessage("limit")
		if n := len(e.Get(e.Admin, f.requested()).Expect(200).Items()); n != 2 {
			t.Errorf("%d requests after refused ones, want 2", n)
		}
	})
	t.Run("permissions", func(t *testing.T) {
		e.Post(f.reader, f.requested(), map[string]any{"users": []string{f.r1.ID}}).ExpectError(403)
		e.Post(f.r1, f.requested(), map[string]any{"users": []string{f.r2.ID}}).Expect(200) // review includes edit
		e.Post(f.outsider, f.requested(), map[string]any{"users": []string{f.r1.ID}}).ExpectError(404)
		e.Get(f.outsider, f.requested()).ExpectError(404)
		e.Delete(f.reader, f.requested()+"/"+f.r1.ID).ExpectError(403)
		e.Delete(f.outsider, f.requested()+"/"+f.r1.ID).ExpectError(404)
	})
	t.Run("removing a request: 205, then 204 when there is none", func(t *testing.T) {
		e.Delete(f.author, f.requested()+"/"+f.r1.ID).Expect(205)
		e.Delete(f.author, f.requested()+"/"+f.r1.ID).Expect(204)
		if got := e.Get(e.Admin, changeRequestsPath(f.space)+"?requestedReviewer="+f.r1.ID).Expect(200).IDs(); len(got) != 0 {
			t.Errorf("still found by the filter: %v", got)
		}
		e.Delete(f.author, changeRequestsPath(f.space)+"/nope/requested-reviewers/"+f.r1.ID).ExpectError(404)
	})
}
