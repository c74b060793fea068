package site

import (
	"context"
	"errors"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// CreateShareLink makes an active share link with a fresh secret key (40 random base62
// characters from crypto/rand, unrelated to its id).
func (s *Service) CreateShareLink(ctx context.Context, c auth.Caller, orgID, siteID string, name *string) (Site, ShareLink, error) {
	if name == nil {
		return Site{}, ShareLink{}, validate.Required("name")
	}
	if err := validate.Length("name", *name, 0, ShareLinkNameMax); err != nil {
		return Site{}, ShareLink{}, err
	}
	var site Site
	l := ShareLink{ID: ids.New(), SiteID: siteID, Name: *name, Key: ids.Secret(), Active: true}
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		site, l.CreatedAt = st, now
		return tx.InsertShareLink(ctx, l)
	})
	return site, l, err
}

// ListShareLinks lists a site's share links, oldest first, to its admins (they show keys).
func (s *Service) ListShareLinks(ctx context.Context, c auth.Caller, orgID, siteID string, page paging.Request) (Site, paging.Result[ShareLink], error) {
	tx := s.store.Read()
	st, err := s.siteIn(ctx, tx, c, orgID, siteID, true)
	if err != nil {
		return Site{}, paging.Result[ShareLink]{}, err
	}
	res, err := tx.ListShareLinks(ctx, st.ID, page)
	return st, res, err
}

// ShareLinkUpdate holds the share link fields a PATCH may change.
type ShareLinkUpdate struct {
	Active *bool
	Name   *string
}

// PatchShareLink renames a share link, or activates or deactivates it.
func (s *Service) PatchShareLink(ctx context.Context, c auth.Caller, orgID, siteID, id string, u ShareLinkUpdate) (Site, ShareLink, error) {
	if u.Active == nil && u.Name == nil {
		return Site{}, ShareLink{}, apperr.Invalidf("request body: give active or name (or both)")
	}
	if u.Name != nil {
		if err := validate.Length("name", *u.Name, 0, ShareLinkNameMax); err != nil {
			return Site{}, ShareLink{}, err
		}
	}
	var site Site
	var l ShareLink
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		site = st
		var err error
		l, err = tx.ShareLink(ctx, st.ID, id)
		if errors.Is(err, ErrNotFound) {
			return apperr.NotFoundf("share link %s not found in site %s", id, siteID)
		}
		if err != nil {
			return err
		}
		if u.Active != nil {
			l.Active = *u.Active
		}
		if u.Name != nil {
			l.Name = *u.Name
		}
		return tx.UpdateShareLink(ctx, l)
	})
	return site, l, err
}

// DeleteShareLink removes a share link; absent ones are removed already.
func (s *Service) DeleteShareLink(ctx context.Context, c auth.Caller, orgID, siteID, id string) error {
	return s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error { return tx.DeleteShareLink(ctx, st.ID, id) })
}
