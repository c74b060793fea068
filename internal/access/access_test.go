package access

import (
	"testing"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		role, min auth.Role
		want      Outcome
	}{
		{auth.Guest, auth.Read, DenyNotFound},
		{auth.Read, auth.Read, Allow},
		{auth.Read, auth.Edit, DenyForbidden},
		{auth.Review, auth.Edit, Allow},
		{auth.Admin, auth.Admin, Allow},
		{auth.Create, auth.Admin, DenyForbidden},
	} {
		if got := Decide(c.role, c.min); got != c.want {
			t.Errorf("Decide(%q, %q) = %v, want %v", c.role, c.min, got, c.want)
		}
	}
	if err := Require(auth.Guest, auth.Read, "space", "s"); !apperr.Is(err, apperr.NotFound) {
		t.Errorf("no access: %v, want a 404", err)
	}
	if err := Require(auth.Comment, auth.Edit, "space", "s"); !apperr.Is(err, apperr.Forbidden) {
		t.Errorf("below the role: %v, want a 403", err)
	}
}

// An installation token acts with the role its scopes give, on the spaces it covers only,
// and has none on collections.
func TestInstallationLimits(t *testing.T) {
	read := &auth.InstallationGrant{OrgID: "o", Scopes: []string{"space:content:read"}, Spaces: []string{"s"}}
	write := &auth.InstallationGrant{OrgID: "o", Scopes: []string{"space:content:write"}, AllSpaces: true}
	none := &auth.InstallationGrant{OrgID: "o", AllSpaces: true}
	for _, c := range []struct {
		in         *auth.InstallationGrant
		org, space string
		role       auth.Role
		want       auth.Role
	}{
		{nil, "o", "s", auth.Admin, auth.Admin},
		{read, "o", "s", auth.Guest, auth.Read},
		{read, "o", "other", auth.Admin, auth.Guest},
		{write, "o", "any", auth.Guest, auth.Edit},
		{write, "elsewhere", "any", auth.Admin, auth.Guest},
		{none, "o", "s", auth.Admin, auth.Guest},
	} {
		if got := Limit(auth.Caller{Installation: c.in}, c.org, c.space, c.role); got != c.want {
			t.Errorf("Limit(%+v, %s/%s, %q) = %q, want %q", c.in, c.org, c.space, c.role, got, c.want)
		}
	}
	if got := LimitCollection(auth.Caller{Installation: write}, auth.Admin); got != auth.Guest {
		t.Errorf("an installation's role on a collection: %q", got)
	}
	if got := LimitCollection(auth.Caller{UserID: "u"}, auth.Edit); got != auth.Edit {
		t.Errorf("a user's role on a collection, limited: %q", got)
	}
	if k := FromAuth(auth.Caller{Installation: none}).Kind; k != Installation {
		t.Errorf("an installation's caller is of kind %v", k)
	}
}

// Facts are reused only at the generation they were read at.
func TestCheckerGenerations(t *testing.T) {
	k := NewChecker()
	if k.Cached("u", "s") {
		t.Fatal("an empty cache holds facts")
	}
	f := NewFacts(auth.Read, true, nil, emptyTree{})
	k.Remember("u", "s", 7, f)
	if got, ok := k.At("u", "s", 7); !ok || got != f {
		t.Error("facts not found at their generation")
	}
	if _, ok := k.At("u", "s", 8); ok {
		t.Error("facts reused at a later generation")
	}
	if _, ok := k.At("v", "s", 7); ok {
		t.Error("facts of one user served to another")
	}
	if hits, misses := k.Stats(); hits != 1 || misses != 2 {
		t.Errorf("stats %d hits %d misses, want 1 and 2", hits, misses)
	}
}

type emptyTree struct{}

func (emptyTree) Node(string) (Node, bool) { return Node{}, false }
func (emptyTree) Len() int                 { return 0 }

// Published sites: who is admitted by each visibility, and how the others are refused.
func TestAdmitReader(t *testing.T) {
	anon, link := Caller{Kind: Anonymous}, Caller{Kind: ShareLink, ShareKey: "k"}
	visitor, user := Caller{Kind: SiteVisitor, Claims: map[string]any{"a": 1}}, Caller{Kind: User}
	for _, c := range []struct {
		vis    string
		caller Caller
		want   Outcome
	}{
		{SitePublic, anon, Allow}, {SiteUnlisted, anon, Allow},
		{SiteShareLink, anon, DenyNotFound}, {SiteShareLink, link, Allow}, {SiteShareLink, user, DenyNotFound},
		{SiteVisitorAuth, anon, DenyUnauthenticated}, {SiteVisitorAuth, link, DenyUnauthenticated}, {SiteVisitorAuth, visitor, Allow},
		{"unknown", visitor, DenyNotFound},
	} {
		if got := AdmitReader(c.vis, c.caller); got != c.want {
			t.Errorf("AdmitReader(%s, kind %d) = %v, want %v", c.vis, c.caller.Kind, got, c.want)
		}
	}
}
