package integration

import (
	"context"
	"errors"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// Every permission rule of integrations is in this file.
//
//   - A public or unlisted integration is seen by every caller; a private one only by the
//     members of its owning organization (others get 404).
//   - Only the owning organization's admins publish, update and unpublish it, set its
//     development mode, read its events and installations, and queue its tasks.
//   - An organization's admins install it (when they can see it), change and remove the
//     installation and its space and site installations; its members read them.
//   - An installation token acts for its installation alone: on its own installation, and
//     within the installation's scopes on the spaces and sites it covers.

// member reports the caller's role in orgID, with member false for non-members and for an
// installation token of another organization.
func (s *Service) member(ctx context.Context, c auth.Caller, orgID string) (auth.Role, bool, error) {
	if c.Installation != nil {
		return auth.Guest, false, nil
	}
	return s.orgs.Role(ctx, c, orgID)
}

// canSee reports whether the caller may see the integration at all.
func (s *Service) canSee(ctx context.Context, c auth.Caller, it Integration) (bool, error) {
	if it.Visibility != "private" {
		return true, nil
	}
	if c.Installation != nil {
		return c.Installation.Integration == it.Name, nil
	}
	_, member, err := s.member(ctx, c, it.OrgID)
	return member, err
}

// isOwnerAdmin reports whether the caller administers the integration's owner.
func (s *Service) isOwnerAdmin(ctx context.Context, c auth.Caller, it Integration) (bool, error) {
	role, member, err := s.member(ctx, c, it.OrgID)
	return member && role == auth.Admin, err
}

// visible loads an integration the caller may see (404 otherwise).
func (s *Service) visible(ctx context.Context, tx Tx, c auth.Caller, name string) (Integration, error) {
	it, err := tx.Integration(ctx, name)
	if errors.Is(err, ErrNotFound) {
		return it, apperr.NotFoundf("integration %s not found", name)
	}
	if err != nil {
		return it, err
	}
	ok, err := s.canSee(ctx, c, it)
	if err != nil {
		return it, err
	}
	if !ok {
		return it, apperr.NotFoundf("integration %s not found", name)
	}
	return it, nil
}

// owned loads an integration the caller administers: 404 when they cannot see it, 403 when
// they can but are not its owner's admin.
func (s *Service) owned(ctx context.Context, tx Tx, c auth.Caller, name string) (Integration, error) {
	it, err := s.visible(ctx, tx, c, name)
	if err != nil {
		return it, err
	}
	ok, err := s.isOwnerAdmin(ctx, c, it)
	if err != nil {
		return it, err
	}
	if !ok {
		return it, apperr.Forbiddenf("only admins of the integration's organization may do this")
	}
	return it, nil
}

// requireOrgAdmin checks that the caller administers orgID: 404 for non-members, 403 for other
// members.
func (s *Service) requireOrgAdmin(ctx context.Context, c auth.Caller, orgID string) error {
	role, member, err := s.member(ctx, c, orgID)
	if err != nil {
		return err
	}
	if !member {
		return apperr.NotFoundf("organization %s not found", orgID)
	}
	if role != auth.Admin {
		return apperr.Forbiddenf("only organization admins may manage integrations")
	}
	return nil
}

// requireOrgMember checks that the caller is a member of orgID (404 otherwise); guests get 403.
func (s *Service) requireOrgMember(ctx context.Context, c auth.Caller, orgID string) error {
	role, member, err := s.member(ctx, c, orgID)
	if err != nil {
		return err
	}
	if !member {
		return apperr.NotFoundf("organization %s not found", orgID)
	}
	if role == auth.Guest {
		return apperr.Forbiddenf("guests of the organization have no access to its integrations")
	}
	return nil
}

// readInstallation decides who reads an installation: its organization's members, its
// integration's owner admins, and its own token.
func (s *Service) readInstallation(ctx context.Context, c auth.Caller, it Integration, in Installation) error {
	if c.Installation != nil {
		if c.Installation.ID == in.ID {
			return nil
		}
		return apperr.NotFoundf("installation %s not found", in.ID)
	}
	if ok, err := s.isOwnerAdmin(ctx, c, it); err != nil || ok {
		return err
	}
	return s.requireOrgMember(ctx, c, in.OrgID)
}

// writeInstallation decides who changes an installation: its organization's admins, and its own
// token (for configuration and external ids, as integrations do at setup).
func (s *Service) writeInstallation(ctx context.Context, c auth.Caller, in Installation) error {
	if c.Installation != nil {
		if c.Installation.ID == in.ID {
			return nil
		}
		return apperr.NotFoundf("installation %s not found", in.ID)
	}
	return s.requireOrgAdmin(ctx, c, in.OrgID)
}

// TokenAllows reports whether an installation token may act with scope on a space or site of
// orgID: the installation must hold the scope, belong to orgID and cover the target.
func TokenAllows(g *auth.InstallationGrant, scope string, kind Kind, orgID, targetID string) bool {
	if g == nil || g.OrgID != orgID || !slices.Contains(g.Scopes, scope) {
		return false
	}
	switch kind {
	case SpaceKind:
		return g.AllSpaces || slices.Contains(g.Spaces, targetID)
	case SiteKind:
		return g.AllSites || slices.Contains(g.Sites, targetID)
	}
	return false
}
