package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/store"
)

// permissionOf returns the permission listed for user id in a list of user permissions.
func permissionOf(items []map[string]any, id string) string {
	for _, it := range items {
		if it["user"].(map[string]any)["id"] == id {
			return it["permission"].(string)
		}
	}
	return ""
}

func TestSpacePermissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	path := "/v1/spaces/" + id
	alice, bob := e.Member("alice", auth.Read), e.Member("bob", auth.Guest)
	carol := e.Member("carol", auth.Read)
	team := newTeam(t, e, e.Org, "Writers", carol)

	e.Get(alice, path).Expect(404) // private: nothing by default
	e.Post(e.Admin, path+"/permissions", map[string]any{"role": "edit", "users": []string{alice.ID, bob.ID}, "teams": []string{team}}).Expect(204)
	if !e.Get(alice, path).Expect(200).Bool("permissions.edit") || !e.Get(bob, path).Expect(200).Bool("permissions.edit") {
		t.Error("invited users edit the space")
	}
	if r := e.Get(carol, path).Expect(200); !r.Bool("permissions.edit") || r.Bool("permissions.admin") {
		t.Errorf("team members get the team's role: %s", r.Body)
	}

	users := e.Get(e.Admin, path+"/permissions/users").Expect(200)
	if users.Num("count") != 2 || permissionOf(users.Items(), alice.ID) != "edit" || permissionOf(users.Items(), bob.ID) != "edit" {
		t.Errorf("user permissions wrong: %s", users.Body)
	}
	if users.Items()[0]["user"].(map[string]any)["object"] != "user" {
		t.Errorf("items carry user objects: %s", users.Body)
	}
	teams := e.Get(e.Admin, path+"/permissions/teams").Expect(200)
	want := map[string]any{"count": 1.0, "items.0.permission": "edit", "items.0.team.id": team, "items.0.team.object": "team",
		"items.0.team.title": "Writers", "items.0.team.members": 2.0, "items.0.team.spaces": 1.0,
		"items.0.team.permissions.admin": true, "items.0.team.permissions.view": true}
	for k, v := range want {
		if x, _ := teams.Get(k); x != v {
			t.Errorf("teams %s = %v, want %v", k, x, v)
		}
	}

	e.Patch(e.Admin, path+"/permissions/users/"+alice.ID, map[string]any{"role": "admin"}).Expect(204)
	e.Patch(e.Admin, path+"/permissions/teams/"+team, map[string]any{"role": "comment"}).Expect(204)
	if !e.Get(alice, path).Expect(200).Bool("permissions.admin") || e.Get(carol, path).Expect(200).Bool("permissions.edit") {
		t.Error("patched roles not applied")
	}
	// Alice, an admin of the space now, manages its permissions.
	e.Patch(alice, path+"/permissions/users/"+bob.ID, map[string]any{"role": nil}).Expect(204)
	e.Get(bob, path).Expect(404)
	e.Delete(alice, path+"/permissions/teams/"+team).Expect(204)
	e.Delete(alice, path+"/permissions/teams/"+team).Expect(204)
	e.Get(carol, path).Expect(404)
	e.Delete(e.Admin, path+"/permissions/users/"+alice.ID).Expect(204)
	e.Get(alice, path).Expect(404)
	if n := e.Get(e.Admin, path+"/permissions/users").Expect(200).Num("count"); n != 0 {
		t.Errorf("grants remain: %v", n)
	}

	t.Run("invite with null removes", func(t *testing.T) {
		grant(t, e, e.Admin, path, "read", []string{alice.ID}, nil)
		e.Get(alice, path).Expect(200)
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": nil, "users": []string{alice.ID}}).Expect(204)
		e.Get(alice, path).Expect(404)
	})
	t.Run("validation", func(t *testing.T) {
		other := e.NewOrg(e.Admin, "Other org")
		stranger := e.NewUser("stranger")
		foreignTeam := newTeam(t, e, other, "Foreign")
		many := make([]string, 101)
		for i := range many {
			many[i] = alice.ID
		}
		e.Post(e.Admin, path+"/permissions", map[string]any{"users": []string{alice.ID}}).Expect(400).ExpectMessage("role")
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "owner", "users": []string{alice.ID}}).Expect(400).ExpectMessage("role", "owner")
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read"}).Expect(400).ExpectMessage("users", "teams")
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read", "users": []string{}}).Expect(400)
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read", "users": many}).Expect(400).ExpectMessage("100")
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read", "users": many[:100]}).Expect(204)
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read", "users": []string{stranger.ID}}).Expect(404).ExpectMessage(stranger.ID)
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read", "teams": []string{foreignTeam}}).Expect(404).ExpectMessage(foreignTeam)
		e.Post(e.Admin, path+"/permissions", map[string]any{"role": "read", "users": []string{carol.ID}, "teams": []string{"nope"}}).Expect(404)
		e.Get(carol, path).Expect(404) // nothing of a refused invite was written
		e.Patch(e.Admin, path+"/permissions/users/"+stranger.ID, map[string]any{"role": "read"}).Expect(404)
		e.Patch(e.Admin, path+"/permissions/teams/nope", map[string]any{"role": "read"}).Expect(404)
		e.Patch(e.Admin, path+"/permissions/users/"+alice.ID, map[string]any{}).Expect(400).ExpectMessage("role")
	})
	t.Run("who may", func(t *testing.T) {
		editor := e.Member("editor", auth.Read)
		grant(t, e, e.Admin, path, "edit", []string{editor.ID}, nil)
		e.Post(editor, path+"/permissions", map[string]any{"role": "admin", "users": []string{editor.ID}}).Expect(403)
		e.Patch(editor, path+"/permissions/users/"+editor.ID, map[string]any{"role": "admin"}).Expect(403)
		e.Delete(editor, path+"/permissions/users/"+alice.ID).Expect(403)
		e.Get(editor, path+"/permissions/users").Expect(200)
		outsider := e.NewUser("outsider")
		e.Post(outsider, path+"/permissions", map[string]any{"role": "admin", "users": []string{outsider.ID}}).Expect(404)
		e.Get(outsider, path+"/permissions/users").Expect(404)
		e.Get(outsider, path+"/permissions/aggregate").Expect(404)
		e.Get(e.Admin, "/v1/spaces/nope/permissions/users").Expect(404)
		guest := e.Member("guest", auth.Guest)
		grant(t, e, e.Admin, path, "read", []string{guest.ID}, nil)
		e.Get(guest, path).Expect(200)
		e.Get(guest, path+"/permissions/users").Expect(403)
		e.Get(guest, path+"/permissions/teams").Expect(403)
		e.Get(guest, path+"/permissions/aggregate").Expect(403)
	})
}

func TestAggregatePermissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	e.Patch(e.Admin, "/v1/collections/"+col, map[string]any{"defaultLevel": nil}).Expect(200)
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col, "visibility": "unlisted"})
	path := "/v1/spaces/" + id
	direct := e.Member("direct", auth.Read)
	viaTeam := e.Member("via-team", auth.Read)
	viaCollection := e.Member("via-collection", auth.Guest)
	e.Member("nothing", auth.Read)
	team := newTeam(t, e, e.Org, "Team", viaTeam)
	grant(t, e, e.Admin, path, "review", []string{direct.ID}, []string{team})
	grant(t, e, e.Admin, "/v1/collections/"+col, "comment", []string{viaCollection.ID}, nil)

	items := e.WalkList(e.Admin, path+"/permissions/aggregate", 2)
	got := map[string]string{}
	for _, it := range items {
		got[it["user"].(map[string]any)["id"].(string)] = it["permission"].(string)
	}
	want := map[string]string{e.Admin.ID: "admin", direct.ID: "review", viaTeam.ID: "review", viaCollection.ID: "comment"}
	if len(got) != len(want) {
		t.Errorf("aggregate = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("aggregate[%s] = %q, want %q", k, got[k], v)
		}
	}
	r := e.Get(e.Admin, path+"/permissions/aggregate?role=review").Expect(200)
	if r.Num("count") != 2 || permissionOf(r.Items(), direct.ID) != "review" {
		t.Errorf("role filter wrong: %s", r.Body)
	}
	e.Get(e.Admin, path+"/permissions/aggregate?role=owner").Expect(400).ExpectMessage("role")
	cr := e.Get(e.Admin, "/v1/collections/"+col+"/permissions/aggregate").Expect(200)
	if cr.Num("count") != 2 || permissionOf(cr.Items(), viaCollection.ID) != "comment" {
		t.Errorf("collection aggregate wrong: %s", cr.Body)
	}
}

// The effective role rule, case by case.
func TestEffectiveRole(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	top := newCollection(t, e, e.Admin, e.Org, nil)
	mid := newCollection(t, e, e.Admin, e.Org, map[string]any{"parent": top})
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": mid, "visibility": "unlisted"})
	path := "/v1/spaces/" + id
	role := func(a apitest.Actor) string {
		t.Helper()
		r := e.Get(a, path)
		if r.Status == 404 {
			return "none"
		}
		r.Expect(200)
		p := func(k string) bool { return r.Bool("permissions." + k) }
		switch {
		case p("admin"):
			return "admin"
		case p("review"):
			return "review"
		case p("edit"):
			return "edit"
		case p("comment"):
			return "comment"
		}
		return "read"
	}
	editor := e.Member("editor", auth.Edit)
	reader := e.Member("reader", auth.Read)
	guest := e.Member("guest", auth.Guest)

	// Inherit all the way up: the organization role.
	if role(editor) != "edit" || role(reader) != "read" || role(guest) != "none" {
		t.Errorf("inherited roles: editor %s, reader %s, guest %s", role(editor), role(reader), role(guest))
	}
	// An explicit level on a collection above, inherited by the space; not capped by the
	// organization role.
	e.Patch(e.Admin, "/v1/collections/"+top, map[string]any{"defaultLevel": "comment"}).Expect(200)
	if role(editor) != "comment" || role(reader) != "comment" || role(guest) != "none" {
		t.Errorf("collection level: editor %s, reader %s", role(editor), role(reader))
	}
	e.Patch(e.Admin, "/v1/collections/"+mid, map[string]any{"defaultLevel": "review"}).Expect(200)
	if role(reader) != "review" {
		t.Errorf("nearest level wins: %s", role(reader))
	}
	e.Patch(e.Admin, path, map[string]any{"defaultLevel": nil}).Expect(200)
	if role(reader) != "none" {
		t.Errorf("no access by default on the space: %s", role(reader))
	}
	// in-collection: whoever can access the parent collection reads the space.
	e.Patch(e.Admin, path, map[string]any{"visibility": "in-collection"}).Expect(200)
	if role(reader) != "read" {
		t.Errorf("in-collection reader: %s", role(reader))
	}
	// Private: defaults give nothing, grants still reach it, also through collections.
	e.Patch(e.Admin, path, map[string]any{"visibility": "private", "defaultLevel": "admin"}).Expect(200)
	if role(reader) != "none" || role(editor) != "none" {
		t.Errorf("private space by default: %s %s", role(reader), role(editor))
	}
	grant(t, e, e.Admin, "/v1/collections/"+top, "edit", []string{guest.ID}, nil)
	grant(t, e, e.Admin, "/v1/collections/"+mid, "read", []string{guest.ID}, nil)
	if role(guest) != "edit" {
		t.Errorf("strongest grant above: %s", role(guest))
	}
	team := newTeam(t, e, e.Org, "Reviewers", reader)
	grant(t, e, e.Admin, "/v1/collections/"+mid, "review", nil, []string{team})
	if role(reader) != "review" {
		t.Errorf("team grant on a collection: %s", role(reader))
	}
	// Organization admins administer everything.
	if role(e.Member("another admin", auth.Admin)) != "admin" {
		t.Error("organization admins are admins")
	}
	// Disabled members reach nothing, whatever their grants.
	err := e.App.DB.Write(context.Background(), time.Now(), func(q *store.Q) error {
		_, err := q.Exec(context.Background(), `UPDATE members SET disabled = TRUE WHERE user_id = ?`, guest.ID)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if role(guest) != "none" {
		t.Errorf("disabled member: %s", role(guest))
	}
	// Locked: content permissions off, whatever the role.
	r := e.Patch(e.Admin, path, map[string]any{"editMode": "locked"}).Expect(200)
	if r.Bool("permissions.edit") || r.Bool("permissions.merge") || !r.Bool("permissions.comment") || !strings.Contains(string(r.Body), `"admin":true`) {
		t.Errorf("locked space permissions: %s", r.Body)
	}
}

// A member who leaves the organization leaves their grants behind: joining again gives back
// only what the organization gives every member.
func TestGrantsEndWithMembership(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	u := e.Member("leaver", auth.Read)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	grant(t, e, e.Admin, "/v1/spaces/"+sp, "admin", []string{u.ID}, nil)
	grant(t, e, e.Admin, "/v1/collections/"+col, "admin", []string{u.ID}, nil)
	e.Get(u, "/v1/spaces/"+sp).Expect(200)
	e.Delete(e.Admin, "/v1/orgs/"+e.Org+"/members/"+u.ID).Expect(204)
	e.Get(u, "/v1/spaces/"+sp).Expect(404)
	e.AddMember(e.Org, u, auth.Read)
	e.Get(u, "/v1/spaces/"+sp).Expect(404)
	if e.Get(u, "/v1/collections/"+col).Expect(200).Bool("permissions.admin") {
		t.Error("the collection grant survived the membership")
	}
	if n := e.Get(e.Admin, "/v1/spaces/"+sp+"/permissions/users").Expect(200).Num("count"); n != 0 {
		t.Errorf("grants listed: %v", n)
	}
}
