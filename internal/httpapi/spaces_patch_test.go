package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/store"
)

func TestSpacePatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Before", "emoji": "📘"})
	path := "/v1/spaces/" + id
	r := e.Patch(e.Admin, path, map[string]any{
		"title": "After", "editMode": "locked", "defaultLevel": "comment", "language": "de", "visibility": "unlisted",
		"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_at_least_one_review"}}},
	}).Expect(200)
	want := map[string]any{"title": "After", "editMode": "locked", "defaultLevel": "comment", "language": "de",
		"visibility": "unlisted", "mergeRules.rules.0.rule": "require_at_least_one_review", "emoji": "📘",
		"permissions.edit": false, "permissions.merge": false, "permissions.admin": true}
	after := e.Get(e.Admin, path).Expect(200)
	for _, got := range []*apitest.Resp{r, after} {
		for k, v := range want {
			if x, _ := got.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
	}
	if r.Str("updatedAt") < r.Str("createdAt") {
		t.Errorf("updatedAt before createdAt: %s", r.Body)
	}

	t.Run("icon replaces emoji and null removes both", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"icon": "https://example.com/i.png"}).Expect(200)
		if r.Str("urls.icon") != "https://example.com/i.png" || r.Str("emoji") != "" {
			t.Errorf("icon not set: %s", r.Body)
		}
		r = e.Patch(e.Admin, path, map[string]any{"emoji": "🎉"}).Expect(200)
		if r.Has("urls.icon") || r.Str("emoji") != "🎉" {
			t.Errorf("emoji not set: %s", r.Body)
		}
		r = e.Patch(e.Admin, path, map[string]any{"emoji": nil, "icon": nil}).Expect(200)
		if r.Has("urls.icon") || r.Str("emoji") != "" {
			t.Errorf("not removed: %s", r.Body)
		}
	})
	t.Run("default level null and inherit", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"defaultLevel": nil}).Expect(200)
		if v, ok := r.Get("defaultLevel"); !ok || v != nil {
			t.Errorf("defaultLevel = %v, want null", v)
		}
		if e.Patch(e.Admin, path, map[string]any{"defaultLevel": "inherit"}).Expect(200).Str("defaultLevel") != "inherit" {
			t.Error("defaultLevel inherit not kept")
		}
	})
	t.Run("edit mode back to live", func(t *testing.T) {
		if !e.Patch(e.Admin, path, map[string]any{"editMode": "live"}).Expect(200).Bool("permissions.edit") {
			t.Error("a live space is editable again")
		}
	})
	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			name string
			body any
			msg  []string
		}{
			{"title too long", map[string]any{"title": strings.Repeat("t", 51)}, []string{"title", "50"}},
			{"emoji and icon", map[string]any{"emoji": "🎉", "icon": "https://e.com/i.png"}, []string{"emoji", "icon"}},
			{"bad icon", map[string]any{"icon": "not a url"}, []string{"icon"}},
			{"icon too long", map[string]any{"icon": "https://e.com/" + strings.Repeat("a", 2048)}, []string{"icon", "2048"}},
			{"bad edit mode", map[string]any{"editMode": "open"}, []string{"editMode"}},
			{"bad level", map[string]any{"defaultLevel": "owner"}, []string{"defaultLevel", "owner"}},
			{"bad language", map[string]any{"language": "klingon"}, []string{"language"}},
			{"in-collection at the top level", map[string]any{"visibility": "in-collection"}, []string{"visibility"}},
			{"bad merge rules", map[string]any{"mergeRules": map[string]any{"type": "some"}}, []string{"mergeRules.type"}},
			{"wrong type", map[string]any{"title": 3}, []string{"title", "string"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Patch(e.Admin, path, c.body).Expect(400).ExpectMessage(c.msg...)
			})
		}
		e.Patch(e.Admin, path, map[string]any{"title": strings.Repeat("t", 50)}).Expect(200)
		if got := e.Get(e.Admin, path).Expect(200).Str("title"); got != strings.Repeat("t", 50) {
			t.Errorf("title = %q", got)
		}
	})
	t.Run("who may patch", func(t *testing.T) {
		editor := e.Member("editor", auth.Read)
		grant(t, e, e.Admin, path, "edit", []string{editor.ID}, nil)
		e.Patch(editor, path, map[string]any{"title": "Nope"}).Expect(403)
		e.Patch(editor, path, map[string]any{"editMode": "locked"}).Expect(403)
		if e.Patch(editor, path, map[string]any{"language": "es"}).Expect(200).Str("language") != "es" {
			t.Error("editors may set the language of the content")
		}
		commenter := e.Member("commenter", auth.Read)
		grant(t, e, e.Admin, path, "comment", []string{commenter.ID}, nil)
		e.Patch(commenter, path, map[string]any{"language": "en"}).Expect(403)
		// The space is unlisted with an inherited level: readers of the organization read it.
		e.Patch(e.Member("reader", auth.Read), path, map[string]any{"title": "x"}).Expect(403)
		e.Patch(e.Member("guest", auth.Guest), path, map[string]any{"title": "x"}).Expect(404)
		e.Patch(e.NewUser("outsider"), path, map[string]any{"title": "x"}).Expect(404)
		if e.Get(e.Admin, path).Expect(200).Str("language") != "es" {
			t.Error("refused patches changed the space")
		}
	})
	t.Run("admin who loses access by the patch gets the space without permissions", func(t *testing.T) {
		member := e.Member("opened", auth.Read)
		sid := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"})
		e.Patch(e.Admin, "/v1/spaces/"+sid, map[string]any{"defaultLevel": "admin"}).Expect(200)
		r := e.Patch(member, "/v1/spaces/"+sid, map[string]any{"defaultLevel": nil}).Expect(200)
		if r.Bool("permissions.view") {
			t.Errorf("the member no longer reaches the space: %s", r.Body)
		}
		e.Get(member, "/v1/spaces/"+sid).Expect(404)
	})
}

// TestPatchSpaceStatements bounds the statements a title PATCH runs: the permission check
// (which reads the known token in the same statement), the update with its outbox event
// (and PostgreSQL's notification), the answer's published addresses. The outbox consumers
// are stopped so that what they run in reaction does not land in the count (the fewest of
// four PATCHes counts). It ran 12 (14 on PostgreSQL) while the organization's access was read
// again after every change, even one that cannot change the caller's role, one more while
// the token was read on its own before the write, and one more on SQLite while the update
// read the row as it was for its event (the write has just read it).
func TestPatchSpaceStatements(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Get(e.Admin, "/v1/user").Expect(200) // this server has seen the token
	e.RunDue()
	e.App.Outbox.Stop()
	db := e.App.DB
	least, trips := ^uint64(0), ^uint64(0)
	for i := range 4 {
		before, tripsBefore := db.Statements(), db.WriteRoundTrips()
		e.Patch(e.Admin, "/v1/spaces/"+sp, map[string]any{"title": fmt.Sprintf("Title %d", i)}).Expect(200)
		least, trips = min(least, db.Statements()-before), min(trips, db.WriteRoundTrips()-tripsBefore)
	}
	t.Logf("a title PATCH ran %d statements, in %d round trips on PostgreSQL", least, trips)
	if least > 5 {
		t.Errorf("a title PATCH ran %d statements, want at most 5", least)
	}
	// On PostgreSQL, a write alone: BEGIN with the outbox's numbering row, the space with the
	// caller's access and the published addresses (asked for first), all in one round trip;
	// the update (which a write joining a group leaves to the next write's first statement);
	// and the events with COMMIT. It made five while BEGIN, the update and the addresses had
	// a round trip each.
	if db.Engine == store.Postgres && trips > 3 {
		t.Errorf("a title PATCH made %d round trips on PostgreSQL, want at most 3", trips)
	}
}
