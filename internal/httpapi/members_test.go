package httpapi_test

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/store"
)

// addToTeam puts users in a new team of orgID by writing the rows directly: the teams API is
// built on its own, and these tests only need the memberships to exist.
func addToTeam(t *testing.T, e *apitest.Env, orgID string, users ...apitest.Actor) string {
	t.Helper()
	id := ids.New()
	now := e.Clock.Now()
	err := e.App.DB.Write(context.Background(), now, func(q *store.Q) error {
		if _, err := q.Exec(context.Background(), `INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)`,
			id, orgID, "Team "+id, store.Micros(now)); err != nil {
			return err
		}
		for _, u := range users {
			if _, err := q.Exec(context.Background(), `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)`,
				id, u.ID, "member", store.Micros(now)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("seed team: %v", err)
	}
	return id
}

func membersPath(orgID string) string { return "/v1/orgs/" + orgID + "/members" }

func memberPath(orgID, userID string) string { return membersPath(orgID) + "/" + userID }

// memberFixture is an organization with one member of every role (and a guest), some of
// whom joined in the same microsecond, and some of whom have pinged.
type memberFixture struct {
	e       *apitest.Env
	byName  map[string]apitest.Actor
	roles   map[string]auth.Role // user id -> role
	pinged  map[string]bool      // user id -> has a lastSeenAt
	allIDs  []string
	guest   apitest.Actor
	reader  apitest.Actor
	creator apitest.Actor
}

func newMemberFixture(t *testing.T) *memberFixture {
	t.Helper()
	e := apitest.New(t)
	f := &memberFixture{e: e, byName: map[string]apitest.Actor{}, roles: map[string]auth.Role{e.Admin.ID: auth.Admin},
		pinged: map[string]bool{}, allIDs: []string{e.Admin.ID}}
	e.Clock.Set(e.Clock.Now().Add(time.Hour).Truncate(time.Second))
	add := func(name, email string, role auth.Role) apitest.Actor {
		a := e.NewUserWithEmail(name, email)
		e.AddMember(e.Org, a, role)
		f.byName[name] = a
		f.roles[a.ID] = role
		f.allIDs = append(f.allIDs, a.ID)
		return a
	}
	for _, m := range []struct {
		name, email string
		role        auth.Role
	}{
		{"Alice Martin", "alice@example.test", auth.Edit},
		{"Bob Stone", "bob@example.test", auth.Read},
		{"Carol Martinez", "carol@example.test", auth.Admin},
		{"Dave Guest", "dave@example.test", auth.Guest},
		{"Erin Comment", "erin@example.test", auth.Comment},
		{"Frank Create", "frank@example.test", auth.Create},
		{"Grace Review", "grace@example.test", auth.Review},
		{"Hidden Name", "zed.unique@corp.example", auth.Read},
		{"100% Sure", "percent@example.test", auth.Read},
		{"Under_Score", "underscore@example.test", auth.Read},
	} {
		e.Clock.Advance(time.Minute)
		add(m.name, m.email, m.role)
	}
	// Three members join in the same microsecond: only the user id orders them.
	e.Clock.Advance(time.Minute)
	for _, n := range []string{"Tie One", "Tie Two", "Tie Three"} {
		add(n, strings.ToLower(strings.ReplaceAll(n, " ", "."))+"@example.test", auth.Read)
	}
	f.guest, f.reader, f.creator = f.byName["Dave Guest"], f.byName["Bob Stone"], f.byName["Frank Create"]
	// Pings at distinct times, then two in the same microsecond.
	for _, n := range []string{"Bob Stone", "Alice Martin", "Dave Guest"} {
		e.Clock.Advance(time.Second)
		f.ping(t, n)
	}
	e.Clock.Advance(time.Second)
	f.ping(t, "Tie One")
	f.ping(t, "Tie Two")
	return f
}

func (f *memberFixture) ping(t *testing.T, name string) {
	t.Helper()
	a := f.byName[name]
	f.e.Post(a, "/v1/orgs/"+f.e.Org+"/ping", nil).Expect(200)
	f.pinged[a.ID] = true
}

func TestMemberListShape(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	e := f.e
	alice := f.byName["Alice Martin"]
	addToTeam(t, e, e.Org, alice, f.reader)
	addToTeam(t, e, e.Org, alice)
	other := e.NewOrg(e.Admin, "Elsewhere")
	e.AddMember(other, alice, auth.Read)
	addToTeam(t, e, other, alice)

	r := e.Get(e.Admin, membersPath(e.Org)+"?search=alice").Expect(200)
	items := r.Items()
	if len(items) != 1 || r.Num("count") != 1 || r.Has("next") {
		t.Fatalf("search=alice: %s", r.Body)
	}
	if r.Str("items.0.object") != "member" || r.Str("items.0.id") != alice.ID || r.Str("items.0.role") != "edit" {
		t.Errorf("member fields wrong: %s", r.Body)
	}
	if r.Str("items.0.user.object") != "user" || r.Str("items.0.user.id") != alice.ID ||
		r.Str("items.0.user.displayName") != "Alice Martin" || r.Str("items.0.user.email") != "alice@example.test" ||
		r.Str("items.0.user.urls.location") != e.URL+"/v1/users/"+alice.ID {
		t.Errorf("member user wrong: %s", r.Body)
	}
	if r.Bool("items.0.disabled") || r.Bool("items.0.sso") || r.Num("items.0.spaces") != 0 {
		t.Errorf("member flags wrong: %s", r.Body)
	}
	if r.Num("items.0.teams") != 2 {
		t.Errorf("teams = %v, want 2 (the team of another organization does not count)", r.Num("items.0.teams"))
	}
	for _, k := range []string{"items.0.joinedAt", "items.0.lastSeenAt"} {
		if v := r.Str(k); !strings.HasSuffix(v, "Z") || len(v) != len("2006-01-02T15:04:05.000Z") {
			t.Errorf("%s = %q, want ISO 8601 UTC", k, v)
		}
	}
	if r.Str("items.0.joinedAt") >= r.Str("items.0.lastSeenAt") {
		t.Errorf("joined after last seen: %s", r.Body)
	}
	if r := e.Get(e.Admin, membersPath(e.Org)+"?search=carol").Expect(200); r.Has("items.0.lastSeenAt") {
		t.Errorf("a member never seen should have no lastSeenAt: %s", r.Body)
	}
	if n := e.Get(e.Admin, membersPath(e.Org)+"?search=bob").Expect(200).Num("items.0.teams"); n != 1 {
		t.Errorf("bob's teams = %v, want 1", n)
	}
}

func TestMemberListAccess(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	e := f.e
	for i, role := range auth.Roles {
		a := e.Member("lister "+string(role), role)
		if got := e.Get(a, membersPath(e.Org)).Expect(200).Num("count"); int(got) != len(f.allIDs)+i+1 {
			t.Errorf("%s sees count %v, want %d", role, got, len(f.allIDs)+i+1)
		}
	}
	e.Get(f.guest, membersPath(e.Org)).Expect(403)
	e.Get(e.NewUser("outsider"), membersPath(e.Org)).Expect(404)
	e.Get(e.Admin, membersPath("nosuchorg")).Expect(404)
	e.Get(apitest.Anonymous, membersPath(e.Org)).Expect(401)
}

func TestMemberListFilters(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	e := f.e
	listIDs := func(path string) []string {
		t.Helper()
		r := e.Get(e.Admin, path).Expect(200)
		got := r.IDs()
		if int(r.Num("count")) != len(got) {
			t.Errorf("%s: count %v for %d items", path, r.Num("count"), len(got))
		}
		slices.Sort(got)
		return got
	}
	want := func(names ...string) []string {
		var out []string
		for _, n := range names {
			out = append(out, f.byName[n].ID)
		}
		slices.Sort(out)
		return out
	}

	t.Run("role filter lists exactly the members with that role", func(t *testing.T) {
		for _, role := range append(slices.Clone(auth.Roles), auth.Guest) {
			name := string(role)
			if role == auth.Guest {
				name = "guest"
			}
			var expect []string
			for id, r := range f.roles {
				if r == role {
					expect = append(expect, id)
				}
			}
			slices.Sort(expect)
			if got := listIDs(membersPath(e.Org) + "?role=" + name); !slices.Equal(got, expect) {
				t.Errorf("role=%s: got %v, want %v", name, got, expect)
			}
		}
	})
	t.Run("search matches display name and email, case-insensitively", func(t *testing.T) {
		cases := map[string][]string{
			"MARTIN":         want("Alice Martin", "Carol Martinez"),
			"tie":            want("Tie One", "Tie Two", "Tie Three"),
			"UNIQUE@corp":    want("Hidden Name"),
			"@corp.example":  want("Hidden Name"),
			"%":              want("100% Sure"),
			"_":              want("Under_Score"),
			`\`:              nil,
			"nobody-matches": nil,
		}
		for q, expect := range cases {
			if got := listIDs(membersPath(e.Org) + "?search=" + url.QueryEscape(q)); !slices.Equal(got, expect) {
				t.Errorf("search=%q: got %v, want %v", q, got, expect)
			}
		}
	})
	t.Run("filters combine", func(t *testing.T) {
		if got := listIDs(membersPath(e.Org) + "?search=martin&role=admin"); !slices.Equal(got, want("Carol Martinez")) {
			t.Errorf("search=martin&role=admin: %v", got)
		}
		if got := listIDs(membersPath(e.Org) + "?search=tie&sort=lastSeenAt"); !slices.Equal(got, want("Tie One", "Tie Two")) {
			t.Errorf("search=tie&sort=lastSeenAt: %v", got)
		}
		if got := listIDs(membersPath(e.Org) + "?role=guest&sort=lastSeenAt&order=asc"); !slices.Equal(got, want("Dave Guest")) {
			t.Errorf("role=guest&sort=lastSeenAt: %v", got)
		}
	})
	t.Run("sorting by lastSeenAt lists only members who have been seen", func(t *testing.T) {
		var expect []string
		for id := range f.pinged {
			expect = append(expect, id)
		}
		slices.Sort(expect)
		if got := listIDs(membersPath(e.Org) + "?sort=lastSeenAt"); !slices.Equal(got, expect) {
			t.Errorf("sort=lastSeenAt: got %v, want %v", got, expect)
		}
	})
	t.Run("invalid parameters are 400 naming the parameter", func(t *testing.T) {
		long := strings.Repeat("s", 513)
		cases := map[string][]string{
			"order=up":          {"order", "asc", "desc"},
			"sort=name":         {"sort", "joinedAt", "lastSeenAt"},
			"role=owner":        {"role", "guest"},
			"search=" + long:    {"search", "512"},
			"limit=1001":        {"limit", "1000"},
			"limit=-1":          {"limit"},
			"page=not-a-cursor": {"page"},
		}
		for q, msg := range cases {
			e.Get(e.Admin, membersPath(e.Org)+"?"+q).Expect(400).ExpectMessage(msg...)
		}
		e.Get(e.Admin, membersPath(e.Org)+"?search="+strings.Repeat("s", 512)).Expect(200)
		e.Get(e.Admin, membersPath(e.Org)+"?limit=1000").Expect(200)
	})
	t.Run("a cursor works only for the list it came from", func(t *testing.T) {
		cursor := e.Get(e.Admin, membersPath(e.Org)+"?limit=1").Expect(200).Str("next.page")
		for _, q := range []string{"sort=lastSeenAt", "order=asc", "role=read", "search=a"} {
			e.Get(e.Admin, membersPath(e.Org)+"?limit=1&"+q+"&page="+url.QueryEscape(cursor)).Expect(400).ExpectMessage("page")
		}
		otherOrg := e.NewOrg(e.Admin, "Other")
		e.Get(e.Admin, membersPath(otherOrg)+"?limit=1&page="+url.QueryEscape(cursor)).Expect(400)
		e.Get(e.Admin, membersPath(e.Org)+"?limit=1&page="+url.QueryEscape(cursor)).Expect(200)
	})
	t.Run("limit=0 gives the count only", func(t *testing.T) {
		r := e.Get(e.Admin, membersPath(e.Org)+"?limit=0").Expect(200)
		if int(r.Num("count")) != len(f.allIDs) || len(r.Items()) != 0 || r.Has("next") {
			t.Errorf("limit=0: %s", r.Body)
		}
	})
}

func TestMemberListSortAndWalk(t *testing.T) {
	t.Parallel()
	f := newMemberFixture(t)
	e := f.e
	for _, sort := range []struct {
		name, field string
		members     []string
	}{
		{"joinedAt", "joinedAt", f.allIDs},
		{"lastSeenAt", "lastSeenAt", keys(f.pinged)},
	} {
		walks := map[string][]string{}
		for _, order := range []string{"asc", "desc"} {
			full := e.Get(e.Admin, membersPath(e.Org)+"?sort="+sort.name+"&order="+order+"&limit=1000").Expect(200)
			if full.Has("next") || int(full.Num("count")) != len(sort.members) {
				t.Fatalf("sort=%s order=%s: %s", sort.name, order, full.Body)
			}
			// The order follows the sort field; equal values come in a fixed order.
			var prev string
			for i, it := range full.Items() {
				v, _ := it[sort.field].(string)
				if v == "" {
					t.Fatalf("sort=%s: item %d lacks %s", sort.name, i, sort.field)
				}
				if i > 0 && ((order == "asc" && v < prev) || (order == "desc" && v > prev)) {
					t.Errorf("sort=%s order=%s: item %d (%s) out of order after %s", sort.name, order, i, v, prev)
				}
				prev = v
			}
			for _, limit := range []int{1, 2, 3} {
				var walked []string
				for _, it := range e.WalkList(e.Admin, membersPath(e.Org)+"?sort="+sort.name+"&order="+order, limit) {
					walked = append(walked, it["id"].(string))
				}
				if !slices.Equal(walked, full.IDs()) {
					t.Errorf("sort=%s order=%s limit=%d: walk %v, want %v", sort.name, order, limit, walked, full.IDs())
				}
				if got, want := sorted(walked), sorted(sort.members); !slices.Equal(got, want) {
					t.Errorf("sort=%s order=%s limit=%d: walk visits %v, want each of %v once", sort.name, order, limit, got, want)
				}
			}
			walks[order] = full.IDs()
		}
		asc := slices.Clone(walks["asc"])
		slices.Reverse(asc)
		if !slices.Equal(asc, walks["desc"]) {
			t.Errorf("sort=%s: desc %v is not asc reversed %v", sort.name, walks["desc"], walks["asc"])
		}
	}

	t.Run("default is joinedAt, newest first", func(t *testing.T) {
		def := e.Get(e.Admin, membersPath(e.Org)).Expect(200).IDs()
		explicit := e.Get(e.Admin, membersPath(e.Org)+"?sort=joinedAt&order=desc").Expect(200).IDs()
		if !slices.Equal(def, explicit) || def[len(def)-1] != e.Admin.ID {
			t.Errorf("default order %v, want joinedAt desc %v ending with the first admin", def, explicit)
		}
	})
	t.Run("a new ping moves a member to the front", func(t *testing.T) {
		e.Clock.Advance(time.Minute)
		f.ping(t, "Bob Stone")
		if got := e.Get(e.Admin, membersPath(e.Org)+"?sort=lastSeenAt").Expect(200).IDs(); got[0] != f.reader.ID {
			t.Errorf("after a ping, first is %s, want %s", got[0], f.reader.ID)
		}
	})
	t.Run("a filtered walk visits each match once", func(t *testing.T) {
		var walked []string
		for _, it := range e.WalkList(e.Admin, membersPath(e.Org)+"?role=read&order=asc", 2) {
			walked = append(walked, it["id"].(string))
		}
		var want []string
		for id, r := range f.roles {
			if r == auth.Read {
				want = append(want, id)
			}
		}
		if !slices.Equal(sorted(walked), sorted(want)) {
			t.Errorf("role=read walk %v, want %v", walked, want)
		}
	})
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func TestMemberGet(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	reader := e.Member("reader", auth.Read)
	guest := e.Member("guest", auth.Guest)
	addToTeam(t, e, e.Org, reader)

	r := e.Get(e.Admin, memberPath(e.Org, reader.ID)).Expect(200)
	if r.Str("object") != "member" || r.Str("id") != reader.ID || r.Str("role") != "read" || r.Num("teams") != 1 ||
		r.Str("user.id") != reader.ID || r.Str("user.email") != reader.Email || r.Num("spaces") != 0 {
		t.Errorf("member wrong: %s", r.Body)
	}
	t.Run("members read one another", func(t *testing.T) {
		if e.Get(reader, memberPath(e.Org, e.Admin.ID)).Expect(200).Str("role") != "admin" {
			t.Error("reader should see the admin's role")
		}
	})
	t.Run("a guest reads only their own record", func(t *testing.T) {
		r := e.Get(guest, memberPath(e.Org, guest.ID)).Expect(200)
		if v, ok := r.Get("role"); !ok || v != nil {
			t.Errorf("guest role = %v, want null", v)
		}
		e.Get(guest, memberPath(e.Org, reader.ID)).Expect(403)
	})
	t.Run("a user who is not a member is 404", func(t *testing.T) {
		e.Get(e.Admin, memberPath(e.Org, e.NewUser("stranger").ID)).Expect(404)
		e.Get(e.Admin, memberPath(e.Org, "nosuchuser")).Expect(404)
	})
	t.Run("outsiders get 404", func(t *testing.T) {
		outsider := e.NewUser("outsider")
		e.Get(outsider, memberPath(e.Org, e.Admin.ID)).Expect(404)
		e.Get(outsider, memberPath(e.Org, outsider.ID)).Expect(404)
		e.Get(apitest.Anonymous, memberPath(e.Org, e.Admin.ID)).Expect(401)
	})
}

func TestMemberPatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	editor := e.Member("editor", auth.Edit)
	path := memberPath(e.Org, editor.ID)

	for _, role := range []string{"read", "comment", "review", "create", "edit"} {
		if got := e.Patch(e.Admin, path, map[string]any{"role": role}).Expect(200).Str("role"); got != role {
			t.Errorf("patched role = %q, want %q", got, role)
		}
		if got := e.Get(e.Admin, path).Expect(200).Str("role"); got != role {
			t.Errorf("role after re-read = %q, want %q", got, role)
		}
	}
	t.Run("null makes a guest", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"role": nil}).Expect(200)
		if v, ok := r.Get("role"); !ok || v != nil {
			t.Errorf("role = %v, want null", v)
		}
		if v, _ := e.Get(e.Admin, path).Expect(200).Get("role"); v != nil {
			t.Errorf("role after re-read = %v, want null", v)
		}
		e.Get(editor, membersPath(e.Org)).Expect(403)
		e.Patch(e.Admin, path, map[string]any{"role": "edit"}).Expect(200)
		e.Get(editor, membersPath(e.Org)).Expect(200)
	})
	t.Run("an empty body changes nothing", func(t *testing.T) {
		if e.Patch(e.Admin, path, map[string]any{}).Expect(200).Str("role") != "edit" {
			t.Error("empty patch changed the role")
		}
	})
	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			name string
			body any
			msg  []string
		}{
			{"unknown role", map[string]any{"role": "owner"}, []string{"role", "owner", "admin"}},
			{"guest is spelled null", map[string]any{"role": "guest"}, []string{"role", "null"}},
			{"role not a string", map[string]any{"role": 5}, []string{"role", "string"}},
			{"unknown field", map[string]any{"disabled": true}, []string{"disabled", "unknown"}},
			{"invalid JSON", `{"role": `, []string{"JSON"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Patch(e.Admin, path, c.body).Expect(400).ExpectMessage(c.msg...)
			})
		}
		if e.Get(e.Admin, path).Expect(200).Str("role") != "edit" {
			t.Error("a refused patch changed the role")
		}
	})
	t.Run("only admins may patch", func(t *testing.T) {
		creator := e.Member("creator", auth.Create)
		e.Patch(creator, path, map[string]any{"role": "read"}).Expect(403)
		e.Patch(editor, path, map[string]any{"role": "admin"}).Expect(403)
		e.Patch(e.NewUser("outsider"), path, map[string]any{"role": "read"}).Expect(404)
		if e.Get(e.Admin, path).Expect(200).Str("role") != "edit" {
			t.Error("a refused patch changed the role")
		}
	})
	t.Run("a user who is not a member is 404", func(t *testing.T) {
		e.Patch(e.Admin, memberPath(e.Org, e.NewUser("stranger").ID), map[string]any{"role": "read"}).Expect(404)
	})
	t.Run("the last admin cannot be demoted", func(t *testing.T) {
		self := memberPath(e.Org, e.Admin.ID)
		e.Patch(e.Admin, self, map[string]any{"role": "edit"}).Expect(409).ExpectMessage("last admin")
		e.Patch(e.Admin, self, map[string]any{"role": nil}).Expect(409)
		if e.Get(e.Admin, self).Expect(200).Str("role") != "admin" {
			t.Fatal("the last admin was demoted")
		}
		e.Patch(e.Admin, self, map[string]any{"role": "admin"}).Expect(200)

		second := e.Member("second admin", auth.Admin)
		e.Patch(e.Admin, memberPath(e.Org, second.ID), map[string]any{"role": "read"}).Expect(200)
		e.Patch(e.Admin, memberPath(e.Org, second.ID), map[string]any{"role": "admin"}).Expect(200)
		e.Patch(second, self, map[string]any{"role": "read"}).Expect(200)
		e.Patch(second, memberPath(e.Org, second.ID), map[string]any{"role": "read"}).Expect(409)
		if n := e.Get(second, membersPath(e.Org)+"?role=admin").Expect(200).Num("count"); n != 1 {
			t.Errorf("admins = %v, want 1", n)
		}
	})
}

// Two admins who demote or remove each other at the same moment must not leave the
// organization without an admin: one request wins, the other is refused.
func TestLastAdminUnderConcurrency(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	other := e.Member("other admin", auth.Admin)
	admins := []apitest.Actor{e.Admin, other}
	for round := 0; round < 8; round++ {
		remove := round%2 == 1
		statuses := make([]int, 2)
		var wg sync.WaitGroup
		for i, a := range admins {
			wg.Add(1)
			go func() {
				defer wg.Done()
				target := memberPath(e.Org, admins[1-i].ID)
				if remove {
					statuses[i] = e.Do(a, "DELETE", target, nil).Status
				} else {
					statuses[i] = e.Do(a, "PATCH", target, map[string]any{"role": "read"}).Status
				}
			}()
		}
		wg.Wait()
		won := 0
		for i, s := range statuses {
			switch {
			case s == 200 || s == 204:
				won = i
			case s == 403 || s == 404 || s == 409:
			default:
				t.Fatalf("round %d: unexpected status %d", round, s)
			}
		}
		wins := 0
		for _, s := range statuses {
			if s == 200 || s == 204 {
				wins++
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: statuses %v, want exactly one success", round, statuses)
		}
		winner := admins[won]
		r := e.Get(winner, membersPath(e.Org)+"?role=admin").Expect(200)
		if r.Num("count") != 1 || r.IDs()[0] != winner.ID {
			t.Fatalf("round %d: admins after the race: %s", round, r.Body)
		}
		loser := admins[1-won]
		e.AddMember(e.Org, loser, auth.Admin)
	}
}

func TestMemberDelete(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)

	t.Run("an admin removes a member, with their team memberships", func(t *testing.T) {
		m := e.Member("leaving", auth.Edit)
		addToTeam(t, e, e.Org, m)
		addToTeam(t, e, e.Org, m, e.Admin)
		other := e.NewOrg(e.Admin, "Elsewhere")
		e.AddMember(other, m, auth.Read)
		addToTeam(t, e, other, m)

		r := e.Delete(e.Admin, memberPath(e.Org, m.ID)).Expect(204)
		if len(r.Body) != 0 {
			t.Errorf("204 with a body: %s", r.Body)
		}
		e.Get(e.Admin, memberPath(e.Org, m.ID)).Expect(404)
		e.Get(m, membersPath(e.Org)).Expect(404)
		if slices.Contains(e.Get(e.Admin, membersPath(e.Org)).Expect(200).IDs(), m.ID) {
			t.Error("removed member still listed")
		}
		if n := e.Get(e.Admin, memberPath(e.Org, e.Admin.ID)).Expect(200).Num("teams"); n != 1 {
			t.Errorf("other members keep their teams: admin teams = %v, want 1", n)
		}
		if n := e.Get(e.Admin, memberPath(other, m.ID)).Expect(200).Num("teams"); n != 1 {
			t.Errorf("teams of another organization are kept: teams = %v, want 1", n)
		}
		e.AddMember(e.Org, m, auth.Edit)
		if n := e.Get(e.Admin, memberPath(e.Org, m.ID)).Expect(200).Num("teams"); n != 0 {
			t.Errorf("rejoined member has %v teams, want 0", n)
		}
	})
	t.Run("removing a user who is not a member is 204", func(t *testing.T) {
		e.Delete(e.Admin, memberPath(e.Org, e.NewUser("stranger").ID)).Expect(204)
		e.Delete(e.Admin, memberPath(e.Org, "nosuchuser")).Expect(204)
	})
	t.Run("members and guests may remove themselves", func(t *testing.T) {
		for _, role := range []auth.Role{auth.Read, auth.Guest} {
			m := e.Member("self remover", role)
			e.Delete(m, memberPath(e.Org, m.ID)).Expect(204)
			e.Get(e.Admin, memberPath(e.Org, m.ID)).Expect(404)
		}
	})
	t.Run("non-admins may not remove others", func(t *testing.T) {
		victim := e.Member("victim", auth.Read)
		for _, role := range []auth.Role{auth.Create, auth.Read, auth.Guest} {
			e.Delete(e.Member("remover", role), memberPath(e.Org, victim.ID)).Expect(403)
		}
		e.Delete(e.NewUser("outsider"), memberPath(e.Org, victim.ID)).Expect(404)
		e.Delete(e.NewUser("outsider"), memberPath(e.Org, "nosuchuser")).Expect(404)
		e.Delete(apitest.Anonymous, memberPath(e.Org, victim.ID)).Expect(401)
		e.Get(e.Admin, memberPath(e.Org, victim.ID)).Expect(200)
	})
	t.Run("the last admin cannot be removed", func(t *testing.T) {
		e.Delete(e.Admin, memberPath(e.Org, e.Admin.ID)).Expect(409).ExpectMessage("last admin")
		e.Get(e.Admin, memberPath(e.Org, e.Admin.ID)).Expect(200)
		second := e.Member("second admin", auth.Admin)
		e.Delete(second, memberPath(e.Org, e.Admin.ID)).Expect(204)
		e.Delete(second, memberPath(e.Org, second.ID)).Expect(409)
		e.Get(second, memberPath(e.Org, second.ID)).Expect(200)
	})
}

func TestMemberPing(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := "/v1/orgs/" + e.Org + "/ping"
	if e.Get(e.Admin, memberPath(e.Org, e.Admin.ID)).Expect(200).Has("lastSeenAt") {
		t.Fatal("a member who never pinged has a lastSeenAt")
	}
	at := time.Date(2030, 5, 6, 7, 8, 9, 123000000, time.UTC)
	e.Clock.Set(at)
	r := e.Post(e.Admin, path, nil).Expect(200)
	if m := r.Map(); len(m) != 0 {
		t.Errorf("ping answer = %s, want {}", r.Body)
	}
	if got := e.Get(e.Admin, memberPath(e.Org, e.Admin.ID)).Expect(200).Str("lastSeenAt"); got != "2030-05-06T07:08:09.123Z" {
		t.Errorf("lastSeenAt = %q, want the clock's time", got)
	}
	e.Clock.Advance(time.Hour)
	e.Post(e.Admin, path, nil).Expect(200)
	if got := e.Get(e.Admin, memberPath(e.Org, e.Admin.ID)).Expect(200).Str("lastSeenAt"); got != "2030-05-06T08:08:09.123Z" {
		t.Errorf("lastSeenAt after a second ping = %q", got)
	}

	t.Run("a guest pings their own record", func(t *testing.T) {
		guest := e.Member("guest", auth.Guest)
		e.Post(guest, path, nil).Expect(200)
		if !e.Get(guest, memberPath(e.Org, guest.ID)).Expect(200).Has("lastSeenAt") {
			t.Error("guest ping not recorded")
		}
	})
	t.Run("outsiders get 404", func(t *testing.T) {
		e.Post(e.NewUser("outsider"), path, nil).Expect(404)
		e.Post(e.Admin, "/v1/orgs/nosuchorg/ping", nil).Expect(404)
		e.Post(apitest.Anonymous, path, nil).Expect(401)
	})
}

func TestMemberSSO(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	m := e.Member("sso user", auth.Comment)
	path := memberPath(e.Org, m.ID) + "/sso"

	t.Run("non-admins may not", func(t *testing.T) {
		e.Post(e.Member("creator", auth.Create), path, nil).Expect(403)
		e.Post(m, path, nil).Expect(403)
		e.Post(e.NewUser("outsider"), path, nil).Expect(404)
		if e.Get(e.Admin, memberPath(e.Org, m.ID)).Expect(200).Bool("sso") {
			t.Error("a refused request set sso")
		}
	})
	t.Run("an admin marks a member as SSO", func(t *testing.T) {
		r := e.Post(e.Admin, path, nil).Expect(200)
		if r.Str("object") != "member" || r.Str("id") != m.ID || !r.Bool("sso") || r.Str("role") != "comment" {
			t.Errorf("answer wrong: %s", r.Body)
		}
		after := e.Get(e.Admin, memberPath(e.Org, m.ID)).Expect(200)
		if !after.Bool("sso") || after.Str("role") != "comment" {
			t.Errorf("after re-read: %s", after.Body)
		}
		e.Post(e.Admin, path, nil).Expect(200)
	})
	t.Run("a user who is not a member is 404", func(t *testing.T) {
		e.Post(e.Admin, memberPath(e.Org, e.NewUser("stranger").ID)+"/sso", nil).Expect(404)
	})
}
