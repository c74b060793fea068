package site

import (
	"context"
	"encoding/json"
	"errors"

	"docsd/internal/apperr"
)

// The methods in this file serve published sites: they take no caller, and answer 404 errors
// for what does not exist. Whether a reader may see a site (published, visibility, share
// links, visitor tokens) is for the serving layer to decide with what they return.

// Find returns a site by id.
func (s *Service) Find(ctx context.Context, id string) (Site, error) {
	st, err := s.store.Read().Site(ctx, id)
	return st, siteNotFound(err, "site %s not found", id)
}

// FindByHostname returns the site with a custom hostname.
func (s *Service) FindByHostname(ctx context.Context, hostname string) (Site, error) {
	st, err := s.store.Read().SiteByHostname(ctx, hostname)
	return st, siteNotFound(err, "no site has the hostname %s", hostname)
}

// FindByBasename returns the site of an organization with a basename (see PublishedPath).
func (s *Service) FindByBasename(ctx context.Context, orgID, basename string) (Site, error) {
	st, err := s.store.Read().SiteByBasename(ctx, orgID, basename)
	return st, siteNotFound(err, "site %s not found in organization %s", basename, orgID)
}

// Tree returns a site's structure (call Tree.Structure for it in order). Site spaces whose
// space is in the trash are left out.
func (s *Service) Tree(ctx context.Context, siteID string) (Tree, error) {
	return s.store.Read().Tree(ctx, siteID)
}

// ActiveShareLink returns the active share link of siteID with key; 404 when the key is
// unknown, belongs to another site, or its link is inactive.
func (s *Service) ActiveShareLink(ctx context.Context, siteID, key string) (ShareLink, error) {
	l, err := s.store.Read().ShareLinkByKey(ctx, key)
	if errors.Is(err, ErrNotFound) || (err == nil && (l.SiteID != siteID || !l.Active)) {
		return ShareLink{}, apperr.NotFoundf("no active share link with this key")
	}
	return l, err
}

// SiteCustomization returns a site's effective customization (the defaults when it has none).
func (s *Service) SiteCustomization(st Site) (Customization, error) {
	return decodeCustomization(effectiveSite(st))
}

// SiteSpaceCustomization returns a site space's effective customization: the site's, with
// the site space's overrides applied.
func (s *Service) SiteSpaceCustomization(st Site, ss SiteSpace) (Customization, error) {
	raw, err := effectiveSiteSpace(st, ss)
	if err != nil {
		return Customization{}, err
	}
	return decodeCustomization(raw)
}

// EffectiveCustomization is a site space's effective customization as a JSON document (the
// site's, with the site space's overrides merged in), without decoding it.
func EffectiveCustomization(st Site, ss SiteSpace) (json.RawMessage, error) {
	return effectiveSiteSpace(st, ss)
}

func siteNotFound(err error, format string, args ...any) error {
	if errors.Is(err, ErrNotFound) {
		return apperr.NotFoundf(format, args...)
	}
	return err
}
