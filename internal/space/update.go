package space

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/mergerules"
	"docsd/internal/opt"
)

// Update holds the space fields a PATCH may change; unset fields stay as they are.
type Update struct {
	Title        *string
	Emoji        opt.Field[string] // null removes the emoji (and an icon)
	Icon         opt.Field[string] // null removes the icon (and an emoji)
	Visibility   *string
	EditMode     *string
	Language     *string
	DefaultLevel opt.Field[*string] // "inherit", a role, or null for no access by default
	MergeRules   *mergerules.Config
	// First, when set, runs at the start of Patch's write transaction, before the space is
	// read: for asking, with reads that go with the write's next statement (the store's
	// QueryLater), for what the caller's answer needs besides the space. They then cost no
	// round trip of their own on PostgreSQL, and on SQLite they read the transaction's
	// connection, whose cache holds the pages (a read on another connection after a write
	// starts from a cold cache).
	First func(ctx context.Context, tx Tx) error

	level Level // DefaultLevel, parsed
}

func (u *Update) validate() error {
	if err := validateTitle("title", u.Title); err != nil {
		return err
	}
	if u.Emoji.Set && !u.Emoji.Null && u.Icon.Set && !u.Icon.Null {
		return apperr.Invalidf("emoji, icon: a space has an emoji or an icon, not both")
	}
	if u.Emoji.Set && !u.Emoji.Null {
		if err := validateEmoji(u.Emoji.Value); err != nil {
			return err
		}
	}
	if u.Icon.Set && !u.Icon.Null {
		if err := validateIcon(u.Icon.Value); err != nil {
			return err
		}
	}
	if u.Visibility != nil {
		if err := validateVisibility(*u.Visibility); err != nil {
			return err
		}
	}
	if u.EditMode != nil {
		if err := validateEditMode(*u.EditMode); err != nil {
			return err
		}
	}
	if u.Language != nil {
		if err := validateLanguage(*u.Language); err != nil {
			return err
		}
	}
	if u.DefaultLevel.Set {
		l, err := ParseLevel("defaultLevel", u.DefaultLevel.Value)
		if err != nil {
			return err
		}
		u.level = l
	}
	if u.MergeRules != nil {
		if err := u.MergeRules.Validate("mergeRules", true); err != nil {
			return err
		}
	}
	return nil
}

// requiredRole is what the update needs: the language describes the content and is for
// editors; everything else (title, look, access, edit mode, merge rules) is administration.
func (u *Update) requiredRole() auth.Role {
	if u.Title == nil && !u.Emoji.Set && !u.Icon.Set && u.Visibility == nil && u.EditMode == nil &&
		!u.DefaultLevel.Set && u.MergeRules == nil {
		return auth.Edit
	}
	return auth.Admin
}

// changesAccess tells whether the update sets a field a role on the space depends on.
func (u *Update) changesAccess() bool { return u.Visibility != nil || u.DefaultLevel.Set }

// Patch changes a space.
func (s *Service) Patch(ctx context.Context, c auth.Caller, id string, u Update) (View, error) {
	if err := u.validate(); err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		if u.First != nil {
			if err := u.First(ctx, tx); err != nil {
				return err
			}
		}
		cur, err := s.spaceView(ctx, tx, c, id, u.requiredRole(), false)
		if err != nil {
			return err
		}
		sp := cur.Space
		if u.Title != nil {
			sp.Title = *u.Title
		}
		if u.Emoji.Set {
			sp.Emoji, sp.IconURL = u.Emoji.Value, ""
		}
		if u.Icon.Set {
			sp.IconURL, sp.Emoji = u.Icon.Value, ""
		}
		if u.Visibility != nil {
			sp.Visibility = Visibility(*u.Visibility)
		}
		if u.EditMode != nil {
			sp.EditMode = EditMode(*u.EditMode)
		}
		if u.Language != nil {
			sp.Language = *u.Language
		}
		if u.DefaultLevel.Set {
			sp.DefaultLevel = u.level
		}
		if u.MergeRules != nil {
			sp.MergeRules = *u.MergeRules
		}
		if err := checkInCollection(sp.Visibility, sp.Parent); err != nil {
			return err
		}
		sp.UpdatedAt = now
		if err := tx.UpdateSpace(ctx, cur.Space, sp); err != nil {
			return err
		}
		if !u.changesAccess() {
			// The caller's role depends on the space's place, visibility and default level
			// only (accessNode): it is the one just checked, so the organization's access
			// need not be read again.
			v = View{Space: sp, Role: cur.Role}
		} else if v, err = s.viewOf(ctx, tx, c, sp); err != nil {
			// The change may have changed the caller's own role (visibility, default level).
			return err
		}
		return nil
	})
	return v, err
}
