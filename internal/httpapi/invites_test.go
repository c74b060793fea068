package httpapi_test

import (
	"regexp"
	"sync"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

var secretID = regexp.MustCompile(`^[0-9A-Za-z]{40}$`)

func invitesPath(orgID string) string { return "/v1/orgs/" + orgID + "/link-invites" }

// newInvite creates an invite link as actor and returns its id.
func newInvite(e *apitest.Env, actor apitest.Actor, orgID string, role any) string {
	e.T.Helper()
	return e.Post(actor, invitesPath(orgID), map[string]any{"role": role}).Expect(201).Str("id")
}

func TestInviteLinkLifecycle(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	base := invitesPath(e.Org)

	r := e.Post(e.Admin, base, map[string]any{"role": "edit"}).Expect(201)
	id := r.Str("id")
	if r.Str("object") != "invite" || r.Str("role") != "edit" || !r.Bool("redundant") {
		t.Fatalf("created invite: %s", r.Body)
	}
	if !secretID.MatchString(id) {
		t.Errorf("invite id %q is not a 40-character random secret", id)
	}
	if loc := r.Header.Get("Location"); loc != e.URL+base+"/"+id {
		t.Errorf("Location = %q", loc)
	}
	if other := newInvite(e, e.Admin, e.Org, "edit"); other == id {
		t.Error("two invites got the same id")
	}

	got := e.Get(e.Admin, base+"/"+id).Expect(200)
	if got.Str("id") != id || got.Str("role") != "edit" || !got.Bool("redundant") {
		t.Errorf("GET invite: %s", got.Body)
	}

	t.Run("patch changes the role", func(t *testing.T) {
		r := e.Patch(e.Admin, base+"/"+id, map[string]any{"role": "read"}).Expect(200)
		if r.Str("role") != "read" || r.Str("id") != id {
			t.Errorf("patched: %s", r.Body)
		}
		if e.Get(e.Admin, base+"/"+id).Expect(200).Str("role") != "read" {
			t.Error("the new role was not kept")
		}
		r = e.Patch(e.Admin, base+"/"+id, map[string]any{"role": nil}).Expect(200)
		if v, ok := r.Get("role"); !ok || v != nil {
			t.Errorf("role after null = %v, want null (guest)", v)
		}
		if v, _ := e.Get(e.Admin, base+"/"+id).Expect(200).Get("role"); v != nil {
			t.Errorf("stored role = %v, want null", v)
		}
	})
	t.Run("guest invite", func(t *testing.T) {
		r := e.Post(e.Admin, base, map[string]any{"role": nil}).Expect(201)
		if v, ok := r.Get("role"); !ok || v != nil {
			t.Errorf("role = %v, want null", v)
		}
	})
	t.Run("delete, then 404, and deleting again is 204", func(t *testing.T) {
		victim := newInvite(e, e.Admin, e.Org, "comment")
		e.Delete(e.Admin, base+"/"+victim).Expect(204)
		e.Get(e.Admin, base+"/"+victim).Expect(404)
		e.Delete(e.Admin, base+"/"+victim).Expect(204)
		e.Delete(e.Admin, base+"/never-existed").Expect(204)
		for _, it := range e.WalkList(e.Admin, base, 100) {
			if it["id"] == victim {
				t.Error("a deleted invite is still listed")
			}
		}
	})
	t.Run("patch of an absent invite is 404", func(t *testing.T) {
		e.Patch(e.Admin, base+"/nope", map[string]any{"role": "read"}).Expect(404)
	})
}

func TestInviteLinkList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	want := map[string]bool{}
	var created []string
	for i := 0; i < 7; i++ {
		e.Clock.Advance(time.Millisecond)
		id := newInvite(e, e.Admin, e.Org, "read")
		want[id] = true
		created = append(created, id)
	}
	items := e.WalkList(e.Admin, invitesPath(e.Org), 3)
	if len(items) != len(want) {
		t.Fatalf("walked %d invites, want %d", len(items), len(want))
	}
	var order []string
	for _, it := range items {
		id := it["id"].(string)
		if !want[id] || it["object"] != "invite" || it["role"] != "read" || it["redundant"] != true {
			t.Fatalf("unexpected item %v", it)
		}
		delete(want, id)
		order = append(order, id)
	}
	if n := e.Get(e.Admin, invitesPath(e.Org)+"?limit=2").Expect(200).Num("count"); n != 7 {
		t.Errorf("count = %v, want 7", n)
	}
	// Another organization's invites are not listed.
	other := e.NewOrg(e.Admin, "Other")
	newInvite(e, e.Admin, other, "read")
	if n := len(e.WalkList(e.Admin, invitesPath(e.Org), 100)); n != 7 {
		t.Errorf("listed %d invites after adding one elsewhere, want 7", n)
	}
	for i := range created {
		if order[i] != created[i] {
			t.Fatalf("listed in order %v, want the order of creation %v", order, created)
		}
	}
}

func TestInviteLinkPermissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	base := invitesPath(e.Org)
	readInvite := newInvite(e, e.Admin, e.Org, "read")
	adminInvite := newInvite(e, e.Admin, e.Org, "admin")
	editor := e.Member("editor", auth.Edit)
	outsider := e.NewUser("outsider")

	t.Run("members who are not admins get 403 for managing", func(t *testing.T) {
		e.Post(editor, base, map[string]any{"role": "read"}).Expect(403)
		e.Get(editor, base).Expect(403)
		e.Patch(editor, base+"/"+readInvite, map[string]any{"role": "admin"}).Expect(403)
		e.Delete(editor, base+"/"+readInvite).Expect(403)
	})
	t.Run("outsiders get 404 for managing", func(t *testing.T) {
		e.Post(outsider, base, map[string]any{"role": "read"}).Expect(404)
		e.Get(outsider, base).Expect(404)
		e.Patch(outsider, base+"/"+readInvite, map[string]any{"role": "admin"}).Expect(404)
		e.Delete(outsider, base+"/"+readInvite).Expect(404)
	})
	t.Run("refused changes left the invites as they were", func(t *testing.T) {
		if e.Get(e.Admin, base+"/"+readInvite).Expect(200).Str("role") != "read" {
			t.Error("a refused patch changed the invite")
		}
		if n := e.Get(e.Admin, base).Expect(200).Num("count"); n != 2 {
			t.Errorf("count = %v, want 2", n)
		}
	})
	t.Run("whoever holds the id may look at it, with redundant computed for them", func(t *testing.T) {
		if !e.Get(editor, base+"/"+readInvite).Expect(200).Bool("redundant") {
			t.Error("an editor already has everything a read invite grants")
		}
		if e.Get(editor, base+"/"+adminInvite).Expect(200).Bool("redundant") {
			t.Error("an admin invite is not redundant for an editor")
		}
		r := e.Get(outsider, base+"/"+readInvite).Expect(200)
		if r.Bool("redundant") || r.Str("role") != "read" {
			t.Errorf("outsider's view: %s", r.Body)
		}
	})
	t.Run("an invite is found only under its own organization", func(t *testing.T) {
		other := e.NewOrg(e.Admin, "Other")
		e.Get(e.Admin, invitesPath(other)+"/"+readInvite).Expect(404)
		e.Post(outsider, "/v1/orgs/"+other+"/invites/"+readInvite, nil).Expect(404)
		e.Get(outsider, base+"/not-an-invite").Expect(404)
	})
}

func TestInviteLinkValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	base := invitesPath(e.Org)
	id := newInvite(e, e.Admin, e.Org, "comment")
	cases := []struct {
		name string
		body any
		msg  []string
	}{
		{"role missing", map[string]any{}, []string{"role", "required"}},
		{"empty body", nil, []string{"role", "required"}},
		{"unknown role", map[string]any{"role": "owner"}, []string{"role", "owner"}},
		{"role not a string", map[string]any{"role": 5}, []string{"role", "string"}},
		{"space invite", map[string]any{"level": "read", "space": "space1"}, []string{"space", "not supported"}},
		{"collection invite", map[string]any{"level": "read", "collection": "c1"}, []string{"collection", "not supported"}},
		{"level without a target", map[string]any{"level": "read"}, []string{"level", "role"}},
		{"unknown field", map[string]any{"role": "read", "expires": 3}, []string{"expires", "unknown"}},
		{"invalid JSON", `{"role": `, []string{"JSON"}},
	}
	for _, c := range cases {
		t.Run("create: "+c.name, func(t *testing.T) {
			e.Post(e.Admin, base, c.body).Expect(400).ExpectMessage(c.msg...)
		})
		t.Run("patch: "+c.name, func(t *testing.T) {
			e.Patch(e.Admin, base+"/"+id, c.body).Expect(400).ExpectMessage(c.msg...)
		})
	}
	if n := e.Get(e.Admin, base).Expect(200).Num("count"); n != 1 {
		t.Errorf("count = %v after refused creations, want 1", n)
	}
	if e.Get(e.Admin, base+"/"+id).Expect(200).Str("role") != "comment" {
		t.Error("a refused patch changed the invite")
	}
}

func TestInviteLinksDisabled(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	base := invitesPath(e.Org)
	id := newInvite(e, e.Admin, e.Org, "edit")
	e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"inviteLinks": false}).Expect(200)

	e.Post(e.Admin, base, map[string]any{"role": "read"}).Expect(403).ExpectMessage("invite links", "disabled")
	joiner := e.NewUser("joiner")
	e.Post(joiner, "/v1/orgs/"+e.Org+"/invites/"+id, nil).Expect(403).ExpectMessage("invite links", "disabled")
	expectNotMember(t, e, e.Org, joiner)

	// Admins still see, change and remove the invites that exist.
	if n := e.Get(e.Admin, base).Expect(200).Num("count"); n != 1 {
		t.Errorf("count = %v, want 1", n)
	}
	e.Patch(e.Admin, base+"/"+id, map[string]any{"role": "comment"}).Expect(200)

	e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"inviteLinks": true}).Expect(200)
	e.Post(joiner, "/v1/orgs/"+e.Org+"/invites/"+id, nil).Expect(200)
	expectRole(t, e, e.Org, joiner, auth.Comment)
}

func TestJoinWithInvite(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	join := func(a apitest.Actor, id string) *apitest.Resp {
		t.Helper()
		return e.Post(a, "/v1/orgs/"+e.Org+"/invites/"+id, nil)
	}
	editInvite := newInvite(e, e.Admin, e.Org, "edit")
	readInvite := newInvite(e, e.Admin, e.Org, "read")
	adminInvite := newInvite(e, e.Admin, e.Org, "admin")
	guestInvite := newInvite(e, e.Admin, e.Org, nil)

	t.Run("an outsider joins with the invite's role", func(t *testing.T) {
		joiner := e.NewUser("joiner")
		e.Get(joiner, "/v1/orgs/"+e.Org).Expect(404)
		r := join(joiner, editInvite).Expect(200)
		if string(r.Body) != "{}\n" {
			t.Errorf("body = %q, want {}", r.Body)
		}
		expectRole(t, e, e.Org, joiner, auth.Edit)
		o := e.Get(joiner, "/v1/orgs/"+e.Org).Expect(200)
		if o.Bool("permissions.admin") || !o.Bool("permissions.listMembers") {
			t.Errorf("joiner's permissions: %s", o.Body)
		}
		if !e.Get(joiner, invitesPath(e.Org)+"/"+editInvite).Expect(200).Bool("redundant") {
			t.Error("after joining, the invite is redundant for the joiner")
		}
		join(joiner, editInvite).Expect(200)
		expectRole(t, e, e.Org, joiner, auth.Edit)
	})
	t.Run("a member keeps the stronger role", func(t *testing.T) {
		creator := e.Member("creator", auth.Create)
		join(creator, readInvite).Expect(200)
		expectRole(t, e, e.Org, creator, auth.Create)

		reader := e.Member("reader", auth.Read)
		join(reader, adminInvite).Expect(200)
		expectRole(t, e, e.Org, reader, auth.Admin)

		guest := e.Member("guest", auth.Guest)
		join(guest, guestInvite).Expect(200)
		expectRole(t, e, e.Org, guest, auth.Guest)
		join(guest, readInvite).Expect(200)
		expectRole(t, e, e.Org, guest, auth.Read)
		join(guest, guestInvite).Expect(200)
		expectRole(t, e, e.Org, guest, auth.Read)
	})
	t.Run("a guest invite makes a guest", func(t *testing.T) {
		g := e.NewUser("new guest")
		join(g, guestInvite).Expect(200)
		expectRole(t, e, e.Org, g, auth.Guest)
	})
	t.Run("absent or deleted invites are 404", func(t *testing.T) {
		x := e.NewUser("x")
		join(x, "doesnotexist").Expect(404)
		gone := newInvite(e, e.Admin, e.Org, "admin")
		e.Delete(e.Admin, invitesPath(e.Org)+"/"+gone).Expect(204)
		join(x, gone).Expect(404)
		e.Post(x, "/v1/orgs/nosuchorg/invites/"+editInvite, nil).Expect(404)
		expectNotMember(t, e, e.Org, x)
	})
	t.Run("a disabled member cannot re-enable themselves", func(t *testing.T) {
		d := e.Member("disabled", auth.Read)
		disableMember(t, e, e.Org, d)
		join(d, adminInvite).Expect(403).ExpectMessage("disabled")
		if r, member := roleOf(t, e, e.Org, d); member || r != auth.Read {
			t.Errorf("disabled member: role %q member %v, want read and still disabled", r, member)
		}
	})
	t.Run("no token is 401", func(t *testing.T) {
		join(apitest.Anonymous, editInvite).Expect(401)
	})
	t.Run("concurrent joins end with the strongest role", func(t *testing.T) {
		u := e.NewUser("racer")
		var wg sync.WaitGroup
		statuses := make([]int, 12)
		for i := range statuses {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				id := []string{readInvite, editInvite, adminInvite, guestInvite}[i%4]
				statuses[i] = e.Post(u, "/v1/orgs/"+e.Org+"/invites/"+id, nil).Status
			}(i)
		}
		wg.Wait()
		for i, s := range statuses {
			if s != 200 {
				t.Errorf("join %d: status %d", i, s)
			}
		}
		expectRole(t, e, e.Org, u, auth.Admin)
	})
}
