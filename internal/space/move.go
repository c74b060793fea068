package space

import (
	"context"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/opt"
)

// Move is a move request: a new parent, a position among the siblings, or both.
type Move struct {
	Parent   opt.Field[string] // absent: the same level; null: the top level
	Position *Position
}

func (m Move) validate() error {
	if !m.Parent.Set && m.Position == nil {
		return apperr.Invalidf("parent, position: give at least one")
	}
	if m.Parent.Set && !m.Parent.Null && m.Parent.Value == "" {
		return apperr.Invalidf("parent: must be a collection id, or null for the top level")
	}
	if m.Position != nil && m.Position.Before == nil && m.Position.After == nil {
		return apperr.Invalidf("position: give before, after or both")
	}
	return nil
}

// destination is the parent a move leads to from the current one.
func (m Move) destination(current string) string {
	if !m.Parent.Set {
		return current
	}
	return m.Parent.Value
}

// Move places a space under another collection (or the top level) and/or before or after a
// sibling there. It needs admin on the space, and the create role where it lands when it
// changes level. A space leaving collections cannot stay in-collection: it becomes private.
func (s *Service) Move(ctx context.Context, c auth.Caller, id string, m Move) (View, error) {
	if err := m.validate(); err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		cur, err := s.spaceView(ctx, tx, c, id, auth.Admin, false)
		if err != nil {
			return err
		}
		v, err = s.moveSpace(ctx, tx, c, cur.Space, m.destination(cur.Parent), m.Position, now)
		return err
	})
	return v, err
}

// moveSpace moves a space within its organization.
func (s *Service) moveSpace(ctx context.Context, tx Tx, c auth.Caller, sp Space, dest string, pos *Position, now time.Time) (View, error) {
	was := sp
	sameLevel := dest == sp.Parent
	if !sameLevel {
		acc, err := s.accessIn(ctx, tx, c, sp.OrganizationID)
		if err != nil {
			return View{}, err
		}
		if err := requireCreate(acc, dest, "parent"); err != nil {
			return View{}, err
		}
	}
	t, err := loadTree(ctx, tx, sp.OrganizationID)
	if err != nil {
		return View{}, err
	}
	position, unchanged, err := t.place(dest, Pointer{SpaceKind, sp.ID}, sameLevel, pos)
	if err != nil {
		return View{}, err
	}
	if unchanged {
		return View{}, apperr.Conflictf("space %s is already there: the operation would not result in any update", sp.ID)
	}
	sp.Parent, sp.Position, sp.UpdatedAt = dest, position, now
	leaveCollection(&sp)
	if err := tx.UpdateSpace(ctx, was, sp); err != nil {
		return View{}, err
	}
	return s.viewOf(ctx, tx, c, sp)
}

// leaveCollection keeps the in-collection rule true for a space that lands at the top level.
func leaveCollection(sp *Space) {
	if sp.Parent == "" && sp.Visibility == InCollection {
		sp.Visibility = Private
	}
}

// Transfer hands a space to another organization, at the top level or into one of its
// collections (parent). The caller needs admin on the space and must be an admin of the
// target organization. Within the same organization it is a move to parent. A locked space
// cannot change organization (412): its admins froze it, and the target's admins could
// change it. Team grants, and grants to users who are not members of the target, stay behind.
func (s *Service) Transfer(ctx context.Context, c auth.Caller, id, orgID string, parent *string) (View, error) {
	if err := validateTransfer(orgID, parent); err != nil {
		return View{}, err
	}
	dest := deref(parent)
	now := s.clock.Now()
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		cur, err := s.spaceView(ctx, tx, c, id, auth.Admin, false)
		if err != nil {
			return err
		}
		sp := cur.Space
		if orgID == sp.OrganizationID {
			if dest == sp.Parent {
				return apperr.Conflictf("space %s is already there: the transfer would not result in any update", id)
			}
			v, err = s.moveSpace(ctx, tx, c, sp, dest, nil, now)
			return err
		}
		t, err := s.transferTarget(ctx, tx, c, sp.OrganizationID, orgID, dest)
		if err != nil {
			return err
		}
		if sp.EditMode == Locked {
			return apperr.New(apperr.PreconditionFailed, "space %s cannot be moved to another organization while it is locked", id)
		}
		sp.OrganizationID, sp.Parent, sp.Position, sp.UpdatedAt = orgID, dest, t.end(dest), now
		leaveCollection(&sp)
		if err := tx.UpdateSpace(ctx, cur.Space, sp); err != nil {
			return err
		}
		if err := tx.DropForeignGrants(ctx, orgID, []Target{{SpaceKind, sp.ID}}); err != nil {
			return err
		}
		v, err = s.viewOf(ctx, tx, c, sp)
		return err
	})
	return v, err
}

func validateTransfer(orgID string, parent *string) error {
	if orgID == "" {
		return apperr.Invalidf("organization: is required")
	}
	if parent != nil && *parent == "" {
		return apperr.Invalidf("parent: must be a collection id of the target organization")
	}
	return nil
}

// transferTarget checks that the caller administers the target organization, locks both
// trees (in a fixed order, so two opposite transfers cannot deadlock) and returns the
// target's tree, with dest checked to be one of its collections.
func (s *Service) transferTarget(ctx context.Context, tx Tx, c auth.Caller, fromOrg, toOrg, dest string) (*orgTree, error) {
	role, member, err := s.access.OrgRole(ctx, tx, c, toOrg)
	if err != nil {
		return nil, err
	}
	if !member {
		return nil, apperr.NotFoundf("organization %s not found", toOrg)
	}
	if role != auth.Admin {
		return nil, apperr.Forbiddenf("transferring into organization %s needs its admin role", toOrg)
	}
	first, second := fromOrg, toOrg
	if second < first {
		first, second = second, first
	}
	if err := tx.LockTree(ctx, first); err != nil {
		return nil, err
	}
	if err := tx.LockTree(ctx, second); err != nil {
		return nil, err
	}
	t, err := loadTree(ctx, tx, toOrg)
	if err != nil {
		return nil, err
	}
	if _, ok := t.cols[dest]; dest != "" && !ok {
		return nil, apperr.Invalidf("parent: collection %s not found in organization %s", dest, toOrg)
	}
	return t, nil
}
