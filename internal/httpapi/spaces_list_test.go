package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestSpaceListInOrganization(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	s1 := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"})
	s2 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col})
	s3 := newSpace(t, e, e.Admin, e.Org, nil) // private
	s4 := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col})
	newSpace(t, e, e.Admin, e.NewOrg(e.Admin, "Elsewhere"), nil)
	list := "/v1/orgs/" + e.Org + "/spaces"

	r := e.Get(e.Admin, list).Expect(200)
	expectIDs(t, r.IDs(), s2, s4, s1, s3) // tree order: col (made first) with its spaces, s1, s3
	if r.Num("count") != 4 || r.Items()[0]["object"] != "space" {
		t.Errorf("list wrong: %s", r.Body)
	}
	var walked []string
	for _, it := range e.WalkList(e.Admin, list, 3) {
		walked = append(walked, it["id"].(string))
	}
	expectIDs(t, walked, s2, s4, s1, s3)

	reader := e.Member("reader", auth.Read)
	rr := e.Get(reader, list).Expect(200)
	expectIDs(t, rr.IDs(), s2, s4, s1)
	if rr.Bool("items.0.permissions.edit") || !rr.Bool("items.0.permissions.view") {
		t.Errorf("permissions are the caller's: %s", rr.Body)
	}
	guest := e.Member("guest", auth.Guest)
	expectIDs(t, e.Get(guest, list).Expect(200).IDs())
	grant(t, e, e.Admin, "/v1/spaces/"+s3, "read", []string{guest.ID}, nil)
	expectIDs(t, e.Get(guest, list).Expect(200).IDs(), s3)
	e.Get(e.NewUser("outsider"), list).Expect(404)
	e.Get(apitest.Anonymous, list).Expect(401)
	e.Get(e.Admin, list+"?limit=1001").Expect(400)
	r = e.Get(e.Admin, list+"?limit=0").Expect(200)
	if r.Num("count") != 4 || len(r.Items()) != 0 {
		t.Errorf("limit=0: %s", r.Body)
	}
	first := e.Get(e.Admin, list+"?limit=1").Expect(200)
	e.Get(e.Admin, "/v1/collections/"+col+"/spaces?page="+first.Str("next.page")).Expect(400)

	t.Run("listing after moves", func(t *testing.T) {
		e.Post(e.Admin, "/v1/spaces/"+s3+"/move", map[string]any{"position": map[string]any{"before": ptr("space", s1)}}).Expect(200)
		e.Post(e.Admin, "/v1/spaces/"+s4+"/move", map[string]any{"position": map[string]any{"before": ptr("space", s2)}}).Expect(200)
		e.Post(e.Admin, "/v1/spaces/"+s1+"/move", map[string]any{"parent": col, "position": map[string]any{"after": ptr("space", s4)}}).Expect(200)
		expectIDs(t, e.Get(e.Admin, list).Expect(200).IDs(), s4, s1, s2, s3)
		expectIDs(t, e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs(), s4, s1, s2)
	})
}

func TestSpaceListForMember(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	member := e.Member("member", auth.Read)
	open := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"})
	e.Clock.Advance(1000)
	granted := newSpace(t, e, e.Admin, e.Org, nil)
	e.Clock.Advance(1000)
	newSpace(t, e, e.Admin, e.Org, nil) // private, not granted
	grant(t, e, e.Admin, "/v1/spaces/"+granted, "edit", []string{member.ID}, nil)
	path := "/v1/orgs/" + e.Org + "/members/" + member.ID + "/spaces"

	r := e.Get(e.Admin, path).Expect(200)
	if r.Num("count") != 2 || r.Str("items.0.space.id") != granted || r.Str("items.0.permission") != "edit" ||
		r.Str("items.1.space.id") != open || r.Str("items.1.permission") != "read" {
		t.Errorf("member spaces wrong: %s", r.Body)
	}
	if !r.Bool("items.0.space.permissions.admin") {
		t.Errorf("the space's permissions are the caller's: %s", r.Body)
	}
	asc := e.Get(e.Admin, path+"?order=asc").Expect(200)
	if asc.Str("items.0.space.id") != open {
		t.Errorf("ascending order wrong: %s", asc.Body)
	}
	e.Get(e.Admin, path+"?order=up").Expect(400).ExpectMessage("order")
	if n := len(e.WalkList(e.Admin, path+"?order=asc", 1)); n != 2 {
		t.Errorf("walked %d", n)
	}
	// Another member sees only the spaces both can see.
	other := e.Member("other", auth.Read)
	oth := e.Get(other, path).Expect(200)
	if oth.Num("count") != 1 || oth.Str("items.0.space.id") != open {
		t.Errorf("other member sees: %s", oth.Body)
	}
	e.Get(member, path).Expect(200)
	e.Get(e.Member("guest", auth.Guest), path).Expect(403)
	e.Get(e.NewUser("outsider"), path).Expect(404)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members/nope/spaces").Expect(404)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members/"+e.NewUser("stranger").ID+"/spaces").Expect(404)
}
