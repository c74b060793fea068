package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestSpaceCreateAndGet(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	r := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", map[string]any{
		"title": "  Handbook ", "emoji": "📘", "language": "fr", "editMode": "locked", "empty": true,
	}).Expect(201)
	id := r.Str("id")
	if loc := r.Header.Get("Location"); loc != e.URL+"/v1/spaces/"+id || r.Str("urls.location") != loc {
		t.Errorf("Location = %q, urls.location = %q", loc, r.Str("urls.location"))
	}
	got := e.Get(e.Admin, "/v1/spaces/"+id+"?shareKey=abc").Expect(200)
	for _, res := range []*apitest.Resp{r, got} {
		want := map[string]any{"object": "space", "id": id, "title": "Handbook", "emoji": "📘", "language": "fr",
			"editMode": "locked", "visibility": "private", "organization": e.Org, "defaultLevel": "inherit",
			"mergeRules.type": "inherit", "comments": 0.0, "changeRequests": 0.0, "changeRequestsOpen": 0.0,
			"changeRequestsDraft": 0.0, "permissions.admin": true, "permissions.view": true,
			"permissions.edit": false, "permissions.comment": true}
		for k, v := range want {
			if x, _ := res.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
		if res.Has("parent") || res.Has("deletedAt") {
			t.Errorf("a top-level live space has no parent or deletedAt: %s", res.Body)
		}
		if !strings.HasPrefix(res.Str("urls.app"), e.URL+"/") || !strings.HasSuffix(res.Str("createdAt"), "Z") {
			t.Errorf("urls.app or createdAt wrong: %s", res.Body)
		}
	}

	t.Run("defaults", func(t *testing.T) {
		r := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", nil).Expect(201)
		if r.Str("title") != "" || r.Str("emoji") != "" || r.Str("editMode") != "live" || r.Has("language") {
			t.Errorf("defaults wrong: %s", r.Body)
		}
		if !r.Bool("permissions.edit") || !r.Bool("permissions.merge") {
			t.Errorf("a live space is editable by its admin: %s", r.Body)
		}
	})
	t.Run("in a collection it is in-collection by default", func(t *testing.T) {
		col := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "Guides"})
		r := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", map[string]any{"parent": col}).Expect(201)
		if r.Str("parent") != col || r.Str("visibility") != "in-collection" {
			t.Errorf("space in collection wrong: %s", r.Body)
		}
	})
	t.Run("validation", func(t *testing.T) {
		col := newCollection(t, e, e.Admin, e.Org, nil)
		other := newCollection(t, e, e.Admin, e.NewOrg(e.Admin, "Elsewhere"), nil)
		cases := []struct {
			name string
			body any
			msg  []string
		}{
			{"title too long", map[string]any{"title": strings.Repeat("t", 51)}, []string{"title", "50"}},
			{"emoji too long", map[string]any{"emoji": strings.Repeat("🎉", 51)}, []string{"emoji", "50"}},
			{"emoji is text", map[string]any{"emoji": "hi"}, []string{"emoji"}},
			{"unknown language", map[string]any{"language": "xx"}, []string{"language", "xx"}},
			{"unknown edit mode", map[string]any{"editMode": "frozen"}, []string{"editMode"}},
			{"unknown visibility", map[string]any{"visibility": "secret"}, []string{"visibility"}},
			{"in-collection at the top level", map[string]any{"visibility": "in-collection"}, []string{"visibility", "in-collection"}},
			{"unknown parent", map[string]any{"parent": "nope"}, []string{"parent", "nope"}},
			{"parent of another organization", map[string]any{"parent": other}, []string{"parent"}},
			{"empty false", map[string]any{"empty": false}, []string{"empty"}},
			{"template", map[string]any{"template": map[string]any{"id": "x"}}, []string{"template"}},
			{"unknown field", map[string]any{"colour": "red"}, []string{"colour", "unknown"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", c.body).Expect(400).ExpectMessage(c.msg...)
			})
		}
		e.Post(e.Admin, "/v1/orgs/"+e.Org+"/spaces", map[string]any{"title": strings.Repeat("t", 50), "emoji": "1f389",
			"parent": col, "visibility": "public"}).Expect(201)
	})
	t.Run("who may create", func(t *testing.T) {
		creator := e.Member("creator", auth.Create)
		r := e.Post(creator, "/v1/orgs/"+e.Org+"/spaces", map[string]any{"title": "Mine"}).Expect(201)
		if !r.Bool("permissions.admin") {
			t.Errorf("the creator administers a space they created: %s", r.Body)
		}
		e.Post(e.Member("editor", auth.Edit), "/v1/orgs/"+e.Org+"/spaces", nil).Expect(403)
		e.Post(e.Member("guest", auth.Guest), "/v1/orgs/"+e.Org+"/spaces", nil).Expect(403)
		e.Post(e.NewUser("outsider"), "/v1/orgs/"+e.Org+"/spaces", nil).Expect(404)
		e.Post(apitest.Anonymous, "/v1/orgs/"+e.Org+"/spaces", nil).Expect(401)
		e.Post(e.Admin, "/v1/orgs/nope/spaces", nil).Expect(404)
	})
	t.Run("absent space is 404", func(t *testing.T) {
		e.Get(e.Admin, "/v1/spaces/nope").Expect(404)
		e.Get(e.Admin, "/v1/spaces/"+id+"?shareKey="+strings.Repeat("k", 257)).Expect(400).ExpectMessage("shareKey", "256")
	})
}
