package site

import (
	"context"
	"errors"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// orgAccess checks that the caller is an enabled member of orgID (404 otherwise), not a guest
// (403) and, when admin is true, an admin of it (403 for other members). It returns their role.
func (s *Service) orgAccess(ctx context.Context, c auth.Caller, orgID string, admin bool) (auth.Role, error) {
	role, member, err := s.orgs.Role(ctx, c, orgID)
	if err != nil {
		return role, err
	}
	if !member {
		return role, apperr.NotFoundf("organization %s not found", orgID)
	}
	// Guests see only the content they are granted; a site's structure would show them the
	// titles of every published space, so sites are closed to them.
	if role == auth.Guest {
		return role, apperr.Forbiddenf("guests of the organization have no access to its sites")
	}
	if admin && role != auth.Admin {
		return role, apperr.Forbiddenf("only organization admins may change sites")
	}
	return role, nil
}

// siteIn loads a site of orgID for the caller (see orgAccess); a site of another
// organization is as absent as one that does not exist.
func (s *Service) siteIn(ctx context.Context, tx Tx, c auth.Caller, orgID, id string, admin bool) (Site, error) {
	if _, err := s.orgAccess(ctx, c, orgID, admin); err != nil {
		return Site{}, err
	}
	return loadSite(ctx, tx, orgID, id)
}

// loadSite loads a site of orgID; a site of another organization is absent.
func loadSite(ctx context.Context, tx Tx, orgID, id string) (Site, error) {
	st, err := tx.Site(ctx, id)
	if errors.Is(err, ErrNotFound) || (err == nil && st.OrganizationID != orgID) {
		return Site{}, apperr.NotFoundf("site %s not found", id)
	}
	return st, err
}

// write runs fn in a write transaction on a site the caller administers, with the time the
// transaction reads once.
func (s *Service) write(ctx context.Context, c auth.Caller, orgID, siteID string, fn func(tx Tx, st Site, now time.Time) error) error {
	if _, err := s.orgAccess(ctx, c, orgID, true); err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		st, err := loadSite(ctx, tx, orgID, siteID)
		if err != nil {
			return err
		}
		return fn(tx, st, now)
	})
}
