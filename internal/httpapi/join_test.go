package httpapi_test

import (
	"sort"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestJoinByEmailDomain(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"emailDomains": []string{"corp.test", "corp-labs.test"}, "defaultRole": "comment"}).Expect(200)
	join := "/v1/orgs/" + e.Org + "/join"

	t.Run("a verified user of an accepted domain joins with the default role", func(t *testing.T) {
		alice := e.NewUserWithEmail("alice", "alice@corp.test")
		e.Get(alice, "/v1/orgs/"+e.Org).Expect(404)
		r := e.Post(alice, join, nil).Expect(204)
		if len(r.Body) != 0 {
			t.Errorf("204 with a body: %q", r.Body)
		}
		expectRole(t, e, e.Org, alice, auth.Comment)
		e.Get(alice, "/v1/orgs/"+e.Org).Expect(200)

		labs := e.NewUserWithEmail("lab", "lab@corp-labs.test")
		e.Post(labs, join, nil).Expect(204)
		expectRole(t, e, e.Org, labs, auth.Comment)
	})
	t.Run("joining again changes nothing", func(t *testing.T) {
		bob := e.NewUserWithEmail("bob", "bob@corp.test")
		e.Post(bob, join, nil).Expect(204)
		e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"defaultRole": "admin"}).Expect(200)
		e.Post(bob, join, nil).Expect(204)
		expectRole(t, e, e.Org, bob, auth.Comment)
		e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"defaultRole": "comment"}).Expect(200)
	})
	t.Run("a member from any domain gets 204 and keeps their role", func(t *testing.T) {
		editor := e.Member("editor", auth.Edit)
		e.Post(editor, join, nil).Expect(204)
		expectRole(t, e, e.Org, editor, auth.Edit)
	})
	t.Run("others see a private organization", func(t *testing.T) {
		for _, a := range []apitest.Actor{
			unverifiedUser(t, e, "unverified", "unverified@corp.test"),
			e.NewUserWithEmail("other", "carol@other.test"),
			e.NewUserWithEmail("sub", "dave@sub.corp.test"),
			e.NewUser("example"),
		} {
			e.Post(a, join, nil).Expect(404)
			expectNotMember(t, e, e.Org, a)
		}
		e.Post(e.NewUserWithEmail("nowhere", "erin@corp.test"), "/v1/orgs/nosuchorg/join", nil).Expect(404)
		e.Post(apitest.Anonymous, join, nil).Expect(401)
	})
	t.Run("a null default role makes guests", func(t *testing.T) {
		o := e.NewOrg(e.Admin, "Guests by default")
		e.Patch(e.Admin, "/v1/orgs/"+o, map[string]any{"emailDomains": []string{"guests.test"}, "defaultRole": nil}).Expect(200)
		g := e.NewUserWithEmail("g", "g@guests.test")
		e.Post(g, "/v1/orgs/"+o+"/join", nil).Expect(204)
		expectRole(t, e, o, g, auth.Guest)
	})
	t.Run("a disabled member is refused", func(t *testing.T) {
		d := e.NewUserWithEmail("disabled", "disabled@corp.test")
		e.Post(d, join, nil).Expect(204)
		disableMember(t, e, e.Org, d)
		e.Post(d, join, nil).Expect(403).ExpectMessage("disabled")
		if _, member := roleOf(t, e, e.Org, d); member {
			t.Error("joining re-enabled a disabled membership")
		}
	})
}

func TestOrganizationsForEmailDomain(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	a := e.NewOrg(e.Admin, "Corp A")
	b := e.NewOrg(e.Admin, "Corp B")
	c := e.NewOrg(e.Admin, "Other C")
	e.Patch(e.Admin, "/v1/orgs/"+a, map[string]any{"emailDomains": []string{"corp.test"}}).Expect(200)
	e.Patch(e.Admin, "/v1/orgs/"+b, map[string]any{"emailDomains": []string{"x.test", "corp.test"}}).Expect(200)
	e.Patch(e.Admin, "/v1/orgs/"+c, map[string]any{"emailDomains": []string{"other.test"}}).Expect(200)
	alice := e.NewUserWithEmail("alice", "alice@corp.test")
	path := func(d string) string { return "/v1/email-domains/" + d + "/orgs" }

	t.Run("a verified user of the domain sees its organizations", func(t *testing.T) {
		r := e.Get(alice, path("corp.test")).Expect(200)
		got := domainOrgIDs(r)
		sort.Strings(got)
		want := []string{a, b}
		sort.Strings(want)
		if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
			t.Fatalf("orgs for corp.test: %s", r.Body)
		}
		if r.Str("organizations.0.object") != "organization" || r.Bool("organizations.0.permissions.admin") || !r.Bool("organizations.0.permissions.view") {
			t.Errorf("an organization as a non-member sees it: %s", r.Body)
		}
		if ids := domainOrgIDs(e.Get(alice, path("CORP.test")).Expect(200)); len(ids) != 2 {
			t.Errorf("the domain is matched case-insensitively: got %v", ids)
		}
	})
	t.Run("other callers see an empty list", func(t *testing.T) {
		for _, caller := range []apitest.Actor{
			unverifiedUser(t, e, "bob", "bob@corp.test"),
			e.NewUserWithEmail("carol", "carol@other.test"),
			e.Admin,
		} {
			r := e.Get(caller, path("corp.test")).Expect(200)
			if ids, ok := r.Get("organizations"); !ok || len(ids.([]any)) != 0 {
				t.Errorf("%s sees %s", caller.Name, r.Body)
			}
		}
		if ids := domainOrgIDs(e.Get(alice, path("other.test")).Expect(200)); len(ids) != 0 {
			t.Errorf("alice sees %v organizations of another domain", ids)
		}
	})
	t.Run("an invalid domain is 400", func(t *testing.T) {
		for _, d := range []string{"not%20a%20domain", "corp", "-corp.test", "corp..test"} {
			e.Get(alice, path(d)).Expect(400).ExpectMessage("emailDomain")
		}
	})
	t.Run("no token is 401", func(t *testing.T) {
		e.Get(apitest.Anonymous, path("corp.test")).Expect(401)
	})
}

// domainOrgIDs reads the ids of an email-domain lookup's `{organizations: [...]}` answer.
func domainOrgIDs(r *apitest.Resp) []string {
	var body struct {
		Organizations []struct {
			ID string `json:"id"`
		} `json:"organizations"`
	}
	r.JSON(&body)
	ids := []string{}
	for _, o := range body.Organizations {
		ids = append(ids, o.ID)
	}
	return ids
}
