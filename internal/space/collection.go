package space

import (
	"context"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/validate"
)

// CreateCollection makes a collection at the end of its level (the top level, or inside
// parent). It needs the create role there, as for spaces.
func (s *Service) CreateCollection(ctx context.Context, c auth.Caller, orgID string, title, parent *string) (CollectionView, error) {
	if err := validateTitle("title", title); err != nil {
		return CollectionView{}, err
	}
	now := s.clock.Now()
	col := Collection{ID: ids.New(), OrganizationID: orgID, Parent: deref(parent), Title: deref(title),
		DefaultLevel: Inherit, CreatedAt: now, UpdatedAt: now}
	var v CollectionView
	err := s.store.Write(ctx, now, func(tx Tx) error {
		acc, position, err := s.newPlace(ctx, tx, c, orgID, col.Parent)
		if err != nil {
			return err
		}
		col.Position = position
		if err := tx.InsertCollection(ctx, col); err != nil {
			return err
		}
		if err := grantCreator(ctx, tx, acc, c, Target{CollectionKind, col.ID}, now); err != nil {
			return err
		}
		v, err = s.collectionViewOf(ctx, tx, c, col)
		return err
	})
	return v, err
}

// collectionViewOf is a collection with the caller's current role on it, whatever it is.
func (s *Service) collectionViewOf(ctx context.Context, tx Tx, c auth.Caller, col Collection) (CollectionView, error) {
	acc, err := s.accessIn(ctx, tx, c, col.OrganizationID)
	if err != nil {
		return CollectionView{}, err
	}
	return CollectionView{Collection: col, Role: acc.CollectionRole(col.ID)}, nil
}

// GetCollection returns a collection the caller can read.
func (s *Service) GetCollection(ctx context.Context, c auth.Caller, id string) (CollectionView, error) {
	v, _, err := s.collectionView(ctx, s.store.Read(), c, id, auth.Read)
	return v, err
}

// CollectionUpdate holds the collection fields a PATCH may change.
type CollectionUpdate struct {
	Title        *string
	Description  opt.Field[string]  // null removes
	DefaultLevel opt.Field[*string] // "inherit", a role, or null
}

// PatchCollection changes a collection; only its admins may.
func (s *Service) PatchCollection(ctx context.Context, c auth.Caller, id string, u CollectionUpdate) (CollectionView, error) {
	if err := validateTitle("title", u.Title); err != nil {
		return CollectionView{}, err
	}
	var desc *string
	if u.Description.Set && !u.Description.Null {
		d := strings.TrimSpace(u.Description.Value)
		if err := validate.Length("description", d, 0, DescriptionMax); err != nil {
			return CollectionView{}, err
		}
		desc = &d
	}
	var level Level
	if u.DefaultLevel.Set {
		l, err := ParseLevel("defaultLevel", u.DefaultLevel.Value)
		if err != nil {
			return CollectionView{}, err
		}
		level = l
	}
	now := s.clock.Now()
	var v CollectionView
	err := s.store.Write(ctx, now, func(tx Tx) error {
		cur, _, err := s.collectionView(ctx, tx, c, id, auth.Admin)
		if err != nil {
			return err
		}
		col := cur.Collection
		if u.Title != nil {
			col.Title = *u.Title
		}
		if u.Description.Set {
			col.Description = desc
		}
		if u.DefaultLevel.Set {
			col.DefaultLevel = level
		}
		col.UpdatedAt = now
		if err := tx.UpdateCollection(ctx, col); err != nil {
			return err
		}
		v, err = s.collectionViewOf(ctx, tx, c, col)
		return err
	})
	return v, err
}

// DeleteCollection deletes an empty collection for good. A collection that still holds live
// spaces or collections is refused with 409: they must be moved or deleted first, so nothing
// disappears by surprise. Spaces in the trash that belonged to it would be restored at the
// top level. Absent or invisible collections are deleted already, as far as the caller knows.
func (s *Service) DeleteCollection(ctx context.Context, c auth.Caller, id string) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		cur, _, err := s.collectionView(ctx, tx, c, id, auth.Admin)
		if apperr.Is(err, apperr.NotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		t, err := loadTree(ctx, tx, cur.OrganizationID)
		if err != nil {
			return err
		}
		if n := len(t.level(id)); n > 0 {
			return apperr.Conflictf("collection %s still holds %d spaces or collections: move or delete them first", id, n)
		}
		return tx.DeleteCollection(ctx, id)
	})
}

// MoveCollection places a collection under another one (or the top level) and/or before or
// after a sibling there. A collection can never move inside itself or its descendants.
func (s *Service) MoveCollection(ctx context.Context, c auth.Caller, id string, m Move) (CollectionView, error) {
	if err := m.validate(); err != nil {
		return CollectionView{}, err
	}
	now := s.clock.Now()
	var v CollectionView
	err := s.store.Write(ctx, now, func(tx Tx) error {
		cur, acc, err := s.collectionView(ctx, tx, c, id, auth.Admin)
		if err != nil {
			return err
		}
		v, err = s.moveCollection(ctx, tx, c, acc, cur.Collection, m.destination(cur.Parent), m.Position, now)
		return err
	})
	return v, err
}

// moveCollection moves a collection within its organization.
func (s *Service) moveCollection(ctx context.Context, tx Tx, c auth.Caller, acc *Access, col Collection, dest string, pos *Position, now time.Time) (CollectionView, error) {
	t, err := loadTree(ctx, tx, col.OrganizationID)
	if err != nil {
		return CollectionView{}, err
	}
	if t.isWithin(dest, col.ID) {
		return CollectionView{}, apperr.Invalidf("parent: a collection cannot move inside itself or its descendants")
	}
	if dest != col.Parent {
		if err := requireCreate(acc, dest, "parent"); err != nil {
			return CollectionView{}, err
		}
	}
	position, unchanged, err := t.place(dest, Pointer{CollectionKind, col.ID}, dest == col.Parent, pos)
	if err != nil {
		return CollectionView{}, err
	}
	if unchanged {
		return CollectionView{}, apperr.Conflictf("collection %s is already there: the operation would not result in any update", col.ID)
	}
	col.Parent, col.Position, col.UpdatedAt = dest, position, now
	if err := tx.UpdateCollection(ctx, col); err != nil {
		return CollectionView{}, err
	}
	return s.collectionViewOf(ctx, tx, c, col)
}

// TransferCollection hands a collection, with everything inside it, to another organization
// (at its top level or into parent), with the rules of Transfer: admin on the collection,
// admin of the target, and no locked space inside (412). Within the same organization it is
// a move to parent.
func (s *Service) TransferCollection(ctx context.Context, c auth.Caller, id, orgID string, parent *string) (CollectionView, error) {
	if err := validateTransfer(orgID, parent); err != nil {
		return CollectionView{}, err
	}
	dest := deref(parent)
	now := s.clock.Now()
	var v CollectionView
	err := s.store.Write(ctx, now, func(tx Tx) error {
		cur, acc, err := s.collectionView(ctx, tx, c, id, auth.Admin)
		if err != nil {
			return err
		}
		col := cur.Collection
		if orgID == col.OrganizationID {
			if dest == col.Parent {
				return apperr.Conflictf("collection %s is already there: the transfer would not result in any update", id)
			}
			v, err = s.moveCollection(ctx, tx, c, acc, col, dest, nil, now)
			return err
		}
		t, err := s.transferTarget(ctx, tx, c, col.OrganizationID, orgID, dest)
		if err != nil {
			return err
		}
		src, err := loadTree(ctx, tx, col.OrganizationID)
		if err != nil {
			return err
		}
		for _, sp := range src.spaces {
			if sp.EditMode == Locked && src.isWithin(sp.Parent, id) {
				return apperr.New(apperr.PreconditionFailed, "collection %s cannot be moved to another organization: it holds the locked space %s", id, sp.ID)
			}
		}
		sub := src.subtree(id)
		col.OrganizationID, col.Parent, col.Position, col.UpdatedAt = orgID, dest, t.end(dest), now
		if err := tx.UpdateCollection(ctx, col); err != nil {
			return err
		}
		if err := tx.MoveTreeToOrganization(ctx, orgID, sub, now); err != nil {
			return err
		}
		v, err = s.collectionViewOf(ctx, tx, c, col)
		return err
	})
	return v, err
}
