package space

import (
	"testing"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// The rule of the package documentation, one line per clause.
func TestAccessRule(t *testing.T) {
	top := Collection{ID: "top", DefaultLevel: Inherit}
	mid := Collection{ID: "mid", Parent: "top", DefaultLevel: Inherit}
	space := func(v Visibility, l Level) Space {
		return Space{ID: "s", Parent: "mid", Visibility: v, DefaultLevel: l}
	}
	grant := func(k Kind, id string, r auth.Role) Grant {
		return Grant{Target: Target{k, id}, Principal: Principal{UserPrincipal, "u"}, Role: r}
	}
	cols := func(topLevel, midLevel Level) []Collection {
		t, m := top, mid
		t.DefaultLevel, m.DefaultLevel = topLevel, midLevel
		return []Collection{t, m}
	}
	cases := []struct {
		name    string
		role    auth.Role
		member  bool
		grants  []Grant
		cols    []Collection
		space   Space
		want    auth.Role
		wantMid auth.Role
	}{
		{"not a member", auth.Admin, false, nil, cols(Inherit, Inherit), space(Unlisted, Inherit), auth.Guest, auth.Guest},
		{"organization admin", auth.Admin, true, nil, cols(NoAccess, NoAccess), space(Private, NoAccess), auth.Admin, auth.Admin},
		{"inherit to the organization role", auth.Edit, true, nil, cols(Inherit, Inherit), space(Unlisted, Inherit), auth.Edit, auth.Edit},
		{"nearest explicit level", auth.Read, true, nil, cols(Level(auth.Comment), Level(auth.Review)), space(Unlisted, Inherit), auth.Review, auth.Review},
		{"level not capped by the role", auth.Read, true, nil, cols(Inherit, Inherit), space(Unlisted, Level(auth.Admin)), auth.Admin, auth.Read},
		{"no access by default", auth.Edit, true, nil, cols(Inherit, Inherit), space(Unlisted, NoAccess), auth.Guest, auth.Edit},
		{"private ignores defaults", auth.Edit, true, nil, cols(Inherit, Inherit), space(Private, Level(auth.Admin)), auth.Guest, auth.Edit},
		{"in-collection reads with the collection", auth.Comment, true, nil, cols(Inherit, Inherit), space(InCollection, NoAccess), auth.Read, auth.Comment},
		{"in-collection without the collection", auth.Comment, true, nil, cols(Inherit, NoAccess), space(InCollection, NoAccess), auth.Guest, auth.Guest},
		{"guest: defaults do nothing", auth.Guest, true, nil, cols(Level(auth.Edit), Inherit), space(Unlisted, Level(auth.Edit)), auth.Guest, auth.Guest},
		{"guest: grant on the space", auth.Guest, true, []Grant{grant(SpaceKind, "s", auth.Comment)}, cols(Inherit, Inherit), space(Private, Inherit), auth.Comment, auth.Guest},
		{"grant above reaches down", auth.Guest, true, []Grant{grant(CollectionKind, "top", auth.Edit), grant(CollectionKind, "mid", auth.Read)}, cols(Inherit, Inherit), space(Private, Inherit), auth.Edit, auth.Edit},
		{"strongest of grant and level", auth.Read, true, []Grant{grant(SpaceKind, "s", auth.Comment)}, cols(Inherit, Inherit), space(Unlisted, Level(auth.Review)), auth.Review, auth.Read},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := NewAccess(c.role, c.member, c.grants, c.cols)
			if got := a.SpaceRole(c.space); got != c.want {
				t.Errorf("space role = %q, want %q", got, c.want)
			}
			if got := a.CollectionRole("mid"); got != c.wantMid {
				t.Errorf("collection role = %q, want %q", got, c.wantMid)
			}
		})
	}
}

func TestRequireEditable(t *testing.T) {
	if err := RequireEditable(Space{ID: "s", EditMode: Live}); err != nil {
		t.Errorf("live space: %v", err)
	}
	if err := RequireEditable(Space{ID: "s", EditMode: Locked}); !apperr.Is(err, apperr.Locked) {
		t.Errorf("locked space: %v, want a Locked error", err)
	}
}
