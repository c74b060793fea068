package httpapi_test

import (
	"context"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/paging"
)

// A request on one space reads only the collections above it and the grants on them and on
// the space (store's SpaceAccess); listings compute roles over the whole organization. Both
// must give every caller the same role on every space of a nested tree.
func TestRoleOnOneSpaceMatchesTheOrganizationWideRule(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	//	A (inherit) ─ B (edit) ─ C (inherit) ─ s1 (in-collection)
	//	            │          └ s2 (private)
	//	            └ s3 (read)
	//	s4 at the top level (inherit)
	a := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "A"})
	b := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "B", "parent": a})
	e.Patch(e.Admin, "/v1/collections/"+b, map[string]any{"defaultLevel": "edit"}).Expect(200)
	c := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "C", "parent": b})
	spaces := map[string]string{
		"s1": newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": c, "visibility": "in-collection"}),
		"s2": newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": b, "visibility": "private"}),
		"s3": newSpace(t, e, e.Admin, e.Org, map[string]any{"parent": a}),
		"s4": newSpace(t, e, e.Admin, e.Org, nil),
	}
	e.Patch(e.Admin, "/v1/spaces/"+spaces["s3"], map[string]any{"defaultLevel": "read"}).Expect(200)

	callers := map[string]apitest.Actor{
		"admin":        e.Admin,
		"team on A":    e.Member("team", auth.Read),
		"user on B":    e.Member("user", auth.Comment),
		"guest on C":   e.Member("guest", auth.Guest),
		"admin of s2":  e.Member("owner", auth.Read),
		"plain member": e.Member("plain", auth.Read),
		"outsider":     e.NewUser("outsider"),
	}
	team := newTeam(t, e, e.Org, "Team", callers["team on A"])
	grant(t, e, e.Admin, "/v1/collections/"+a, "review", nil, []string{team})
	grant(t, e, e.Admin, "/v1/collections/"+b, "admin", []string{callers["user on B"].ID}, nil)
	grant(t, e, e.Admin, "/v1/collections/"+c, "read", []string{callers["guest on C"].ID}, nil)
	grant(t, e, e.Admin, "/v1/spaces/"+spaces["s2"], "admin", []string{callers["admin of s2"].ID}, nil)

	ctx := context.Background()
	for name, actor := range callers {
		caller := auth.Caller{UserID: actor.ID}
		listed := map[string]auth.Role{}
		if res, err := e.App.Spaces.ListInOrganization(ctx, caller, e.Org, paging.Request{Limit: 100}); err == nil {
			for _, v := range res.Items {
				listed[v.ID] = v.Role
			}
		}
		for label, id := range spaces {
			one := auth.Guest
			if v, err := e.App.Spaces.RoleOn(ctx, caller, id); err == nil {
				one = v.Role
			}
			if one != listed[id] {
				t.Errorf("%s on %s: %q by the space's own lookup, %q by the organization's", name, label, one, listed[id])
			}
		}
	}
	// The tree gives these roles; the comparison above is only worth something if it does.
	for _, want := range []struct {
		caller, space string
		role          auth.Role
	}{
		{"team on A", "s1", auth.Review}, {"user on B", "s1", auth.Admin}, {"guest on C", "s1", auth.Read},
		{"guest on C", "s2", auth.Guest}, {"admin of s2", "s2", auth.Admin}, {"plain member", "s3", auth.Read},
		{"outsider", "s4", auth.Guest},
	} {
		got := auth.Guest
		if v, err := e.App.Spaces.RoleOn(ctx, auth.Caller{UserID: callers[want.caller].ID}, spaces[want.space]); err == nil {
			got = v.Role
		}
		if got != want.role {
			t.Errorf("%s on %s: %q, want %q", want.caller, want.space, got, want.role)
		}
	}
}
