package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// A change made with a token this server already knows is served without reading the token
// first (its write transaction confirms it): a token deleted by another process must still be
// refused at once, with nothing changed, whether the change reads the caller's role on a
// space (the token is read in that statement), reads none before writing (the write
// transaction reads it), or is refused before writing anything (it is read afterwards).
func TestKnownTokenDeletedElsewhereChangesNothing(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	holder := e.Member("holder", auth.Admin)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Kept"})
	path := "/v1/spaces/" + sp
	e.Patch(holder, path, map[string]any{"title": "Kept"}).Expect(200) // this server knows the token
	e.Patch(holder, "/v1/orgs/"+e.Org, map[string]any{"title": "Org kept"}).Expect(200)

	deleteTokensElsewhere(t, e, holder.ID)
	e.Patch(holder, path, map[string]any{"title": "Changed"}).ExpectError(401)
	e.Patch(holder, path, map[string]any{"title": 3}).ExpectError(401)
	e.Patch(holder, "/v1/orgs/"+e.Org, map[string]any{"title": "Org changed"}).ExpectError(401)
	e.Delete(holder, path).ExpectError(401)
	if got := e.Get(e.Admin, path).Expect(200).Str("title"); got != "Kept" {
		t.Errorf("space title = %q after refused changes, want Kept", got)
	}
	if got := e.Get(e.Admin, "/v1/orgs/"+e.Org).Expect(200).Str("title"); got != "Org kept" {
		t.Errorf("organization title = %q after refused changes, want Org kept", got)
	}
}
