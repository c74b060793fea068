package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestCurrentUser(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	r := e.Get(e.Admin, "/v1/user").Expect(200)
	if r.Str("object") != "user" || r.Str("id") != e.Admin.ID || r.Str("email") != e.Admin.Email ||
		r.Str("displayName") != "admin" || r.Str("urls.location") != e.URL+"/v1/users/"+e.Admin.ID {
		t.Errorf("GET /v1/user: %s", r.Body)
	}
	if r.Has("photoURL") {
		t.Errorf("photoURL shown before one was set: %s", r.Body)
	}
	e.Get(apitest.Anonymous, "/v1/user").Expect(401)
}

func TestGetUser(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	colleague := e.Member("colleague", auth.Read)
	guest := e.Member("guest", auth.Guest)
	outsider := e.NewUser("outsider")

	t.Run("oneself", func(t *testing.T) {
		r := e.Get(outsider, "/v1/users/"+outsider.ID).Expect(200)
		if r.Str("id") != outsider.ID || r.Str("object") != "user" || r.Str("displayName") != "outsider" {
			t.Errorf("self: %s", r.Body)
		}
	})
	t.Run("people sharing an organization see each other", func(t *testing.T) {
		for _, pair := range [][2]apitest.Actor{{e.Admin, colleague}, {colleague, e.Admin}, {colleague, guest}, {guest, colleague}} {
			r := e.Get(pair[0], "/v1/users/"+pair[1].ID).Expect(200)
			if r.Str("id") != pair[1].ID || r.Str("email") != pair[1].Email || r.Str("urls.location") != e.URL+"/v1/users/"+pair[1].ID {
				t.Errorf("%s sees %s as %s", pair[0].Name, pair[1].Name, r.Body)
			}
		}
	})
	t.Run("others get 404", func(t *testing.T) {
		e.Get(outsider, "/v1/users/"+e.Admin.ID).Expect(404)
		e.Get(e.Admin, "/v1/users/"+outsider.ID).Expect(404)
		e.Get(e.Admin, "/v1/users/nosuchuser").Expect(404)
	})
	t.Run("joining an organization makes its members visible", func(t *testing.T) {
		late := e.NewUser("late")
		e.Get(late, "/v1/users/"+colleague.ID).Expect(404)
		e.AddMember(e.Org, late, auth.Read)
		e.Get(late, "/v1/users/"+colleague.ID).Expect(200)
		e.Get(colleague, "/v1/users/"+late.ID).Expect(200)
	})
}

func TestPatchUser(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	me := e.Member("me", auth.Edit)
	path := "/v1/users/" + me.ID

	r := e.Patch(me, path, map[string]any{"displayName": "  Ada Lovelace  ", "photoURL": "https://example.com/ada.png"}).Expect(200)
	if r.Str("displayName") != "Ada Lovelace" || r.Str("photoURL") != "https://example.com/ada.png" || r.Str("id") != me.ID {
		t.Fatalf("patched: %s", r.Body)
	}
	for _, p := range []string{"/v1/user", path} {
		g := e.Get(me, p).Expect(200)
		if g.Str("displayName") != "Ada Lovelace" || g.Str("photoURL") != "https://example.com/ada.png" {
			t.Errorf("GET %s after PATCH: %s", p, g.Body)
		}
	}
	if e.Get(e.Admin, path).Expect(200).Str("displayName") != "Ada Lovelace" {
		t.Error("a colleague does not see the new name")
	}

	t.Run("one field leaves the other", func(t *testing.T) {
		r := e.Patch(me, path, map[string]any{"displayName": "Ada"}).Expect(200)
		if r.Str("photoURL") != "https://example.com/ada.png" {
			t.Errorf("photoURL changed: %s", r.Body)
		}
	})
	t.Run("an empty photoURL removes the photo", func(t *testing.T) {
		r := e.Patch(me, path, map[string]any{"photoURL": ""}).Expect(200)
		if r.Has("photoURL") || e.Get(me, "/v1/user").Expect(200).Has("photoURL") {
			t.Errorf("photo still shown: %s", r.Body)
		}
	})
	t.Run("limits", func(t *testing.T) {
		e.Patch(me, path, map[string]any{"displayName": strings.Repeat("é", 64)}).Expect(200)
		e.Patch(me, path, map[string]any{"displayName": strings.Repeat("é", 65)}).Expect(400).ExpectMessage("displayName", "64")
		longURL := "https://example.com/" + strings.Repeat("p", 2048-len("https://example.com/"))
		e.Patch(me, path, map[string]any{"photoURL": longURL}).Expect(200)
		e.Patch(me, path, map[string]any{"photoURL": longURL + "p"}).Expect(400).ExpectMessage("photoURL", "2048")
		g := e.Get(me, "/v1/user").Expect(200)
		if g.Str("displayName") != strings.Repeat("é", 64) || g.Str("photoURL") != longURL {
			t.Errorf("refused patches changed the profile: %.200s", g.Body)
		}
	})
	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			name string
			body any
			msg  []string
		}{
			{"empty name", map[string]any{"displayName": ""}, []string{"displayName", "1"}},
			{"blank name", map[string]any{"displayName": "   "}, []string{"displayName"}},
			{"name not a string", map[string]any{"displayName": 3}, []string{"displayName", "string"}},
			{"not a URL", map[string]any{"photoURL": "ada.png"}, []string{"photoURL"}},
			{"not http", map[string]any{"photoURL": "ftp://example.com/a.png"}, []string{"photoURL", "http"}},
			{"nothing to change", map[string]any{}, []string{"displayName", "photoURL"}},
			{"unknown field", map[string]any{"email": "x@y.test"}, []string{"email", "unknown"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Patch(me, path, c.body).Expect(400).ExpectMessage(c.msg...)
			})
		}
	})
	t.Run("only oneself", func(t *testing.T) {
		e.Patch(e.Admin, path, map[string]any{"displayName": "Hacked"}).Expect(403)
		e.Patch(e.NewUser("outsider"), path, map[string]any{"displayName": "Hacked"}).Expect(404)
		e.Patch(me, "/v1/users/nosuchuser", map[string]any{"displayName": "X"}).Expect(404)
		if e.Get(me, "/v1/user").Expect(200).Str("displayName") == "Hacked" {
			t.Error("another user changed the profile")
		}
	})
}
