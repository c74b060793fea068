package site

import (
	"context"
	"time"

	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/validate"
)

// FallbackURLMax bounds a visitor-auth fallback URL.
const FallbackURLMax = 2048

// GetVisitorAuth returns a site's visitor-auth settings with its signing key; only admins
// may read the key.
func (s *Service) GetVisitorAuth(ctx context.Context, c auth.Caller, orgID, siteID string) (VisitorAuthSettings, error) {
	st, err := s.siteIn(ctx, s.store.Read(), c, orgID, siteID, true)
	return st.VisitorAuth, err
}

// VisitorAuthUpdate holds what PATCH publishing/auth changes.
type VisitorAuthUpdate struct {
	Backend     *string
	FallbackURL opt.Field[string] // null unsets
}

// PatchVisitorAuth changes a site's visitor-auth backend or fallback URL.
func (s *Service) PatchVisitorAuth(ctx context.Context, c auth.Caller, orgID, siteID string, u VisitorAuthUpdate) (VisitorAuthSettings, error) {
	if u.Backend == nil {
		return VisitorAuthSettings{}, validate.Required("backend")
	}
	if err := validate.OneOf("backend", *u.Backend, "custom", "integration"); err != nil {
		return VisitorAuthSettings{}, err
	}
	if u.FallbackURL.Set && !u.FallbackURL.Null {
		if err := validate.HTTPURL("fallbackURL", u.FallbackURL.Value, FallbackURLMax); err != nil {
			return VisitorAuthSettings{}, err
		}
	}
	var out VisitorAuthSettings
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		st.VisitorAuth.Backend = *u.Backend
		if u.FallbackURL.Set {
			st.VisitorAuth.FallbackURL = u.FallbackURL.Value
		}
		st.UpdatedAt = now
		out = st.VisitorAuth
		return tx.UpdateSite(ctx, st)
	})
	return out, err
}

// RegenerateVisitorAuthKey replaces a site's signing key: tokens signed with the old key stop
// being accepted at once.
func (s *Service) RegenerateVisitorAuthKey(ctx context.Context, c auth.Caller, orgID, siteID string) (VisitorAuthSettings, error) {
	var out VisitorAuthSettings
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		st.VisitorAuth.Key, st.UpdatedAt = ids.Secret(), now
		out = st.VisitorAuth
		return tx.UpdateSite(ctx, st)
	})
	return out, err
}
