package site

import (
	"context"
	"errors"
	"time"

	"docsd/internal/access"
	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// orgAccess is the caller's role on orgID's sites, read in tx (access.RequireSite): 404 for
// non-members, 403 for guests and, when admin is true, for members who are not admins.
func (s *Service) orgAccess(ctx context.Context, tx Tx, c auth.Caller, orgID string, admin bool) (auth.Role, error) {
	role, member, err := s.access.OrgRole(ctx, tx, c, orgID)
	if err != nil {
		return role, err
	}
	return access.RequireSite(role, member, admin, orgID)
}

// siteIn loads a site of orgID for the caller (see orgAccess); a site of another
// organization is as absent as one that does not exist.
func (s *Service) siteIn(ctx context.Context, tx Tx, c auth.Caller, orgID, id string, admin bool) (Site, error) {
	if _, err := s.orgAccess(ctx, tx, c, orgID, admin); err != nil {
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
// transaction reads once. The permission is checked in the same transaction.
func (s *Service) write(ctx context.Context, c auth.Caller, orgID, siteID string, fn func(tx Tx, st Site, now time.Time) error) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.orgAccess(ctx, tx, c, orgID, true); err != nil {
			return err
		}
		st, err := loadSite(ctx, tx, orgID, siteID)
		if err != nil {
			return err
		}
		return fn(tx, st, now)
	})
}
