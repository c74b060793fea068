package space

import (
	"context"

	"docsd/internal/access"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/gencache"
)

// Access is one user's access to the content of one organization: the access component's
// facts (internal/access decides every role from them) with the organization's collections,
// which lists also walk.
type Access struct {
	facts       *access.Facts
	collections map[string]Collection
	caller      auth.Caller // whose installation limits apply (accessIn)
}

// NewAccess builds the access of a user with the given membership (member is false for
// non-members and disabled members), the grants to them and their teams, and every collection
// of the organization.
func NewAccess(orgRole auth.Role, member bool, grants []Grant, collections []Collection) *Access {
	return newAccess(orgRole, member, grants, collectionMap(collections))
}

// newAccess is NewAccess over a collection map that the accesses of many users can share.
func newAccess(orgRole auth.Role, member bool, grants []Grant, collections map[string]Collection) *Access {
	return &Access{facts: access.NewFacts(orgRole, member, accessGrants(grants), collectionTree(collections)),
		collections: collections}
}

// accessGrants are grants as the access component takes them: only their target and role
// count.
func accessGrants(grants []Grant) []access.Grant {
	out := make([]access.Grant, len(grants))
	for i, g := range grants {
		out[i] = access.Grant{Target: access.Target{Kind: access.TargetKind(g.Target.Kind), ID: g.Target.ID}, Role: g.Role}
	}
	return out
}

// collectionTree is an organization's collections (or those above one space) as the access
// component climbs them.
type collectionTree map[string]Collection

func (t collectionTree) Node(id string) (access.Node, bool) {
	c, ok := t[id]
	return access.Node{Parent: c.Parent, DefaultLevel: access.Level(c.DefaultLevel)}, ok
}

func (t collectionTree) Len() int { return len(t) }

// accessNode is a space as the access component sees it.
func accessNode(s Space) access.SpaceNode {
	return access.SpaceNode{ID: s.ID, Parent: s.Parent, DefaultLevel: access.Level(s.DefaultLevel),
		Private: s.Visibility == Private, InCollection: s.Visibility == InCollection}
}

func collectionMap(cols []Collection) map[string]Collection {
	m := make(map[string]Collection, len(cols))
	for _, c := range cols {
		m[c.ID] = c
	}
	return m
}

// OrgRole is the user's role in the organization (Guest for guests and non-members).
func (a *Access) OrgRole() auth.Role { return a.facts.OrgRole() }

// Member reports whether the user is an enabled member of the organization.
func (a *Access) Member() bool { return a.facts.Member() }

// SpaceRole is the user's effective role on a space; Guest means no access.
func (a *Access) SpaceRole(s Space) auth.Role {
	return access.Limit(a.caller, s.OrganizationID, s.ID, a.facts.SpaceRole(accessNode(s)))
}

// CollectionRole is the user's effective role on a collection; Guest means no access (also
// for a collection that does not exist).
func (a *Access) CollectionRole(id string) auth.Role {
	return access.LimitCollection(a.caller, a.facts.CollectionRole(id))
}

// LevelRole is the user's role at a level of the tree where something new would go: the
// collection's role, or at the top level the organization role.
func (a *Access) LevelRole(collectionID string) auth.Role {
	return access.LimitCollection(a.caller, a.facts.LevelRole(collectionID))
}

// accessIn loads the caller's access to orgID's content.
func (s *Service) accessIn(ctx context.Context, tx Tx, c auth.Caller, orgID string) (*Access, error) {
	role, member, err := s.access.OrgRole(ctx, tx, c, orgID)
	if err != nil {
		return nil, err
	}
	if !member {
		return NewAccess(auth.Guest, false, nil, nil), nil
	}
	grants, err := tx.GrantsFor(ctx, orgID, c.UserID)
	if err != nil {
		return nil, err
	}
	cols, err := tx.Collections(ctx, orgID)
	if err != nil {
		return nil, err
	}
	acc := NewAccess(role, true, grants, cols)
	acc.caller = c
	return acc, nil
}

// View is a space as one caller sees it.
type View struct {
	Space
	Role auth.Role // the caller's effective role
}

// SpacePermissions is the `permissions` object of a space.
type SpacePermissions = access.SpacePermissions

// Permissions are what the caller may do with the space (see access.ForSpace).
func (v View) Permissions() SpacePermissions { return access.ForSpace(v.Role, v.EditMode == Locked) }

// CollectionView is a collection as one caller sees it.
type CollectionView struct {
	Collection
	Role auth.Role
}

// CollectionPermissions is the `permissions` object of a collection.
type CollectionPermissions = access.CollectionPermissions

// Permissions are what the caller may do with the collection.
func (v CollectionView) Permissions() CollectionPermissions { return access.ForCollection(v.Role) }

// RoleOn returns a live space with the caller's effective role on it. A caller without at
// least read access gets the same 404 as for a space that does not exist. Features built on
// spaces (content, change requests, comments) call it before anything else.
func (s *Service) RoleOn(ctx context.Context, c auth.Caller, spaceID string) (View, error) {
	return s.view(ctx, s.store.Read(), c, spaceID, auth.Read, false, true)
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
	// Generation is the access generation the facts were read at (see access.Checker).
	Generation uint64
}

// SpaceRow is a space read with the access generation and the token check alone
// (Tx.SpaceRow), for a caller whose facts on it the access component holds.
type SpaceRow struct {
	Space      Space
	TokenLive  bool
	Generation uint64
}

// facts is the user's access facts on the space. The role rule only ever climbs from the
// space to the top of the tree, so the collections above the space decide it as the whole
// organization's would.
func (sa SpaceAccess) facts() *access.Facts {
	if !sa.Member {
		return access.NewFacts(auth.Guest, false, nil, collectionTree(nil))
	}
	return access.NewFacts(sa.Role, true, accessGrants(sa.Grants), collectionTree(collectionMap(sa.Ancestors)))
}

// spaceFacts reads a space with the caller's access facts on it. Facts the access component
// cached at the current access generation are reused: the space is then read with the
// generation alone, and the climb of the collection tree is skipped. With cache (reads
// only), what was read is also kept for this request's generation (gencache).
func (s *Service) spaceFacts(ctx context.Context, tx Tx, userID, id, token string, cache bool) (Space, *access.Facts, bool, error) {
	gen, atGen := gencache.GenerationOf(ctx)
	key := userID + "\x00" + id + "\x00" + token
	if cache && atGen {
		// Nothing was written since the generation this was read at: the space, the token and
		// the access facts are all as they were (a deleted token, a removed grant, a moved head
		// are writes, and change the generation on every instance).
		if r, ok := s.rows.Get(key, gen); ok {
			return r.space, r.facts, r.live, nil
		}
	}
	sp, f, live, err := s.readSpaceFacts(ctx, tx, userID, id, token, cache)
	if err == nil && cache && atGen {
		s.rows.Put(key, gen, spaceFactsRow{space: sp, facts: f, live: live}, 512)
	}
	return sp, f, live, err
}

// spaceFactsRow is what spaceFacts read, kept by generation.
type spaceFactsRow struct {
	space Space
	facts *access.Facts
	live  bool
}

// readSpaceFacts is spaceFacts read from the database, through the access component's cache.
//
// A write transaction reuses cached facts too: the generation it reads in its own
// transaction is the one its decision stands on, and facts are only ever cached at a
// generation that committed. It caches what it read itself only once it has committed: a
// generation a rolled-back write moved to would be handed out again to another change.
func (s *Service) readSpaceFacts(ctx context.Context, tx Tx, userID, id, token string, cache bool) (Space, *access.Facts, bool, error) {
	if s.access.Cached(userID, id) {
		row, err := tx.SpaceRow(ctx, id, userID, token)
		if err != nil {
			return Space{}, nil, false, err
		}
		if f, ok := s.access.At(userID, id, row.Generation); ok {
			return row.Space, f, row.TokenLive, nil
		}
	}
	sa, err := tx.SpaceAccess(ctx, id, userID, token)
	if err != nil {
		return Space{}, nil, false, err
	}
	f := sa.facts()
	if cache {
		s.access.Remember(userID, id, sa.Generation, f)
	} else {
		tx.AfterCommit(func() { s.access.Remember(userID, id, sa.Generation, f) })
	}
	return sa.Space, f, sa.TokenLive, nil
}

// spaceView loads a space and the caller's role on it, and checks they hold at least min:
// 404 without read access (or when the space is absent, or in the trash unless trashed is
// true), 403 with read access below min.
//
// When the caller's token is still to be confirmed (auth.TokenCheck), the same statement
// reads it: a token deleted meanwhile is a 401.
func (s *Service) spaceView(ctx context.Context, tx Tx, c auth.Caller, id string, min auth.Role, trashed bool) (View, error) {
	return s.view(ctx, tx, c, id, min, trashed, false)
}

// view is spaceView, through the access component's cache when cache is set (reads).
func (s *Service) view(ctx context.Context, tx Tx, c auth.Caller, id string, min auth.Role, trashed, cache bool) (View, error) {
	token := c.TokenToCheck()
	sp, facts, live, err := s.spaceFacts(ctx, tx, c.UserID, id, token, cache)
	if err == nil && token != "" {
		c.TokenChecked(live)
		if !live {
			return View{}, apperr.New(apperr.Unauthorized, "invalid API token")
		}
	}
	if err != nil || (sp.DeletedAt != nil) != trashed {
		if err == nil {
			err = ErrNotFound
		}
		return View{}, notFound(err, "space %s not found", id)
	}
	v := View{Space: sp, Role: access.Limit(c, sp.OrganizationID, id, facts.SpaceRole(accessNode(sp)))}
	return v, requireRole(v.Role, min, "space", id)
}

// viewOf is a space with the caller's current role on it, whatever that role is: after a
// change, the caller may have gained or lost access.
func (s *Service) viewOf(ctx context.Context, tx Tx, c auth.Caller, sp Space) (View, error) {
	acc, err := s.accessIn(ctx, tx, c, sp.OrganizationID)
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
	acc, err := s.accessIn(ctx, tx, c, col.OrganizationID)
	if err != nil {
		return CollectionView{}, nil, err
	}
	v := CollectionView{Collection: col, Role: acc.CollectionRole(id)}
	return v, acc, requireRole(v.Role, min, "collection", id)
}

// requireRole is 404 without read access and 403 below min (access.Require).
func requireRole(r, min auth.Role, kind, id string) error { return access.Require(r, min, kind, id) }
