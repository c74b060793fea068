package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// Access decisions are cached per access generation (internal/access): a change to a grant,
// a role, a team or the collection tree is seen by the very next request, on this instance
// and on another serving the same database, while repeated reads with nothing changed reuse
// the cached facts.
func TestAccessChangesAreSeenAtOnceOnEveryInstance(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	peer := e.Peer()
	u := e.Member("reader", auth.Read)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"visibility": "private"})
	col := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "Top"})
	path := "/v1/spaces/" + sp

	seen := func(want int, edit bool, what string) {
		t.Helper()
		for name, env := range map[string]*apitest.Env{"this instance": e, "the peer": peer} {
			// Twice: the second read is served from the facts the first one cached.
			for range 2 {
				r := env.Get(u, path)
				if r.Status != want {
					t.Fatalf("%s: %s: GET space: %d, want %d: %s", what, name, r.Status, want, r.Body)
				}
				if want == 200 && r.Bool("permissions.edit") != edit {
					t.Fatalf("%s: %s: permissions.edit = %v, want %v", what, name, !edit, edit)
				}
			}
		}
	}
	seen(404, false, "private space")

	grant(t, e, e.Admin, path, "read", []string{u.ID}, nil)
	seen(200, false, "granted read")

	peer.Patch(e.Admin, path+"/permissions/users/"+u.ID, map[string]any{"role": "edit"}).Expect(204)
	seen(200, true, "raised to edit on the peer")

	e.Delete(e.Admin, path+"/permissions/users/"+u.ID).Expect(204)
	seen(404, false, "grant removed")

	// A grant on a collection reaches the space once the space moves under it.
	grant(t, e, e.Admin, "/v1/collections/"+col, "edit", []string{u.ID}, nil)
	seen(404, false, "grant on a collection the space is not in")
	peer.Post(e.Admin, path+"/move", map[string]any{"parent": col}).Expect(200)
	seen(200, true, "space moved under the collection")

	// The organization role: the space in-collection, readable through the collection's
	// default level, then the member made a guest (default levels do nothing for guests).
	e.Delete(e.Admin, "/v1/collections/"+col+"/permissions/users/"+u.ID).Expect(204)
	seen(404, false, "collection grant removed")
	e.Patch(e.Admin, path, map[string]any{"visibility": "in-collection"}).Expect(200)
	e.Patch(e.Admin, "/v1/collections/"+col, map[string]any{"defaultLevel": "comment"}).Expect(200)
	seen(200, false, "collection default level")
	peer.Patch(e.Admin, "/v1/orgs/"+e.Org+"/members/"+u.ID, map[string]any{"role": nil}).Expect(200)
	seen(404, false, "member made a guest")

	for name, env := range map[string]*apitest.Env{"this instance": e, "the peer": peer} {
		if hits, _ := env.App.Access.Stats(); hits == 0 {
			t.Errorf("%s: no access decision came from the cache", name)
		}
	}
}
