package site

import (
	"context"
	"encoding/json"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// GetCustomization returns a site's customization document (the defaults when none is set).
func (s *Service) GetCustomization(ctx context.Context, c auth.Caller, orgID, siteID string) (json.RawMessage, error) {
	st, err := s.siteIn(ctx, s.store.Read(), c, orgID, siteID, false)
	if err != nil {
		return nil, err
	}
	return effectiveSite(st), nil
}

// PutCustomization replaces a site's customization with a complete document, checked against
// the specification's shape.
func (s *Service) PutCustomization(ctx context.Context, c auth.Caller, orgID, siteID string, raw json.RawMessage) (json.RawMessage, error) {
	if err := validateJSON("customization", customizationSchema, raw); err != nil {
		return nil, err
	}
	doc, err := json.Marshal(raw) // compact
	if err != nil {
		return nil, apperr.Invalidf("customization: %v", err)
	}
	err = s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		st.Customization, st.UpdatedAt = doc, now
		return tx.UpdateSite(ctx, st)
	})
	return doc, err
}

// SiteSpaceCustomizationView is a site space's effective customization and whether it
// overrides the site's.
type SiteSpaceCustomizationView struct {
	Effective    json.RawMessage
	HasOverrides bool
}

// GetSiteSpaceCustomization returns a site space's effective customization.
func (s *Service) GetSiteSpaceCustomization(ctx context.Context, c auth.Caller, orgID, siteID, id string) (SiteSpaceCustomizationView, error) {
	tx := s.store.Read()
	st, err := s.siteIn(ctx, tx, c, orgID, siteID, false)
	if err != nil {
		return SiteSpaceCustomizationView{}, err
	}
	tr, err := tx.Tree(ctx, st.ID)
	if err != nil {
		return SiteSpaceCustomizationView{}, err
	}
	ss, ok := tr.siteSpace(id)
	if !ok {
		return SiteSpaceCustomizationView{}, apperr.NotFoundf("site space %s not found in site %s", id, siteID)
	}
	return customizationView(st, ss)
}

func customizationView(st Site, ss SiteSpace) (SiteSpaceCustomizationView, error) {
	eff, err := effectiveSiteSpace(st, ss)
	return SiteSpaceCustomizationView{Effective: eff, HasOverrides: len(ss.Customization) > 0}, err
}

// OverrideSiteSpaceCustomization merges overrides into a site space's overrides (a JSON
// merge patch: null resets a setting to the site's). The result, applied over the site's
// customization, must still have the specification's shape.
func (s *Service) OverrideSiteSpaceCustomization(ctx context.Context, c auth.Caller, orgID, siteID, id string, patch json.RawMessage) (SiteSpaceCustomizationView, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(patch, &probe); err != nil || probe == nil {
		return SiteSpaceCustomizationView{}, apperr.Invalidf("request body: must be an object of customization settings")
	}
	var out SiteSpaceCustomizationView
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		ss, ok := tr.siteSpace(id)
		if !ok {
			return apperr.NotFoundf("site space %s not found in site %s", id, siteID)
		}
		base := ss.Customization
		if len(base) == 0 {
			base = json.RawMessage(`{}`)
		}
		merged, err := mergePatch(base, patch)
		if err != nil {
			return apperr.Invalidf("request body: %v", err)
		}
		ss.Customization = merged
		if string(merged) == "{}" {
			ss.Customization = nil
		}
		eff, err := effectiveSiteSpace(st, ss)
		if err != nil {
			return err
		}
		if err := validateJSON("customization", customizationSchema, eff); err != nil {
			return err
		}
		if err := tx.UpdateSiteSpace(ctx, ss); err != nil {
			return err
		}
		out = SiteSpaceCustomizationView{Effective: eff, HasOverrides: ss.Customization != nil}
		return nil
	})
	return out, err
}

// DeleteSiteSpaceCustomization drops a site space's overrides; it then follows the site's.
func (s *Service) DeleteSiteSpaceCustomization(ctx context.Context, c auth.Caller, orgID, siteID, id string) error {
	return s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		ss, ok := tr.siteSpace(id)
		if !ok || ss.Customization == nil {
			return nil
		}
		ss.Customization = nil
		return tx.UpdateSiteSpace(ctx, ss)
	})
}
