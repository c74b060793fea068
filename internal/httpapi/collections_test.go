package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestCollectionCRUD(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	r := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/collections", map[string]any{"title": " Guides "}).Expect(201)
	id := r.Str("id")
	path := "/v1/collections/" + id
	if r.Header.Get("Location") != e.URL+path || r.Str("urls.location") != e.URL+path {
		t.Errorf("Location wrong: %v %s", r.Header, r.Body)
	}
	got := e.Get(e.Admin, path).Expect(200)
	for _, res := range []*apitest.Resp{r, got} {
		want := map[string]any{"object": "collection", "title": "Guides", "organization": e.Org, "defaultLevel": "inherit",
			"permissions.view": true, "permissions.admin": true, "permissions.create": true, "permissions.viewInviteLinks": true}
		for k, v := range want {
			if x, _ := res.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
		if res.Has("parent") || res.Has("description") || !strings.HasPrefix(res.Str("urls.app"), e.URL) {
			t.Errorf("collection wrong: %s", res.Body)
		}
	}
	sub := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/collections", map[string]any{"parent": id}).Expect(201)
	if sub.Str("parent") != id || sub.Str("title") != "" {
		t.Errorf("sub-collection wrong: %s", sub.Body)
	}

	t.Run("patch", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"title": "Manuals", "description": "How to", "defaultLevel": "edit"}).Expect(200)
		for _, res := range []*apitest.Resp{r, e.Get(e.Admin, path).Expect(200)} {
			if res.Str("title") != "Manuals" || res.Str("description") != "How to" || res.Str("defaultLevel") != "edit" {
				t.Errorf("patched collection wrong: %s", res.Body)
			}
		}
		r = e.Patch(e.Admin, path, map[string]any{"description": nil, "defaultLevel": nil}).Expect(200)
		if v, ok := r.Get("defaultLevel"); r.Has("description") || !ok || v != nil || r.Str("title") != "Manuals" {
			t.Errorf("null did not clear: %s", r.Body)
		}
		e.Patch(e.Admin, path, map[string]any{"title": strings.Repeat("t", 50), "description": strings.Repeat("d", 100)}).Expect(200)
		cases := []struct {
			body any
			msg  []string
		}{
			{map[string]any{"title": strings.Repeat("t", 51)}, []string{"title", "50"}},
			{map[string]any{"description": strings.Repeat("d", 101)}, []string{"description", "100"}},
			{map[string]any{"defaultLevel": "owner"}, []string{"defaultLevel"}},
			{map[string]any{"parent": "x"}, []string{"parent", "unknown"}},
		}
		for _, c := range cases {
			e.Patch(e.Admin, path, c.body).Expect(400).ExpectMessage(c.msg...)
		}
		if e.Get(e.Admin, path).Expect(200).Str("title") != strings.Repeat("t", 50) {
			t.Error("refused patches changed the collection")
		}
		// No default level: members without a grant do not see it.
		reader := e.Member("reader", auth.Read)
		e.Patch(reader, path, map[string]any{"title": "x"}).Expect(404)
		e.Patch(e.Admin, path, map[string]any{"defaultLevel": "inherit"}).Expect(200)
		e.Patch(reader, path, map[string]any{"title": "x"}).Expect(403)
		e.Patch(e.NewUser("outsider"), path, map[string]any{"title": "x"}).Expect(404)
	})
	t.Run("create errors", func(t *testing.T) {
		e.Post(e.Admin, "/v1/orgs/"+e.Org+"/collections", map[string]any{"title": strings.Repeat("t", 51)}).Expect(400).ExpectMessage("title", "50")
		e.Post(e.Admin, "/v1/orgs/"+e.Org+"/collections", map[string]any{"parent": "nope"}).Expect(400).ExpectMessage("parent")
		e.Post(e.Member("editor", auth.Edit), "/v1/orgs/"+e.Org+"/collections", nil).Expect(403)
		e.Post(e.NewUser("outsider"), "/v1/orgs/"+e.Org+"/collections", nil).Expect(404)
		creator := e.Member("creator", auth.Create)
		if !e.Post(creator, "/v1/orgs/"+e.Org+"/collections", nil).Expect(201).Bool("permissions.admin") {
			t.Error("the creator administers their collection")
		}
	})
	t.Run("delete refuses a collection that still holds content", func(t *testing.T) {
		full := newCollection(t, e, e.Admin, e.Org, nil)
		sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": full})
		e.Delete(e.Admin, "/v1/collections/"+full).Expect(409)
		inner := newCollection(t, e, e.Admin, e.Org, map[string]any{"parent": full})
		e.Post(e.Admin, "/v1/spaces/"+sp+"/move", map[string]any{"parent": inner}).Expect(200)
		e.Delete(e.Admin, "/v1/collections/"+full).Expect(409).ExpectMessage("1")
		// A space in the trash does not hold a collection back; restored, it is at the top level.
		e.Delete(e.Admin, "/v1/spaces/"+sp).Expect(204)
		e.Delete(e.Admin, "/v1/collections/"+inner).Expect(204)
		e.Delete(e.Admin, "/v1/collections/"+full).Expect(204)
		e.Get(e.Admin, "/v1/collections/"+full).Expect(404)
		r := e.Post(e.Admin, "/v1/spaces/"+sp+"/restore", nil).Expect(200)
		if r.Has("parent") || r.Str("visibility") != "private" {
			t.Errorf("restored space of a deleted collection: %s", r.Body)
		}
		e.Delete(e.Admin, "/v1/collections/"+full).Expect(204)
		e.Delete(e.Admin, "/v1/collections/nope").Expect(204)
	})
	t.Run("who may delete", func(t *testing.T) {
		c := newCollection(t, e, e.Admin, e.Org, nil)
		e.Delete(e.Member("reader", auth.Read), "/v1/collections/"+c).Expect(403)
		e.Delete(e.NewUser("outsider"), "/v1/collections/"+c).Expect(204)
		e.Get(e.Admin, "/v1/collections/"+c).Expect(200)
		e.Delete(apitest.Anonymous, "/v1/collections/"+c).Expect(401)
	})
}

func TestCollectionLists(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	a := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "A"})
	b := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "B"})
	a1 := newCollection(t, e, e.Admin, e.Org, map[string]any{"parent": a})
	a2 := newCollection(t, e, e.Admin, e.Org, map[string]any{"parent": a})
	a1x := newCollection(t, e, e.Admin, e.Org, map[string]any{"parent": a1})
	expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections").Expect(200).IDs(), a, a1, a1x, a2, b)
	expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections?nested=true").Expect(200).IDs(), a, a1, a1x, a2, b)
	expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections?nested=false").Expect(200).IDs(), a, b)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections?nested=maybe").Expect(400).ExpectMessage("nested")
	var walked []string
	for _, it := range e.WalkList(e.Admin, "/v1/orgs/"+e.Org+"/collections", 2) {
		walked = append(walked, it["id"].(string))
	}
	expectIDs(t, walked, a, a1, a1x, a2, b)
	first := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections?limit=2").Expect(200)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections?nested=false&page="+first.Str("next.page")).Expect(400)

	s1 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a})
	s2 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a})
	newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a1})
	r := e.Get(e.Admin, "/v1/collections/"+a+"/spaces").Expect(200)
	expectIDs(t, r.IDs(), s1, s2)
	if r.Num("count") != 2 {
		t.Errorf("count = %v", r.Num("count"))
	}
	e.Get(e.Admin, "/v1/collections/nope/spaces").Expect(404)
	e.Get(e.NewUser("outsider"), "/v1/collections/"+a+"/spaces").Expect(404)
	e.Get(e.NewUser("outsider"), "/v1/orgs/"+e.Org+"/collections").Expect(404)

	t.Run("guests see what they were granted", func(t *testing.T) {
		guest := e.Member("guest", auth.Guest)
		if n := e.Get(guest, "/v1/orgs/"+e.Org+"/collections").Expect(200).Num("count"); n != 0 {
			t.Errorf("a guest sees %v collections", n)
		}
		grant(t, e, e.Admin, "/v1/collections/"+a1, "read", []string{guest.ID}, nil)
		expectIDs(t, e.Get(guest, "/v1/orgs/"+e.Org+"/collections").Expect(200).IDs(), a1, a1x)
		expectIDs(t, e.Get(guest, "/v1/orgs/"+e.Org+"/collections?nested=false").Expect(200).IDs())
	})
}

func TestCollectionMoveAndTransfer(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	a := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "A"})
	b := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "B"})
	a1 := newCollection(t, e, e.Admin, e.Org, map[string]any{"parent": a})
	top := newSpace(t, e, e.Admin, e.Org, nil)
	move := func(id string, body any) *apitest.Resp {
		t.Helper()
		return e.Post(e.Admin, "/v1/collections/"+id+"/move", body)
	}
	nested := func() []string { return e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections").Expect(200).IDs() }

	move(b, map[string]any{"position": map[string]any{"before": ptr("collection", a)}}).Expect(200)
	expectIDs(t, nested(), b, a, a1)
	r := move(a, map[string]any{"parent": b}).Expect(200)
	if r.Str("parent") != b {
		t.Errorf("moved collection wrong: %s", r.Body)
	}
	expectIDs(t, nested(), b, a, a1)
	expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections?nested=false").Expect(200).IDs(), b)
	if move(a, map[string]any{"parent": nil, "position": map[string]any{"after": ptr("space", top)}}).Expect(200).Has("parent") {
		t.Error("parent null moves to the top level")
	}
	expectIDs(t, nested(), b, a, a1)

	t.Run("never inside itself or its descendants", func(t *testing.T) {
		move(a, map[string]any{"parent": a}).Expect(400).ExpectMessage("parent", "itself")
		move(a, map[string]any{"parent": a1}).Expect(400).ExpectMessage("parent")
		move(a, map[string]any{"parent": "nope"}).Expect(400)
		move(a, map[string]any{"position": map[string]any{"after": ptr("collection", a1)}}).Expect(400).ExpectMessage("position.after")
		move(a, map[string]any{}).Expect(400)
		move(a, map[string]any{"parent": nil}).Expect(409)
		move("nope", map[string]any{"parent": nil}).Expect(404)
		e.Post(e.NewUser("outsider"), "/v1/collections/"+a+"/move", map[string]any{"parent": nil}).Expect(404)
		e.Post(e.Member("reader", auth.Read), "/v1/collections/"+a+"/move", map[string]any{"parent": b}).Expect(403)
	})
	t.Run("transfer takes everything inside", func(t *testing.T) {
		target := e.NewOrg(e.Admin, "Target")
		inA := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a})
		inA1 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a1})
		trashed := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a1})
		e.Delete(e.Admin, "/v1/spaces/"+trashed).Expect(204)
		member := e.Member("member", auth.Guest)
		grant(t, e, e.Admin, "/v1/collections/"+a1, "read", []string{member.ID}, nil)

		e.Post(e.Admin, "/v1/collections/"+a+"/transfer", map[string]any{"organization": e.Org}).Expect(409)
		r := e.Post(e.Admin, "/v1/collections/"+a+"/transfer", map[string]any{"organization": target}).Expect(200)
		if r.Str("organization") != target || r.Has("parent") {
			t.Errorf("transferred collection wrong: %s", r.Body)
		}
		expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+target+"/collections").Expect(200).IDs(), a, a1)
		// Tree order: a1 (created first) and its space come before a's own space.
		expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+target+"/spaces").Expect(200).IDs(), inA1, inA)
		expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+e.Org+"/collections").Expect(200).IDs(), b)
		if e.Get(e.Admin, "/v1/spaces/"+inA1).Expect(200).Str("organization") != target {
			t.Error("spaces inside follow their collection")
		}
		if e.Post(e.Admin, "/v1/spaces/"+trashed+"/restore", nil).Expect(200).Str("organization") != target {
			t.Error("spaces in the trash follow their collection too")
		}
		e.Get(member, "/v1/collections/"+a1).Expect(404)

		locked := newCollection(t, e, e.Admin, e.Org, nil)
		newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": locked, "editMode": "locked"})
		e.Post(e.Admin, "/v1/collections/"+locked+"/transfer", map[string]any{"organization": target}).Expect(412)
		e.Post(e.Admin, "/v1/collections/"+b+"/transfer", map[string]any{"organization": target, "parent": a1}).Expect(200)
		expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+target+"/collections").Expect(200).IDs(), a, a1, b)
		e.Post(e.Admin, "/v1/collections/nope/transfer", map[string]any{"organization": target}).Expect(404)
		e.Post(e.Admin, "/v1/collections/"+locked+"/transfer", map[string]any{}).Expect(400)
		e.Post(e.Admin, "/v1/collections/"+locked+"/transfer", map[string]any{"organization": e.NewOrg(e.NewUser("x"), "Not mine")}).Expect(404)
	})
}
