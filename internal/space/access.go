package space

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// Access holds what decides one user's roles on the content of one organization: their
// membership, the grants that reach them, and the collection tree. It implements the rule in
// the package documentation, once, for single lookups and for whole lists alike.
type Access struct {
	member      bool
	orgRole     auth.Role
	grants      map[Target]auth.Role
	collections map[string]Collection
}

// NewAccess builds the access of a user with the given membership (member is false for
// non-members and disabled members), the grants to them and their teams, and every collection
// of the organization.
func NewAccess(orgRole auth.Role, member bool, grants []Grant, collections []Collection) *Access {
	return newAccess(orgRole, member, grants, collectionMap(collections))
}

// newAccess is NewAccess over a collection map that the accesses of many users can share.
func newAccess(orgRole auth.Role, member bool, grants []Grant, collections map[string]Collection) *Access {
	a := &Access{member: member, orgRole: orgRole, grants: map[Target]auth.Role{}, collections: collections}
	for _, g := range grants {
		a.grants[g.Target] = auth.Stronger(a.grants[g.Target], g.Role)
	}
	return a
}

func collectionMap(cols []Collection) map[string]Collection {
	m := make(map[string]Collection, len(cols))
	for _, c := range cols {
		m[c.ID] = c
	}
	return m
}

// OrgRole is the user's role in the organization (Guest for guests and non-members).
func (a *Access) OrgRole() auth.Role { return a.orgRole }

// Member reports whether the user is an enabled member of the organization.
func (a *Access) Member() bool { return a.member }

// SpaceRole is the user's effective role on a space; Guest means no access.
func (a *Access) SpaceRole(s Space) auth.Role {
	if !a.member {
		return auth.Guest
	}
	if a.orgRole == auth.Admin {
		return auth.Admin
	}
	r := auth.Stronger(a.grants[Target{SpaceKind, s.ID}], a.inheritedGrant(s.Parent))
	if a.orgRole == auth.Guest || s.Visibility == Private {
		return r
	}
	r = auth.Stronger(r, a.defaultLevel(s.DefaultLevel, s.Parent))
	if s.Visibility == InCollection && s.Parent != "" && a.CollectionRole(s.Parent).AtLeast(auth.Read) {
		r = auth.Stronger(r, auth.Read)
	}
	return r
}

// CollectionRole is the user's effective role on a collection; Guest means no access (also
// for a collection that does not exist).
func (a *Access) CollectionRole(id string) auth.Role {
	c, ok := a.collections[id]
	if !a.member || !ok {
		return auth.Guest
	}
	if a.orgRole == auth.Admin {
		return auth.Admin
	}
	r := a.inheritedGrant(id)
	if a.orgRole == auth.Guest {
		return r
	}
	return auth.Stronger(r, a.defaultLevel(c.DefaultLevel, c.Parent))
}

// LevelRole is the user's role at a level of the tree where something new would go: the
// collection's role, or at the top level the organization role.
func (a *Access) LevelRole(collectionID string) auth.Role {
	if collectionID == "" {
		if !a.member {
			return auth.Guest
		}
		return a.orgRole
	}
	return a.CollectionRole(collectionID)
}

// inheritedGrant is the strongest grant on collectionID and every collection above it.
func (a *Access) inheritedGrant(collectionID string) auth.Role {
	r := auth.Guest
	for id, hops := collectionID, 0; id != "" && hops <= len(a.collections); hops++ {
		r = auth.Stronger(r, a.grants[Target{CollectionKind, id}])
		id = a.collections[id].Parent
	}
	return r
}

// defaultLevel resolves a node's default level for a non-guest member: "inherit" climbs to
// the parent collection, and past the top of the tree it is the organization role.
func (a *Access) defaultLevel(l Level, parent string) auth.Role {
	for hops := 0; l == Inherit; hops++ {
		if parent == "" || hops > len(a.collections) {
			return a.orgRole
		}
		c := a.collections[parent]
		l, parent = c.DefaultLevel, c.Parent
	}
	return l.Role()
}

// accessIn loads the caller's access to orgID's content.
func (s *Service) accessIn(ctx context.Context, tx Tx, userID, orgID string) (*Access, error) {
	role, member, err := tx.Membership(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	if !member {
		return NewAccess(auth.Guest, false, nil, nil), nil
	}
	grants, err := tx.GrantsFor(ctx, orgID, userID)
	if err != nil {
		return nil, err
	}
	cols, err := tx.Collections(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return NewAccess(role, true, grants, cols), nil
}

// View is a space as one caller sees it.
type View struct {
	Space
	Role auth.Role // the caller's effective role
}

// SpacePermissions is the `permissions` object of a space.
type SpacePermissions struct {
	View, Access, Admin, ViewInviteLinks, Edit, TriggerGitSync, Comment, Merge, Review, InstallIntegration bool
}

// Permissions are what the caller may do with the space. Content edits (edit, merge, git
// sync) are off while the space is locked, whatever the role.
func (v View) Permissions() SpacePermissions {
	r := v.Role
	editable := v.EditMode != Locked
	return SpacePermissions{
		View:               r.AtLeast(auth.Read),
		Access:             r.AtLeast(auth.Read),
		Admin:              r == auth.Admin,
		ViewInviteLinks:    r == auth.Admin,
		Edit:               r.AtLeast(auth.Edit) && editable,
		TriggerGitSync:     r.AtLeast(auth.Edit) && editable,
		Comment:            r.AtLeast(auth.Comment),
		Merge:              r.AtLeast(auth.Edit) && editable,
		Review:             r.AtLeast(auth.Review),
		InstallIntegration: r == auth.Admin,
	}
}

// CollectionView is a collection as one caller sees it.
type CollectionView struct {
	Collection
	Role auth.Role
}

// CollectionPermissions is the `permissions` object of a collection.
type CollectionPermissions struct{ View, Admin, ViewInviteLinks, Create bool }

// Permissions are what the caller may do with the collection.
func (v CollectionView) Permissions() CollectionPermissions {
	return CollectionPermissions{
		View:            v.Role.AtLeast(auth.Read),
		Admin:           v.Role == auth.Admin,
		ViewInviteLinks: v.Role == auth.Admin,
		Create:          v.Role.AtLeast(auth.Create),
	}
}

// RoleOn returns a live space with the caller's effective role on it. A caller without at
// least read access gets the same 404 as for a space that does not exist. Features built on
// spaces (content, change requests, comments) call it before anything else.
func (s *Service) RoleOn(ctx context.Context, c auth.Caller, spaceID string) (View, error) {
	return s.spaceView(ctx, s.store.Read(), c, spaceID, auth.Read, false)
}

// RequireEditable refuses content edits on a locked space (409).
func RequireEditable(sp Space) error {
	if sp.EditMode == Locked {
		return apperr.New(apperr.Locked, "space %s is locked: its content cannot be edited (set editMode to live first)", sp.ID)
	}
	return nil
}

// SpaceAccess is a space with what decides one user's role on it (Tx.SpaceAccess): the part
// of the user's Access that concerns this space.
type SpaceAccess struct {
	Space  Space
	Member bool      // whether the user is an enabled member of the space's organization
	Role   auth.Role // the user's organization role, when a member
	// Grants are the grants to the user and their teams on the space and on the collections
	// above it.
	Grants []Grant
	// Ancestors are the collections above the space, up to the top of the tree or to the
	// first one outside the space's organization. Only ID, Parent and DefaultLevel are set:
	// they are all a role depends on.
	Ancestors []Collection
	// TokenLive is whether the API token asked about still exists.
	TokenLive bool
}

// role is the user's effective role on the space. The role rule only ever climbs from the
// space to the top of the tree, so the collections above the space decide it as the whole
// organization's would.
func (sa SpaceAccess) role() auth.Role {
	if !sa.Member {
		return auth.Guest
	}
	return NewAccess(sa.Role, true, sa.Grants, sa.Ancestors).SpaceRole(sa.Space)
}

// spaceView loads a space and the caller's role on it, and checks they hold at least min:
// 404 without read access (or when the space is absent, or in the trash unless trashed is
// true), 403 with read access below min.
//
// When the caller's token is still to be confirmed (auth.TokenCheck), the same statement
// reads it: a token deleted meanwhile is a 401.
func (s *Service) spaceView(ctx context.Context, tx Tx, c auth.Caller, id string, min auth.Role, trashed bool) (View, error) {
	token := c.TokenToCheck()
	sa, err := tx.SpaceAccess(ctx, id, c.UserID, token)
	if err == nil && token != "" {
		c.TokenChecked(sa.TokenLive)
		if !sa.TokenLive {
			return View{}, apperr.New(apperr.Unauthorized, "invalid API token")
		}
	}
	if err != nil || (sa.Space.DeletedAt != nil) != trashed {
		if err == nil {
			err = ErrNotFound
		}
		return View{}, notFound(err, "space %s not found", id)
	}
	v := View{Space: sa.Space, Role: sa.role()}
	if c.Installation != nil {
		// An integration installation's token: its scopes, on the spaces it covers.
		v.Role = c.Installation.SpaceRole(sa.Space.OrganizationID, sa.Space.ID)
	}
	return v, requireRole(v.Role, min, "space", id)
}

// viewOf is a space with the caller's current role on it, whatever that role is: after a
// change, the caller may have gained or lost access.
func (s *Service) viewOf(ctx context.Context, tx Tx, c auth.Caller, sp Space) (View, error) {
	acc, err := s.accessIn(ctx, tx, c.UserID, sp.OrganizationID)
	if err != nil {
		return View{}, err
	}
	return View{Space: sp, Role: acc.SpaceRole(sp)}, nil
}

// collectionView is spaceView for collections.
func (s *Service) collectionView(ctx context.Context, tx Tx, c auth.Caller, id string, min auth.Role) (CollectionView, *Access, error) {
	col, err := tx.Collection(ctx, id)
	if err != nil {
		return CollectionView{}, nil, notFound(err, "collection %s not found", id)
	}
	acc, err := s.accessIn(ctx, tx, c.UserID, col.OrganizationID)
	if err != nil {
		return CollectionView{}, nil, err
	}
	v := CollectionView{Collection: col, Role: acc.CollectionRole(id)}
	return v, acc, requireRole(v.Role, min, "collection", id)
}

// requireRole is 404 without read access and 403 below min.
func requireRole(r, min auth.Role, kind, id string) error {
	if !r.AtLeast(auth.Read) {
		return apperr.NotFoundf("%s %s not found", kind, id)
	}
	if !r.AtLeast(min) {
		return apperr.Forbiddenf("this needs the %s role on %s %s (you have %s)", min, kind, id, r)
	}
	return nil
}
