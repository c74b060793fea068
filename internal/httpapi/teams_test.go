package httpapi_test

import (
	"net/url"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// mustCreateTeam creates a team as actor and returns its id.
func mustCreateTeam(t *testing.T, e *apitest.Env, actor apitest.Actor, title string, members ...string) string {
	t.Helper()
	if members == nil {
		members = []string{}
	}
	return e.Put(actor, "/v1/orgs/"+e.Org+"/teams", map[string]any{"title": title, "members": members}).Expect(201).Str("id")
}

// teamRoles maps the user ids of a team's member list to their team roles.
func teamRoles(t *testing.T, e *apitest.Env, actor apitest.Actor, teamID string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, it := range e.WalkList(actor, "/v1/orgs/"+e.Org+"/teams/"+teamID+"/members", 1000) {
		id, _ := apitest.Lookup(it, "organization.id")
		role, _ := apitest.Lookup(it, "team.role")
		out[id.(string)] = role.(string)
	}
	return out
}

func sameRoles(got, want map[string]string) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

func TestTeamCreate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	base := "/v1/orgs/" + e.Org + "/teams"
	alice := e.Member("alice", auth.Edit)
	bob := e.Member("bob", auth.Read)

	r := e.Put(e.Admin, base, map[string]any{"title": "  Writers  ", "members": []string{alice.ID, bob.ID}}).Expect(201)
	id := r.Str("id")
	if r.Header.Get("Location") != e.URL+base+"/"+id {
		t.Errorf("Location = %q", r.Header.Get("Location"))
	}
	after := e.Get(e.Admin, base+"/"+id).Expect(200)
	for _, got := range []*apitest.Resp{r, after} {
		if got.Str("object") != "team" || got.Str("title") != "Writers" || got.Num("members") != 3 || got.Num("spaces") != 0 {
			t.Errorf("team wrong: %s", got.Body)
		}
		if !got.Bool("permissions.admin") || !got.Bool("permissions.view") {
			t.Errorf("admin's team permissions wrong: %s", got.Body)
		}
		if ca := got.Str("createdAt"); !strings.HasSuffix(ca, "Z") {
			t.Errorf("createdAt %q is not ISO 8601 UTC", ca)
		}
	}
	t.Run("creator is an owner and the listed users are members", func(t *testing.T) {
		want := map[string]string{e.Admin.ID: "owner", alice.ID: "member", bob.ID: "member"}
		if got := teamRoles(t, e, e.Admin, id); !sameRoles(got, want) {
			t.Errorf("team members = %v, want %v", got, want)
		}
		if !e.Get(e.Admin, "/v1/orgs/"+e.Org).Expect(200).Bool("permissions.ownTeam") {
			t.Error("the creator should own a team")
		}
	})
	t.Run("creator listed among members stays owner; repeated ids count once", func(t *testing.T) {
		ids := make([]string, 1000) // at the batch limit
		for i := range ids {
			ids[i] = alice.ID
		}
		ids[0] = e.Admin.ID
		r := e.Put(e.Admin, base, map[string]any{"title": "Many", "members": ids}).Expect(201)
		if r.Num("members") != 2 {
			t.Errorf("members = %v, want 2", r.Num("members"))
		}
		want := map[string]string{e.Admin.ID: "owner", alice.ID: "member"}
		if got := teamRoles(t, e, e.Admin, r.Str("id")); !sameRoles(got, want) {
			t.Errorf("team members = %v, want %v", got, want)
		}
	})
	t.Run("members may be omitted", func(t *testing.T) {
		r := e.Put(e.Admin, base, map[string]any{"title": "Solo"}).Expect(201)
		if r.Num("members") != 1 {
			t.Errorf("members = %v, want the creator only", r.Num("members"))
		}
	})

	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	e.NewOrg(outsider, "Other org")
	loner := e.NewUser("loner")
	invalid := []struct {
		name      string
		body      any
		fragments []string
	}{
		{"missing title", map[string]any{"members": []string{}}, []string{"title", "required"}},
		{"empty title", map[string]any{"title": ""}, []string{"title", "1 to 64"}},
		{"blank title", map[string]any{"title": "   "}, []string{"title", "1 to 64"}},
		{"title of 65 characters", map[string]any{"title": strings.Repeat("t", 65)}, []string{"title", "64"}},
		{"title not a string", map[string]any{"title": 5}, []string{"title"}},
		{"members not an array", map[string]any{"title": "X", "members": "abc"}, []string{"members"}},
		{"unknown field", map[string]any{"title": "X", "color": "red"}, []string{"color"}},
		{"user of no organization", map[string]any{"title": "X", "members": []string{alice.ID, loner.ID}}, []string{"members[1]", loner.ID, "not a member"}},
		{"user of another organization", map[string]any{"title": "X", "members": []string{outsider.ID}}, []string{"members[0]", outsider.ID}},
		{"unknown user", map[string]any{"title": "X", "members": []string{"nobody"}}, []string{"members[0]", "nobody"}},
		{"guest", map[string]any{"title": "X", "members": []string{guest.ID}}, []string{"members[0]", guest.ID, "guest"}},
		{"more than 1000 members", map[string]any{"title": "X", "members": make([]string, 1001)}, []string{"members", "1000"}},
	}
	before := e.Get(e.Admin, base).Expect(200).Num("count")
	for _, tc := range invalid {
		t.Run("400 for "+tc.name, func(t *testing.T) {
			e.Put(e.Admin, base, tc.body).Expect(400).ExpectMessage(tc.fragments...)
		})
	}
	t.Run("title of 64 characters is accepted", func(t *testing.T) {
		title := strings.Repeat("é", 64)
		if got := e.Put(e.Admin, base, map[string]any{"title": title}).Expect(201).Str("title"); got != title {
			t.Errorf("title = %q", got)
		}
		before++
	})
	t.Run("only admins create teams", func(t *testing.T) {
		e.Put(alice, base, map[string]any{"title": "Mine"}).Expect(403)
		e.Put(guest, base, map[string]any{"title": "Mine"}).Expect(403)
		e.Put(outsider, base, map[string]any{"title": "Mine"}).Expect(404)
		e.Put(apitest.Anonymous, base, map[string]any{"title": "Mine"}).Expect(401)
	})
	t.Run("refused creations wrote nothing", func(t *testing.T) {
		if got := e.Get(e.Admin, base).Expect(200).Num("count"); got != before {
			t.Errorf("count = %v, want %v", got, before)
		}
	})
}

func TestTeamGetPatchDelete(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	owner := e.Member("owner", auth.Edit)
	plain := e.Member("plain", auth.Edit)
	reader := e.Member("reader", auth.Read)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	id := mustCreateTeam(t, e, e.Admin, "Design", owner.ID, plain.ID)
	path := "/v1/orgs/" + e.Org + "/teams/" + id
	e.Put(e.Admin, path+"/members/"+owner.ID, map[string]any{"role": "owner"}).Expect(204)

	t.Run("members see the team with their permissions", func(t *testing.T) {
		for _, tc := range []struct {
			actor apitest.Actor
			admin bool
		}{{e.Admin, true}, {owner, true}, {plain, false}, {reader, false}} {
			r := e.Get(tc.actor, path).Expect(200)
			if r.Str("id") != id || r.Bool("permissions.admin") != tc.admin || !r.Bool("permissions.view") {
				t.Errorf("%s sees %s", tc.actor.Name, r.Body)
			}
		}
	})
	t.Run("guests get 403, outsiders and absent teams 404", func(t *testing.T) {
		e.Get(guest, path).Expect(403)
		e.Get(outsider, path).Expect(404)
		e.Get(e.Admin, "/v1/orgs/"+e.Org+"/teams/nope").Expect(404).ExpectMessage("nope")
		elsewhere := e.NewOrg(e.Admin, "Elsewhere")
		e.Get(e.Admin, "/v1/orgs/"+elsewhere+"/teams/"+id).Expect(404)
	})
	t.Run("admins and team owners rename", func(t *testing.T) {
		e.Patch(e.Admin, path, map[string]any{"title": "Design Team"}).Expect(200)
		r := e.Patch(owner, path, map[string]any{"title": " Product Design "}).Expect(200)
		if r.Str("title") != "Product Design" || !r.Bool("permissions.admin") || r.Num("members") != 3 {
			t.Errorf("patched team wrong: %s", r.Body)
		}
		if got := e.Get(reader, path).Expect(200).Str("title"); got != "Product Design" {
			t.Errorf("title after patch = %q", got)
		}
	})
	t.Run("others may not rename", func(t *testing.T) {
		e.Patch(plain, path, map[string]any{"title": "Nope"}).Expect(403)
		e.Patch(reader, path, map[string]any{"title": "Nope"}).Expect(403)
		e.Patch(guest, path, map[string]any{"title": "Nope"}).Expect(403)
		e.Patch(outsider, path, map[string]any{"title": "Nope"}).Expect(404)
		e.Patch(e.Admin, "/v1/orgs/"+e.Org+"/teams/nope", map[string]any{"title": "Nope"}).Expect(404)
	})
	t.Run("title limits on rename", func(t *testing.T) {
		e.Patch(e.Admin, path, map[string]any{}).Expect(400).ExpectMessage("title", "required")
		e.Patch(e.Admin, path, map[string]any{"title": ""}).Expect(400).ExpectMessage("title", "1 to 64")
		e.Patch(e.Admin, path, map[string]any{"title": strings.Repeat("x", 65)}).Expect(400).ExpectMessage("title", "64")
		e.Patch(e.Admin, path, map[string]any{"title": "Design", "members": []string{}}).Expect(400).ExpectMessage("members")
		if got := e.Get(e.Admin, path).Expect(200).Str("title"); got != "Product Design" {
			t.Errorf("refused patches changed the title to %q", got)
		}
		r := e.Patch(e.Admin, path, map[string]any{"title": strings.Repeat("x", 64)}).Expect(200)
		if len(r.Str("title")) != 64 {
			t.Errorf("title = %q", r.Str("title"))
		}
		r = e.Patch(e.Admin, path, map[string]any{"title": "D"}).Expect(200)
		if r.Str("title") != "D" {
			t.Errorf("title = %q", r.Str("title"))
		}
	})
	t.Run("only admins delete", func(t *testing.T) {
		e.Delete(owner, path).Expect(403)
		e.Delete(plain, path).Expect(403)
		e.Delete(outsider, path).Expect(404)
		e.Get(e.Admin, path).Expect(200)
		if !e.Get(owner, "/v1/orgs/"+e.Org).Expect(200).Bool("permissions.ownTeam") {
			t.Error("the team owner should own a team")
		}
		e.Delete(e.Admin, path).Expect(204)
		e.Get(e.Admin, path).Expect(404)
		e.Get(e.Admin, path+"/members").Expect(404)
		if e.Get(owner, "/v1/orgs/"+e.Org).Expect(200).Bool("permissions.ownTeam") {
			t.Error("ownTeam should be false once the owned team is deleted")
		}
	})
	t.Run("deleting an absent team is 204", func(t *testing.T) {
		e.Delete(e.Admin, path).Expect(204)
		e.Delete(e.Admin, "/v1/orgs/"+e.Org+"/teams/never-existed").Expect(204)
	})
}

func TestTeamList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	base := "/v1/orgs/" + e.Org + "/teams"
	lead := e.Member("lead", auth.Edit)
	plain := e.Member("plain", auth.Edit)
	guest := e.Member("guest", auth.Guest)
	titles := []string{"Engineering", "Backend ENGINEERS", "Sales", "Support", "100% Legal", "under_score", "Marketing"}
	ids := map[string]string{}
	for _, title := range titles {
		ids[title] = mustCreateTeam(t, e, e.Admin, title)
		e.Clock.Advance(time.Millisecond) // creation order is the list order
	}
	for _, title := range []string{"Engineering", "Sales"} {
		e.Put(e.Admin, base+"/"+ids[title]+"/members/"+lead.ID, map[string]any{"role": "owner"}).Expect(204)
	}
	e.Put(e.Admin, base+"/"+ids["Support"]+"/members/"+lead.ID, map[string]any{}).Expect(204)
	e.Put(e.Admin, base+"/"+ids["Marketing"]+"/members/"+plain.ID, nil).Expect(204)

	titlesOf := func(items []map[string]any) []string {
		var out []string
		for _, it := range items {
			out = append(out, it["title"].(string))
		}
		return out
	}
	t.Run("walks every team oldest first", func(t *testing.T) {
		items := e.WalkList(plain, base, 2)
		if got := strings.Join(titlesOf(items), "|"); got != strings.Join(titles, "|") {
			t.Errorf("walked %s", got)
		}
		r := e.Get(plain, base+"?limit=3").Expect(200)
		if r.Num("count") != float64(len(titles)) || len(r.Items()) != 3 || !r.Has("next.page") {
			t.Errorf("first page wrong: %s", r.Body)
		}
		e.Get(plain, base+"?limit=1001").Expect(400).ExpectMessage("limit")
	})
	t.Run("permissions are the caller's", func(t *testing.T) {
		for _, it := range e.WalkList(lead, base, 100) {
			admin, _ := apitest.Lookup(it, "permissions.admin")
			owned := it["title"] == "Engineering" || it["title"] == "Sales"
			if admin != owned {
				t.Errorf("lead's permissions.admin on %v = %v", it["title"], admin)
			}
		}
	})
	cases := []struct {
		query string
		want  []string
	}{
		{"title=eng", []string{"Engineering", "Backend ENGINEERS"}},
		{"title=ENGINEER", []string{"Engineering", "Backend ENGINEERS"}},
		{"title=" + url.QueryEscape("%"), []string{"100% Legal"}},
		{"title=_", []string{"under_score"}},
		{"title=zzz", nil},
		{"owner=" + lead.ID, []string{"Engineering", "Sales"}},
		{"owner=" + lead.ID + "&title=sal", []string{"Sales"}},
		{"owner=" + e.Admin.ID, titles},
		{"owner=" + plain.ID, nil},
		{"owner=" + guest.ID, nil},
		{"owner=nobody", nil},
	}
	for _, tc := range cases {
		t.Run("filter "+tc.query, func(t *testing.T) {
			items := e.WalkList(plain, base+"?"+tc.query, 1)
			got, want := titlesOf(items), tc.want
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("got %v, want %v", got, want)
			}
			if n := e.Get(plain, base+"?"+tc.query).Expect(200).Num("count"); int(n) != len(want) {
				t.Errorf("count = %v, want %d", n, len(want))
			}
		})
	}
	t.Run("title filter limit", func(t *testing.T) {
		e.Get(plain, base+"?title="+strings.Repeat("a", 64)).Expect(200)
		e.Get(plain, base+"?title="+strings.Repeat("a", 65)).Expect(400).ExpectMessage("title", "64")
	})
	t.Run("a cursor is bound to its filters", func(t *testing.T) {
		cursor := e.Get(plain, base+"?title=eng&limit=1").Expect(200).Str("next.page")
		e.Get(plain, base+"?title=sal&limit=1&page="+url.QueryEscape(cursor)).Expect(400).ExpectMessage("page")
		e.Get(plain, base+"?limit=1&page="+url.QueryEscape(cursor)).Expect(400)
		e.Get(plain, base+"?title=eng&limit=1&page="+url.QueryEscape(cursor)).Expect(200)
	})
	t.Run("guests get 403, outsiders 404", func(t *testing.T) {
		e.Get(guest, base).Expect(403)
		e.Get(e.NewUser("outsider"), base).Expect(404)
	})
}

func TestTeamMemberAddAndRemove(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	owner := e.Member("owner", auth.Read)
	plain := e.Member("plain", auth.Edit)
	carol := e.Member("carol", auth.Comment)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	id := mustCreateTeam(t, e, e.Admin, "Ops", plain.ID)
	path := "/v1/orgs/" + e.Org + "/teams/" + id
	e.Put(e.Admin, path+"/members/"+owner.ID, map[string]any{"role": "owner"}).Expect(204)

	t.Run("a team owner adds a member, who joins as member", func(t *testing.T) {
		e.Put(owner, path+"/members/"+carol.ID, nil).Expect(204)
		want := map[string]string{e.Admin.ID: "owner", owner.ID: "owner", plain.ID: "member", carol.ID: "member"}
		if got := teamRoles(t, e, plain, id); !sameRoles(got, want) {
			t.Errorf("members = %v, want %v", got, want)
		}
		if n := e.Get(plain, path).Expect(200).Num("members"); n != 4 {
			t.Errorf("members count = %v, want 4", n)
		}
	})
	t.Run("a role given is set; none keeps the current role", func(t *testing.T) {
		e.Put(owner, path+"/members/"+carol.ID, map[string]any{"role": "owner"}).Expect(204)
		e.Put(owner, path+"/members/"+carol.ID, map[string]any{}).Expect(204)
		if got := teamRoles(t, e, e.Admin, id)[carol.ID]; got != "owner" {
			t.Errorf("carol's role = %q, want owner", got)
		}
		if !e.Get(carol, path).Expect(200).Bool("permissions.admin") {
			t.Error("a team owner should have permissions.admin on the team")
		}
		e.Put(e.Admin, path+"/members/"+carol.ID, map[string]any{"role": "member"}).Expect(204)
		if e.Get(carol, path).Expect(200).Bool("permissions.admin") {
			t.Error("a demoted owner should lose permissions.admin")
		}
	})
	t.Run("refused additions", func(t *testing.T) {
		e.Put(owner, path+"/members/"+guest.ID, nil).Expect(400).ExpectMessage(guest.ID, "guest")
		e.Put(owner, path+"/members/"+outsider.ID, nil).Expect(400).ExpectMessage(outsider.ID, "not a member")
		e.Put(owner, path+"/members/"+carol.ID, map[string]any{"role": "admin"}).Expect(400).ExpectMessage("role", "owner, member")
		e.Put(owner, path+"/members/"+carol.ID, map[string]any{"role": "member", "x": 1}).Expect(400).ExpectMessage("x")
		e.Put(plain, path+"/members/"+carol.ID, map[string]any{"role": "owner"}).Expect(403)
		e.Put(guest, path+"/members/"+carol.ID, nil).Expect(403)
		e.Put(outsider, path+"/members/"+carol.ID, nil).Expect(404)
		e.Put(owner, "/v1/orgs/"+e.Org+"/teams/nope/members/"+carol.ID, nil).Expect(404)
		want := map[string]string{e.Admin.ID: "owner", owner.ID: "owner", plain.ID: "member", carol.ID: "member"}
		if got := teamRoles(t, e, e.Admin, id); !sameRoles(got, want) {
			t.Errorf("refused additions changed the team: %v", got)
		}
	})
	t.Run("removal answers 205, then 204 when already gone", func(t *testing.T) {
		e.Delete(plain, path+"/members/"+carol.ID).Expect(403)
		e.Delete(outsider, path+"/members/"+carol.ID).Expect(404)
		e.Delete(owner, path+"/members/"+carol.ID).Expect(205)
		e.Delete(owner, path+"/members/"+carol.ID).Expect(204)
		e.Delete(owner, path+"/members/nobody").Expect(204)
		e.Delete(owner, "/v1/orgs/"+e.Org+"/teams/nope/members/"+carol.ID).Expect(404)
		if _, still := teamRoles(t, e, e.Admin, id)[carol.ID]; still {
			t.Error("carol is still on the team")
		}
		if n := e.Get(plain, path).Expect(200).Num("members"); n != 3 {
			t.Errorf("members count = %v, want 3", n)
		}
	})
	t.Run("an owner who removes themselves can no longer manage the team", func(t *testing.T) {
		e.Delete(owner, path+"/members/"+owner.ID).Expect(205)
		e.Put(owner, path+"/members/"+carol.ID, nil).Expect(403)
	})
}

func TestTeamMemberList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	var members []string
	for i := 0; i < 6; i++ {
		members = append(members, e.Member("member", auth.Edit).ID)
	}
	id := mustCreateTeam(t, e, e.Admin, "Big", members...)
	path := "/v1/orgs/" + e.Org + "/teams/" + id + "/members"
	reader := e.Member("reader", auth.Read)

	r := e.Get(reader, path+"?limit=2").Expect(200)
	if r.Num("count") != 7 || len(r.Items()) != 2 || !r.Has("next.page") {
		t.Fatalf("first page wrong: %s", r.Body)
	}
	first := r.Items()[0]
	for _, p := range []string{"organization.object", "organization.id", "organization.user.id", "organization.joinedAt", "team.role", "permissions.view"} {
		if _, ok := apitest.Lookup(first, p); !ok {
			t.Errorf("item lacks %s: %v", p, first)
		}
	}
	if obj, _ := apitest.Lookup(first, "organization.object"); obj != "member" {
		t.Errorf("organization.object = %v", obj)
	}
	if v, _ := apitest.Lookup(first, "permissions.view"); v != true {
		t.Errorf("permissions.view = %v", v)
	}
	var walked []string
	for _, it := range e.WalkList(reader, path, 2) {
		uid, _ := apitest.Lookup(it, "organization.id")
		walked = append(walked, uid.(string))
	}
	want := append([]string{e.Admin.ID}, members...)
	sort.Strings(walked)
	sort.Strings(want)
	if strings.Join(walked, ",") != strings.Join(want, ",") {
		t.Errorf("walked %v, want %v", walked, want)
	}
	t.Run("guests get 403, outsiders and absent teams 404", func(t *testing.T) {
		e.Get(e.Member("guest", auth.Guest), path).Expect(403)
		e.Get(e.NewUser("outsider"), path).Expect(404)
		e.Get(reader, "/v1/orgs/"+e.Org+"/teams/nope/members").Expect(404)
	})
}

func TestTeamMembersBulkUpdate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	a := e.Member("a", auth.Edit)
	b := e.Member("b", auth.Edit)
	c := e.Member("c", auth.Edit)
	d := e.Member("d", auth.Edit)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	id := mustCreateTeam(t, e, e.Admin, "Bulk", a.ID, b.ID)
	path := "/v1/orgs/" + e.Org + "/teams/" + id + "/members"

	t.Run("adds by id and email, sets roles and removes in one request", func(t *testing.T) {
		e.Put(e.Admin, path, map[string]any{
			"add":         []string{c.ID, strings.ToUpper(d.Email)},
			"memberships": map[string]any{c.ID: map[string]any{"role": "owner"}, a.ID: map[string]any{"role": "owner"}},
			"remove":      []string{b.Email},
		}).Expect(204)
		want := map[string]string{e.Admin.ID: "owner", a.ID: "owner", c.ID: "owner", d.ID: "member"}
		if got := teamRoles(t, e, e.Admin, id); !sameRoles(got, want) {
			t.Errorf("members = %v, want %v", got, want)
		}
	})
	t.Run("a team owner may update; adding a current member keeps their role", func(t *testing.T) {
		e.Put(a, path, map[string]any{"add": []string{c.ID, b.ID}}).Expect(204)
		want := map[string]string{e.Admin.ID: "owner", a.ID: "owner", b.ID: "member", c.ID: "owner", d.ID: "member"}
		if got := teamRoles(t, e, e.Admin, id); !sameRoles(got, want) {
			t.Errorf("members = %v, want %v", got, want)
		}
		e.Put(d, path, map[string]any{"remove": []string{b.ID}}).Expect(403)
		e.Put(guest, path, map[string]any{}).Expect(403)
		e.Put(outsider, path, map[string]any{}).Expect(404)
		e.Put(e.Admin, "/v1/orgs/"+e.Org+"/teams/nope/members", map[string]any{}).Expect(404)
	})
	t.Run("removing users who are not on the team is no error", func(t *testing.T) {
		e.Put(e.Admin, path, map[string]any{"remove": []string{"nobody", "nobody@example.test", outsider.ID}}).Expect(204)
	})
	tooManyRoles := map[string]any{}
	for i := 0; i <= 1000; i++ {
		tooManyRoles["user"+strconv.Itoa(i)] = map[string]any{"role": "member"}
	}
	stable := map[string]string{e.Admin.ID: "owner", a.ID: "owner", b.ID: "member", c.ID: "owner", d.ID: "member"}
	invalid := []struct {
		name      string
		body      any
		fragments []string
	}{
		{"unknown email", map[string]any{"add": []string{"ghost@example.test"}}, []string{"add[0]", "ghost@example.test"}},
		{"outsider", map[string]any{"remove": []string{b.ID}, "add": []string{outsider.ID}}, []string{"add[0]", outsider.ID}},
		{"guest", map[string]any{"add": []string{d.ID, guest.ID}}, []string{"add[1]", guest.ID, "guest"}},
		{"role for a user not on the team", map[string]any{"memberships": map[string]any{guest.ID: map[string]any{"role": "member"}}}, []string{"memberships." + guest.ID, "not on team"}},
		{"bad role", map[string]any{"memberships": map[string]any{a.ID: map[string]any{"role": "admin"}}}, []string{"memberships." + a.ID + ".role", "owner, member"}},
		{"missing role", map[string]any{"memberships": map[string]any{a.ID: map[string]any{}}}, []string{"memberships." + a.ID + ".role", "required"}},
		{"added and removed", map[string]any{"add": []string{b.ID}, "remove": []string{b.Email}}, []string{"remove[0]", b.Email}},
		{"role given and removed", map[string]any{"memberships": map[string]any{b.ID: map[string]any{"role": "owner"}}, "remove": []string{a.ID, b.ID}}, []string{"remove[1]", b.ID}},
		{"unknown field", map[string]any{"members": []string{}}, []string{"members"}},
		{"more than 1000 to add", map[string]any{"add": make([]string, 1001)}, []string{"add", "1000"}},
		{"more than 1000 to remove", map[string]any{"remove": make([]string, 1001)}, []string{"remove", "1000"}},
		{"more than 1000 roles", map[string]any{"memberships": tooManyRoles}, []string{"memberships", "1000"}},
	}
	for _, tc := range invalid {
		t.Run("400 for "+tc.name+", with nothing written", func(t *testing.T) {
			e.Put(e.Admin, path, tc.body).Expect(400).ExpectMessage(tc.fragments...)
			if got := teamRoles(t, e, e.Admin, id); !sameRoles(got, stable) {
				t.Errorf("members = %v, want %v", got, stable)
			}
		})
	}
	t.Run("1000 entries are accepted", func(t *testing.T) {
		remove := make([]string, 1000)
		for i := range remove {
			remove[i] = "nobody"
		}
		remove[999] = d.ID
		e.Put(e.Admin, path, map[string]any{"remove": remove}).Expect(204)
		if _, still := teamRoles(t, e, e.Admin, id)[d.ID]; still {
			t.Error("d should have been removed")
		}
	})
}

func TestMemberTeams(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	ann := e.Member("ann", auth.Edit)
	viewer := e.Member("viewer", auth.Read)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")
	alpha := mustCreateTeam(t, e, e.Admin, "Alpha squad", ann.ID)
	beta := mustCreateTeam(t, e, e.Admin, "Beta", ann.ID)
	mustCreateTeam(t, e, e.Admin, "Gamma squad")
	delta := mustCreateTeam(t, e, e.Admin, "Delta SQUAD")
	e.Put(e.Admin, "/v1/orgs/"+e.Org+"/teams/"+beta+"/members/"+ann.ID, map[string]any{"role": "owner"}).Expect(204)
	e.Put(e.Admin, "/v1/orgs/"+e.Org+"/teams/"+delta+"/members/"+ann.ID, nil).Expect(204)
	path := "/v1/orgs/" + e.Org + "/members/" + ann.ID + "/teams"

	items := e.WalkList(viewer, path, 1)
	if len(items) != 3 {
		t.Fatalf("ann is on %d teams, want 3: %v", len(items), items)
	}
	wantRole := map[string]string{alpha: "member", beta: "owner", delta: "member"}
	for _, it := range items {
		id, _ := apitest.Lookup(it, "team.id")
		role, _ := apitest.Lookup(it, "member.role")
		obj, _ := apitest.Lookup(it, "team.object")
		count, _ := apitest.Lookup(it, "team.members")
		admin, _ := apitest.Lookup(it, "team.permissions.admin")
		if obj != "team" || role != wantRole[id.(string)] || count != 2.0 || admin != false {
			t.Errorf("item wrong for viewer: %v", it)
		}
	}
	t.Run("team permissions are the caller's", func(t *testing.T) {
		for _, it := range e.WalkList(ann, path, 10) {
			id, _ := apitest.Lookup(it, "team.id")
			admin, _ := apitest.Lookup(it, "team.permissions.admin")
			if admin != (id == beta) {
				t.Errorf("ann's permissions.admin on %v = %v", id, admin)
			}
		}
	})
	t.Run("title filter", func(t *testing.T) {
		r := e.Get(viewer, path+"?title=SQUAD").Expect(200)
		if r.Num("count") != 2 {
			t.Errorf("count = %v, want 2: %s", r.Num("count"), r.Body)
		}
		e.Get(viewer, path+"?title="+strings.Repeat("s", 65)).Expect(400).ExpectMessage("title")
		cursor := e.Get(viewer, path+"?limit=1").Expect(200).Str("next.page")
		e.Get(viewer, path+"?title=squad&page="+url.QueryEscape(cursor)).Expect(400)
	})
	t.Run("who may ask", func(t *testing.T) {
		e.Get(guest, path).Expect(403)
		if n := e.Get(guest, "/v1/orgs/"+e.Org+"/members/"+guest.ID+"/teams").Expect(200).Num("count"); n != 0 {
			t.Errorf("guest's own team count = %v", n)
		}
		e.Get(outsider, path).Expect(404)
		e.Get(viewer, "/v1/orgs/"+e.Org+"/members/"+outsider.ID+"/teams").Expect(404)
		e.Get(viewer, "/v1/orgs/"+e.Org+"/members/nobody/teams").Expect(404)
	})
	t.Run("a team owner made a guest neither sees nor manages the team", func(t *testing.T) {
		demoted := e.Member("demoted", auth.Edit)
		e.Put(e.Admin, "/v1/orgs/"+e.Org+"/teams/"+alpha+"/members/"+demoted.ID, map[string]any{"role": "owner"}).Expect(204)
		mine := "/v1/orgs/" + e.Org + "/members/" + demoted.ID + "/teams"
		if it := e.Get(demoted, mine).Expect(200).Items()[0]; it["team"].(map[string]any)["permissions"].(map[string]any)["admin"] != true {
			t.Errorf("owner should manage the team: %v", it)
		}
		e.AddMember(e.Org, demoted, auth.Guest)
		r := e.Get(demoted, mine).Expect(200)
		if r.Bool("items.0.team.permissions.admin") || r.Bool("items.0.team.permissions.view") || r.Str("items.0.member.role") != "owner" {
			t.Errorf("demoted owner sees %s", r.Body)
		}
		e.Put(demoted, "/v1/orgs/"+e.Org+"/teams/"+alpha+"/members/"+ann.ID, nil).Expect(403)
	})
}
