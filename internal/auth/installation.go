package auth

import "slices"

// Installation limits a caller acting through an integration installation's token: the
// scopes the integration was granted, and the spaces and sites it was installed on. The
// access component (internal/access) applies the limits to every decision, on top of the
// role of the user the token acts for.
type Installation struct {
	ID     string
	Scopes []Scope
	// AllSpaces and AllSites are true when the installation covers the whole organization;
	// otherwise Spaces and Sites list what it was installed on.
	AllSpaces, AllSites bool
	Spaces, Sites       []string
}

// Scope is a permission an integration asks for, as the public API names them.
type Scope string

const (
	ScopeSpaceContentRead  Scope = "space:content:read"
	ScopeSpaceContentWrite Scope = "space:content:write"
	ScopeSpaceMetadataRead Scope = "space:metadata:read"
	ScopeSpaceViewsRead    Scope = "space:views:read"
	ScopeSiteMetadataRead  Scope = "site:metadata:read"
	ScopeSiteMetadataWrite Scope = "site:metadata:write"
)

// Has reports whether the installation was granted scope.
func (i *Installation) Has(s Scope) bool { return slices.Contains(i.Scopes, s) }

// ReachesSpace reports whether the installation covers the space.
func (i *Installation) ReachesSpace(id string) bool {
	return i.AllSpaces || slices.Contains(i.Spaces, id)
}

// ReachesSite reports whether the installation covers the site.
func (i *Installation) ReachesSite(id string) bool { return i.AllSites || slices.Contains(i.Sites, id) }

// SpaceCeiling is the strongest role the installation's scopes allow on a space it covers:
// content writes need space:content:write, reads need a read scope; nothing else reaches
// above edit, since installations never administer.
func (i *Installation) SpaceCeiling() Role {
	switch {
	case i.Has(ScopeSpaceContentWrite):
		return Edit
	case i.Has(ScopeSpaceContentRead), i.Has(ScopeSpaceMetadataRead):
		return Read
	}
	return Guest
}
