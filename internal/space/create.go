package space

import (
	"context"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/mergerules"
)

// NewSpace holds what a caller may choose when creating a space; nil leaves the default.
type NewSpace struct {
	Title      *string
	Emoji      *string
	Parent     *string // collection id
	Language   *string
	EditMode   *string
	Visibility *string // default: in-collection inside a collection, private at the top level
}

func (n *NewSpace) validate() error {
	if err := validateTitle("title", n.Title); err != nil {
		return err
	}
	if n.Emoji != nil {
		if err := validateEmoji(*n.Emoji); err != nil {
			return err
		}
	}
	if n.Language != nil {
		if err := validateLanguage(*n.Language); err != nil {
			return err
		}
	}
	if n.EditMode != nil {
		if err := validateEditMode(*n.EditMode); err != nil {
			return err
		}
	}
	if n.Visibility != nil {
		if err := validateVisibility(*n.Visibility); err != nil {
			return err
		}
	}
	return nil
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// Create makes a space in an organization, at the end of its level. It needs the create role
// where the space goes: in the organization for the top level, on the collection otherwise.
func (s *Service) Create(ctx context.Context, c auth.Caller, orgID string, n NewSpace) (View, error) {
	if err := n.validate(); err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	sp := Space{ID: ids.New(), OrganizationID: orgID, Parent: deref(n.Parent), Title: deref(n.Title), Emoji: deref(n.Emoji),
		Language: deref(n.Language), EditMode: Live, DefaultLevel: Inherit, Visibility: Private,
		MergeRules: mergerules.Config{Type: mergerules.TypeInherit}, CreatedAt: now, UpdatedAt: now,
		Revision: ids.New()} // the space's first revision, empty, which the store writes with it
	if n.EditMode != nil {
		sp.EditMode = EditMode(*n.EditMode)
	}
	if sp.Parent != "" {
		sp.Visibility = InCollection
	}
	if n.Visibility != nil {
		sp.Visibility = Visibility(*n.Visibility)
	}
	if err := checkInCollection(sp.Visibility, sp.Parent); err != nil {
		return View{}, err
	}
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		acc, position, err := s.newPlace(ctx, tx, c, orgID, sp.Parent)
		if err != nil {
			return err
		}
		sp.Position = position
		if err := tx.InsertSpace(ctx, sp); err != nil {
			return err
		}
		if err := grantCreator(ctx, tx, acc, c, Target{SpaceKind, sp.ID}, now); err != nil {
			return err
		}
		v, err = s.viewOf(ctx, tx, c, sp)
		return err
	})
	return v, err
}

// newPlace checks that the caller may create something at a level of orgID (the top level,
// or the collection parent) and returns their access and the position at the end of it.
func (s *Service) newPlace(ctx context.Context, tx Tx, c auth.Caller, orgID, parent string) (*Access, string, error) {
	acc, err := s.accessIn(ctx, tx, c, orgID)
	if err != nil {
		return nil, "", err
	}
	if !acc.Member() {
		return nil, "", apperr.NotFoundf("organization %s not found", orgID)
	}
	if err := requireCreate(acc, parent, "parent"); err != nil {
		return nil, "", err
	}
	t, err := loadTree(ctx, tx, orgID)
	if err != nil {
		return nil, "", err
	}
	return acc, t.end(parent), t.checkParent(parent)
}

// requireCreate checks that the caller may create content at a level: a collection they can
// see (otherwise the request field naming it, if any, is invalid) with the create role on it,
// or the top level with the create role in the organization.
func requireCreate(acc *Access, parent, field string) error {
	role := acc.LevelRole(parent)
	if parent != "" && field != "" && !role.AtLeast(auth.Read) {
		return apperr.Invalidf("%s: collection %s not found in the organization", field, parent)
	}
	if !role.AtLeast(auth.Create) {
		if parent == "" {
			return apperr.Forbiddenf("creating content at the top level needs the create role in the organization (you have %s)", roleName(role))
		}
		return apperr.Forbiddenf("creating content in collection %s needs the create role on it (you have %s)", parent, roleName(role))
	}
	return nil
}

func roleName(r auth.Role) string {
	if r == auth.Guest {
		return "no role"
	}
	return string(r)
}

// grantCreator makes the creator of a space or collection its admin. Organization admins
// are admins of everything already and get no grant.
func grantCreator(ctx context.Context, tx Tx, acc *Access, c auth.Caller, t Target, now time.Time) error {
	if acc.OrgRole() == auth.Admin {
		return nil
	}
	return tx.PutGrant(ctx, Grant{Target: t, Principal: Principal{UserPrincipal, c.UserID}, Role: auth.Admin}, now)
}

// Get returns a live space the caller can read.
func (s *Service) Get(ctx context.Context, c auth.Caller, id string) (View, error) {
	return s.RoleOn(ctx, c, id)
}

// Duplicate makes a new space with the settings and grants of a space the caller can read,
// right after it. It needs the create role where the copy goes. The copy starts from the
// same revision: content is immutable and shared, never copied.
func (s *Service) Duplicate(ctx context.Context, c auth.Caller, id string) (View, error) {
	now := s.clock.Now()
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		src, err := s.spaceView(ctx, tx, c, id, auth.Read, false)
		if err != nil {
			return err
		}
		acc, err := s.accessIn(ctx, tx, c, src.OrganizationID)
		if err != nil {
			return err
		}
		if err := requireCreate(acc, src.Parent, ""); err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, src.OrganizationID)
		if err != nil {
			return err
		}
		sp := src.Space
		sp.ID, sp.CreatedAt, sp.UpdatedAt = ids.New(), now, now
		sp.OpenComments = 0 // discussions stay with the source
		sp.Position = t.after(sp.Parent, Pointer{SpaceKind, src.ID})
		if err := tx.InsertSpace(ctx, sp); err != nil {
			return err
		}
		target := Target{SpaceKind, sp.ID}
		if err := tx.CopyGrants(ctx, Target{SpaceKind, src.ID}, target, now); err != nil {
			return err
		}
		if err := grantCreator(ctx, tx, acc, c, target, now); err != nil {
			return err
		}
		v, err = s.viewOf(ctx, tx, c, sp)
		return err
	})
	return v, err
}
