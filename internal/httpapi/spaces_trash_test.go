package httpapi_test

import (
	"context"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

const day = 24 * time.Hour

func TestSpaceDeleteAndRestore(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Doomed"})
	keep := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Kept"})
	path := "/v1/spaces/" + id

	e.Delete(e.Admin, path).Expect(204)
	e.Get(e.Admin, path).Expect(404)
	if ids := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/spaces").Expect(200).IDs(); len(ids) != 1 || ids[0] != keep {
		t.Errorf("a deleted space must leave the lists: %v", ids)
	}
	e.Delete(e.Admin, path).Expect(204)
	e.Patch(e.Admin, path, map[string]any{"title": "x"}).Expect(404)
	e.Post(e.Admin, path+"/move", map[string]any{"parent": nil}).Expect(404)

	e.Clock.Advance(6 * day)
	r := e.Post(e.Admin, path+"/restore", nil).Expect(200)
	if r.Str("id") != id || r.Has("deletedAt") || r.Str("title") != "Doomed" {
		t.Errorf("restored space wrong: %s", r.Body)
	}
	e.Get(e.Admin, path).Expect(200)
	if n := len(e.Get(e.Admin, "/v1/orgs/"+e.Org+"/spaces").Expect(200).IDs()); n != 2 {
		t.Errorf("restored space not listed: %d spaces", n)
	}
	e.Post(e.Admin, path+"/restore", nil).Expect(404)

	t.Run("a deleted space leaves every list", func(t *testing.T) {
		col := newCollection(t, e, e.Admin, e.Org, nil)
		sid := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col})
		e.Delete(e.Admin, "/v1/spaces/"+sid).Expect(204)
		expectIDs(t, e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs())
		for _, it := range e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members/"+e.Admin.ID+"/spaces").Expect(200).Items() {
			if it["space"].(map[string]any)["id"] == sid {
				t.Error("a deleted space is among the member's spaces")
			}
		}
		if n := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members/"+e.Admin.ID).Expect(200).Num("spaces"); n != 2 {
			t.Errorf("the member's count holds the deleted space: %v", n)
		}
		e.Get(e.Admin, "/v1/spaces/"+sid+"/permissions/users").Expect(404)
		e.Post(e.Admin, "/v1/spaces/"+sid+"/duplicate", nil).Expect(404)
	})
	t.Run("who may delete and restore", func(t *testing.T) {
		sid := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "unlisted"})
		sp := "/v1/spaces/" + sid
		e.Delete(e.Member("reader", auth.Read), sp).Expect(403)
		e.Delete(e.NewUser("outsider"), sp).Expect(204)
		e.Delete(e.Member("guest", auth.Guest), sp).Expect(204)
		e.Get(e.Admin, sp).Expect(200)
		e.Delete(apitest.Anonymous, sp).Expect(401)
		e.Delete(e.Admin, "/v1/spaces/doesnotexist").Expect(204)

		editor := e.Member("editor", auth.Read)
		grant(t, e, e.Admin, sp, "edit", []string{editor.ID}, nil)
		e.Delete(e.Admin, sp).Expect(204)
		e.Post(editor, sp+"/restore", nil).Expect(403)
		e.Post(e.NewUser("outsider"), sp+"/restore", nil).Expect(404)
		e.Post(e.Admin, "/v1/spaces/doesnotexist/restore", nil).Expect(404)
	})
	t.Run("restore after 7 days is 404", func(t *testing.T) {
		sid := newSpace(t, e, e.Admin, e.Org, nil)
		e.Delete(e.Admin, "/v1/spaces/"+sid).Expect(204)
		e.Clock.Advance(7 * day)
		// The server's own worker may purge the space at any moment from now on, so the answer is
		// 404 either way: "deleted more than 7 days ago" before the purge, "not found" after it.
		e.Post(e.Admin, "/v1/spaces/"+sid+"/restore", nil).Expect(404)
	})
	t.Run("restore keeps its place, or the next one when taken", func(t *testing.T) {
		org := e.NewOrg(e.Admin, "Places")
		a := newSpace(t, e, e.Admin, org, nil)
		b := newSpace(t, e, e.Admin, org, nil)
		c := newSpace(t, e, e.Admin, org, nil)
		e.Delete(e.Admin, "/v1/spaces/"+b).Expect(204)
		e.Post(e.Admin, "/v1/spaces/"+b+"/restore", nil).Expect(200)
		expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+org+"/spaces").Expect(200).IDs(), a, b, c)
		// Take b's place while it is in the trash: a, d, c; b comes back right after d.
		e.Delete(e.Admin, "/v1/spaces/"+b).Expect(204)
		d := newSpace(t, e, e.Admin, org, nil)
		e.Post(e.Admin, "/v1/spaces/"+d+"/move", map[string]any{"position": map[string]any{"after": ptr("space", a)}}).Expect(200)
		expectIDs(t, e.Get(e.Admin, "/v1/orgs/"+org+"/spaces").Expect(200).IDs(), a, d, c)
		e.Post(e.Admin, "/v1/spaces/"+b+"/restore", nil).Expect(200)
		got := e.Get(e.Admin, "/v1/orgs/"+org+"/spaces").Expect(200).IDs()
		if len(got) != 4 || got[0] != a || got[3] != c {
			t.Errorf("order after restore = %v", got)
		}
	})
}

func TestSpaceDuplicate(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	col := newCollection(t, e, e.Admin, e.Org, nil)
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Original", "emoji": "📘", "parent": col, "language": "it"})
	after := newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": col})
	e.Patch(e.Admin, "/v1/spaces/"+src, map[string]any{"editMode": "locked", "defaultLevel": "edit",
		"mergeRules": map[string]any{"type": "none"}}).Expect(200)
	reader := e.Member("reader", auth.Guest)
	team := newTeam(t, e, e.Org, "Writers")
	grant(t, e, e.Admin, "/v1/spaces/"+src, "read", []string{reader.ID}, []string{team})

	r := e.Post(e.Admin, "/v1/spaces/"+src+"/duplicate", nil).Expect(201)
	dup := r.Str("id")
	if dup == src || r.Header.Get("Location") != e.URL+"/v1/spaces/"+dup {
		t.Fatalf("duplicate id or Location wrong: %s %v", r.Body, r.Header)
	}
	orig := e.Get(e.Admin, "/v1/spaces/"+src).Expect(200)
	for _, k := range []string{"title", "emoji", "parent", "language", "editMode", "defaultLevel", "visibility", "mergeRules.type", "organization"} {
		a, _ := orig.Get(k)
		b, _ := r.Get(k)
		if a != b {
			t.Errorf("%s: original %v, duplicate %v", k, a, b)
		}
	}
	expectIDs(t, e.Get(e.Admin, "/v1/collections/"+col+"/spaces").Expect(200).IDs(), src, dup, after)
	e.Get(reader, "/v1/spaces/"+dup).Expect(200)
	if n := e.Get(e.Admin, "/v1/spaces/"+dup+"/permissions/teams").Expect(200).Num("count"); n != 1 {
		t.Errorf("team grants copied: %v", n)
	}

	t.Run("needs create where the copy goes", func(t *testing.T) {
		e.Post(reader, "/v1/spaces/"+src+"/duplicate", nil).Expect(403)
		e.Post(e.NewUser("outsider"), "/v1/spaces/"+src+"/duplicate", nil).Expect(404)
		creator := e.Member("creator", auth.Create)
		r := e.Post(creator, "/v1/spaces/"+src+"/duplicate", nil).Expect(201)
		if !r.Bool("permissions.admin") {
			t.Errorf("the member who duplicates administers the copy: %s", r.Body)
		}
	})
}

// expectIDs fails unless got is want, in order.
func expectIDs(t *testing.T, got []string, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("ids = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("ids = %v, want %v", got, want)
		}
	}
}

// ptr is a position pointer.
func ptr(kind, id string) map[string]any { return map[string]any{"type": kind, kind: id} }

// The 7-day window: restore on day 6 works; on day 8 the purge job has removed the space for
// good, and restore answers 404.
func TestSpacePurgedAfterSevenDays(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	ctx := context.Background()
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Short-lived"})
	path := "/v1/spaces/" + id
	member := e.Member("member", auth.Read)
	grant(t, e, e.Admin, path, "edit", []string{member.ID}, nil)
	rowExists := func() bool {
		t.Helper()
		var n int
		if err := e.App.DB.Read().QueryRow(ctx, `SELECT COUNT(*) FROM spaces WHERE id = ?`, id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n == 1
	}

	e.Delete(e.Admin, path).Expect(204)
	e.Clock.Advance(6 * day)
	if _, err := e.App.Jobs.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	e.Post(e.Admin, path+"/restore", nil).Expect(200)
	// The first deletion's job comes due on day 7 and finds the space restored: it stays.
	e.Clock.Advance(1*day + time.Minute)
	if _, err := e.App.Jobs.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	e.Get(e.Admin, path).Expect(200)

	e.Delete(e.Admin, path).Expect(204)
	if !rowExists() {
		t.Fatal("a deleted space is kept in the trash, not removed at once")
	}
	// From here the server's own worker may run the job at any moment; RunDue runs it if it
	// has not, and waits for it if it is running.
	e.Clock.Advance(8 * day)
	if _, err := e.App.Jobs.RunDue(ctx); err != nil {
		t.Fatal(err)
	}
	if rowExists() {
		t.Fatal("the space is still stored after its purge")
	}
	e.Post(e.Admin, path+"/restore", nil).Expect(404)
	e.Get(e.Admin, path).Expect(404)
	e.Delete(e.Admin, path).Expect(204)
	var grants int
	if err := e.App.DB.Read().QueryRow(ctx, `SELECT COUNT(*) FROM space_user_grants WHERE space_id = ?`, id).Scan(&grants); err != nil || grants != 0 {
		t.Errorf("grants of a purged space remain: %d, %v", grants, err)
	}
}
