package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestSpaceTransfer(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	target := e.NewOrg(e.Admin, "Target")
	targetCol := newCollection(t, e, e.Admin, target, nil)
	existing := newSpace(t, e, e.Admin, target, nil)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col, "title": "Traveller"})
	both := e.Member("both", auth.Read)
	e.AddMember(target, both, auth.Read)
	onlyHere := e.Member("only-here", auth.Read)
	team := newTeam(t, e, e.Org, "Local team", onlyHere)
	grant(t, e, e.Admin, "/v1/spaces/"+id, "edit", []string{both.ID, onlyHere.ID}, []string{team})
	transfer := func(a apitest.Actor, id string, body any) *apitest.Resp {
		t.Helper()
		return e.Post(a, "/v1/spaces/"+id+"/transfer", body)
	}

	r := transfer(e.Admin, id, map[string]any{"organization": target}).Expect(200)
	if r.Str("organization") != target || r.Has("parent") || r.Str("visibility") != "private" || r.Str("title") != "Traveller" {
		t.Errorf("transferred space wrong: %s", r.Body)
	}
	expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+target+"/spaces").Expect(200).IDs(), existing, id)
	if n := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/spaces").Expect(200).Num("count"); n != 0 {
		t.Errorf("the space left its organization: %v spaces remain", n)
	}
	users := e.Get(e.Admin, "/v1/spaces/"+id+"/permissions/users").Expect(200).Items()
	if len(users) != 1 || users[0]["user"].(map[string]any)["id"] != both.ID {
		t.Errorf("only grants to members of the target follow: %v", users)
	}
	if n := e.Get(e.Admin, "/v1/spaces/"+id+"/permissions/teams").Expect(200).Num("count"); n != 0 {
		t.Errorf("team grants stay behind: %v", n)
	}
	e.Get(both, "/v1/spaces/"+id).Expect(200)
	e.Get(onlyHere, "/v1/spaces/"+id).Expect(404)

	t.Run("into a collection of the target", func(t *testing.T) {
		sid := newSpace(t, e, e.Admin, e.Org, nil)
		r := transfer(e.Admin, sid, map[string]any{"organization": target, "parent": targetCol}).Expect(200)
		if r.Str("organization") != target || r.Str("parent") != targetCol {
			t.Errorf("transfer into a collection wrong: %s", r.Body)
		}
		expectIDs(t, e.Get(e.Admin, "/v1/collections/"+targetCol+"/spaces").Expect(200).IDs(), sid)
	})
	t.Run("within the organization it is a move", func(t *testing.T) {
		sid := newSpace(t, e, e.Admin, e.Org, nil)
		r := transfer(e.Admin, sid, map[string]any{"organization": e.Org, "parent": col}).Expect(200)
		if r.Str("parent") != col {
			t.Errorf("not moved into the collection: %s", r.Body)
		}
		transfer(e.Admin, sid, map[string]any{"organization": e.Org, "parent": col}).Expect(409)
		if transfer(e.Admin, sid, map[string]any{"organization": e.Org}).Expect(200).Has("parent") {
			t.Error("transfer to the organization alone goes to its top level")
		}
		transfer(e.Admin, sid, map[string]any{"organization": e.Org}).Expect(409).ExpectMessage("would not result in any update")
	})
	t.Run("a locked space cannot be moved to another organization", func(t *testing.T) {
		sid := newSpace(t, e, e.Admin, e.Org, map[string]any{"editMode": "locked"})
		transfer(e.Admin, sid, map[string]any{"organization": target}).Expect(412).ExpectMessage("locked")
		if e.Get(e.Admin, "/v1/spaces/"+sid).Expect(200).Str("organization") != e.Org {
			t.Error("refused transfer moved the space")
		}
	})
	t.Run("errors", func(t *testing.T) {
		sid := newSpace(t, e, e.Admin, e.Org, nil)
		transfer(e.Admin, "nope", map[string]any{"organization": target}).Expect(404)
		transfer(e.NewUser("outsider"), sid, map[string]any{"organization": target}).Expect(404)
		transfer(e.Admin, sid, map[string]any{}).Expect(400).ExpectMessage("organization")
		transfer(e.Admin, sid, map[string]any{"organization": target, "parent": ""}).Expect(400).ExpectMessage("parent")
		transfer(e.Admin, sid, map[string]any{"organization": target, "parent": col}).Expect(400).ExpectMessage("parent", col)
		transfer(e.Admin, sid, map[string]any{"organization": "nope"}).Expect(404)
		// Admin of the space, but only a reader of the target organization.
		u := e.Member("space-admin", auth.Create)
		mine := newSpace(t, e, u, e.Org, nil)
		e.AddMember(target, u, auth.Read)
		transfer(u, mine, map[string]any{"organization": target}).Expect(403)
		transfer(u, mine, map[string]any{"organization": e.NewOrg(e.Admin, "Not theirs")}).Expect(404)
		// Admin of the target, but only an editor of the space.
		editor := e.Member("editor", auth.Read)
		grant(t, e, e.Admin, "/v1/spaces/"+sid, "edit", []string{editor.ID}, nil)
		transfer(editor, sid, map[string]any{"organization": e.NewOrg(editor, "Editor's")}).Expect(403)
		if e.Get(e.Admin, "/v1/spaces/"+sid).Expect(200).Str("organization") != e.Org {
			t.Error("refused transfers moved the space")
		}
	})
}
