package httpapi_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func inviteUsersPath(orgID string) string { return "/v1/orgs/" + orgID + "/invites" }

// userIDs reads the `users` array of an invitation answer.
func userIDs(r *apitest.Resp) []string {
	var body struct {
		Users []string `json:"users"`
	}
	r.JSON(&body)
	return body.Users
}

func TestInviteUsers(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	existing := e.NewUser("existing")

	r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{
		"emails": []any{existing.Email, map[string]any{"email": "new.person@elsewhere.test", "role": "admin"}, "Second.New@Elsewhere.TEST"},
		"role":   "edit",
	}).Expect(200)
	users := userIDs(r)
	if len(users) != 3 || users[0] != existing.ID || r.Num("invited") != 3 || r.Has("failedSSOEmails") {
		t.Fatalf("answer: %s", r.Body)
	}
	expectRole(t, e, e.Org, existing, auth.Edit)

	t.Run("unknown addresses become unverified users who are members", func(t *testing.T) {
		ctx := context.Background()
		for i, c := range []struct {
			email, name string
			role        auth.Role
		}{{"new.person@elsewhere.test", "new.person", auth.Admin}, {"second.new@elsewhere.test", "second.new", auth.Edit}} {
			u, err := e.App.Accounts.ByEmail(ctx, c.email)
			if err != nil {
				t.Fatalf("no user for %s: %v", c.email, err)
			}
			if u.ID != users[i+1] || u.EmailVerified || u.DisplayName != c.name {
				t.Errorf("user for %s: %+v (answer id %s)", c.email, u, users[i+1])
			}
			expectRole(t, e, e.Org, apitest.Actor{ID: u.ID, Name: c.email}, c.role)
			got := e.Get(e.Admin, "/v1/users/"+u.ID).Expect(200)
			if got.Str("email") != c.email || got.Str("displayName") != c.name {
				t.Errorf("GET user: %s", got.Body)
			}
		}
		// Once an administrator issues a token, the person uses the organization.
		tok, err := e.App.Accounts.CreateToken(ctx, "new.person@elsewhere.test")
		if err != nil {
			t.Fatal(err)
		}
		if !e.Get(apitest.Actor{Token: tok}, "/v1/orgs/"+e.Org).Expect(200).Bool("permissions.admin") {
			t.Error("the invited admin is not an admin")
		}
	})
	t.Run("a long local part is cut to the longest display name", func(t *testing.T) {
		email := strings.Repeat("l", 70) + "@long.test"
		r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{email}}).Expect(200)
		got := e.Get(e.Admin, "/v1/users/"+userIDs(r)[0]).Expect(200)
		if got.Str("displayName") != strings.Repeat("l", 64) || got.Str("email") != email {
			t.Errorf("user: %s", got.Body)
		}
	})
	t.Run("inviting members again keeps the stronger role and adds nobody", func(t *testing.T) {
		admin2 := e.Member("admin2", auth.Admin)
		reader := e.Member("reader", auth.Read)
		r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{admin2.Email, reader.Email}, "role": "comment"}).Expect(200)
		if got := userIDs(r); len(got) != 2 || got[0] != admin2.ID || got[1] != reader.ID || r.Num("invited") != 0 {
			t.Errorf("answer: %s", r.Body)
		}
		expectRole(t, e, e.Org, admin2, auth.Admin)
		expectRole(t, e, e.Org, reader, auth.Comment)
	})
	t.Run("without a role people join with the default role; null makes guests", func(t *testing.T) {
		e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"defaultRole": "review"}).Expect(200)
		a, b := e.NewUser("a"), e.NewUser("b")
		e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{a.Email}}).Expect(200)
		expectRole(t, e, e.Org, a, auth.Review)
		e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{b.Email}, "role": nil}).Expect(200)
		expectRole(t, e, e.Org, b, auth.Guest)
		c := e.NewUser("c")
		e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []any{map[string]any{"email": c.Email, "role": nil}}, "role": "admin"}).Expect(200)
		expectRole(t, e, e.Org, c, auth.Guest)
	})
	t.Run("permissions", func(t *testing.T) {
		editor := e.Member("editor", auth.Edit)
		victim := e.NewUser("victim")
		e.Post(editor, inviteUsersPath(e.Org), map[string]any{"emails": []string{victim.Email}}).Expect(403)
		e.Post(e.NewUser("outsider"), inviteUsersPath(e.Org), map[string]any{"emails": []string{victim.Email}}).Expect(404)
		expectNotMember(t, e, e.Org, victim)
	})
}

func TestInviteUsersSSO(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	elsewhere := e.NewUser("elsewhere")
	e.NewOrg(elsewhere, "Their own org")
	loner := e.NewUser("loner")
	r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{
		"emails": []string{elsewhere.Email, loner.Email, "fresh@sso.test"}, "role": "read", "sso": true,
	}).Expect(200)
	var body struct {
		Failed []string `json:"failedSSOEmails"`
	}
	r.JSON(&body)
	if len(body.Failed) != 1 || body.Failed[0] != elsewhere.Email || r.Num("invited") != 3 {
		t.Fatalf("answer: %s", r.Body)
	}
	users := userIDs(r)
	for i, want := range []bool{false, true, true} {
		if got := memberSSO(t, e, e.Org, users[i]); got != want {
			t.Errorf("user %d: sso = %v, want %v", i, got, want)
		}
	}
	expectRole(t, e, e.Org, elsewhere, auth.Read)

	t.Run("failedSSOEmails is an empty array when all succeeded", func(t *testing.T) {
		r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{"other@sso.test"}, "sso": true}).Expect(200)
		if v, ok := r.Get("failedSSOEmails"); !ok || len(v.([]any)) != 0 {
			t.Errorf("failedSSOEmails = %v, want []", v)
		}
	})
	t.Run("sso false leaves members ordinary", func(t *testing.T) {
		u := e.NewUser("plain")
		r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{u.Email}, "sso": false}).Expect(200)
		if r.Has("failedSSOEmails") || memberSSO(t, e, e.Org, u.ID) {
			t.Errorf("sso false: %s", r.Body)
		}
	})
}

func TestInviteUsersLimits(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	emails := func(n int, tag string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("person%d@%s.test", i, tag)
		}
		return out
	}
	r := e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": emails(100, "hundred"), "role": "read"}).Expect(200)
	if r.Num("invited") != 100 || len(userIDs(r)) != 100 {
		t.Errorf("100 addresses: %.300s", r.Body)
	}
	e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": emails(101, "toomany"), "role": "read"}).
		Expect(400).ExpectMessage("emails", "100", "101")
	if _, err := e.App.Accounts.ByEmail(context.Background(), "person0@toomany.test"); err == nil {
		t.Error("a refused invitation created a user")
	}
	e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{}}).Expect(400).ExpectMessage("emails", "1 to 100")

	long := strings.Repeat("a", 64) + "@" + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 56) + ".test"
	if len(long) != 254 {
		t.Fatalf("test address is %d characters", len(long))
	}
	e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{long}}).Expect(200)
	e.Post(e.Admin, inviteUsersPath(e.Org), map[string]any{"emails": []string{"e" + long}}).Expect(400).ExpectMessage("emails[0]", "254")
}

func TestInviteUsersValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	cases := []struct {
		name string
		body any
		msg  []string
	}{
		{"emails missing", map[string]any{"role": "read"}, []string{"emails", "required"}},
		{"emails not an array", map[string]any{"emails": "a@b.test"}, []string{"emails"}},
		{"not an address", map[string]any{"emails": []string{"ok@fine.test", "not-an-email"}}, []string{"emails[1]", "email address"}},
		{"duplicate address", map[string]any{"emails": []string{"dup@fine.test", "other@fine.test", "DUP@fine.test"}}, []string{"emails[2]", "emails[0]"}},
		{"item of the wrong type", map[string]any{"emails": []any{5}}, []string{"emails[0]"}},
		{"object without role", map[string]any{"emails": []any{map[string]any{"email": "x@fine.test"}}}, []string{"emails[0].role", "required"}},
		{"object without email", map[string]any{"emails": []any{map[string]any{"role": "read"}}}, []string{"emails[0].email", "required"}},
		{"object with a bad role", map[string]any{"emails": []any{map[string]any{"email": "x@fine.test", "role": "boss"}}}, []string{"emails[0].role", "boss"}},
		{"object with an unknown field", map[string]any{"emails": []any{map[string]any{"email": "x@fine.test", "role": "read", "name": "X"}}}, []string{"emails[0].name", "unknown"}},
		{"bad role", map[string]any{"emails": []string{"x@fine.test"}, "role": "boss"}, []string{"role", "boss"}},
		{"sso not a boolean", map[string]any{"emails": []string{"x@fine.test"}, "sso": "yes"}, []string{"sso", "boolean"}},
		{"unknown field", map[string]any{"emails": []string{"x@fine.test"}, "message": "hi"}, []string{"message", "unknown"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e.Post(e.Admin, inviteUsersPath(e.Org), c.body).Expect(400).ExpectMessage(c.msg...)
		})
	}
	for _, email := range []string{"ok@fine.test", "dup@fine.test", "x@fine.test"} {
		if _, err := e.App.Accounts.ByEmail(context.Background(), email); err == nil {
			t.Errorf("a refused invitation created %s", email)
		}
	}
}

func TestInviteUsersConcurrently(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	orgs := []string{e.Org, e.NewOrg(e.Admin, "Second"), e.NewOrg(e.Admin, "Third")}
	const email = "raced@new.test"
	var wg sync.WaitGroup
	answers := make([]*apitest.Resp, 9)
	for i := range answers {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			answers[i] = e.Post(e.Admin, inviteUsersPath(orgs[i%3]), map[string]any{"emails": []string{email}, "role": "read"})
		}(i)
	}
	wg.Wait()
	ids := map[string]bool{}
	added := 0
	for i, r := range answers {
		if r.Status != 200 {
			t.Fatalf("invitation %d: status %d: %s", i, r.Status, r.Body)
		}
		ids[userIDs(r)[0]] = true
		added += int(r.Num("invited"))
	}
	if len(ids) != 1 || added != 3 {
		t.Errorf("%d distinct users and %d additions, want 1 user added to 3 organizations", len(ids), added)
	}
	for id := range ids {
		for _, o := range orgs {
			expectRole(t, e, o, apitest.Actor{ID: id, Name: email}, auth.Read)
		}
	}
}
