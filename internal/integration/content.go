package integration

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// Space and site installations: an organization's installation placed on one of its spaces or
// sites, with a configuration of its own.

// target checks that the caller may see a space or site of the installation's organization,
// and returns its organization (404 for another organization's).
func (s *Service) targetOrg(ctx context.Context, c auth.Caller, kind Kind, orgID, id string) error {
	if c.Installation != nil {
		return nil // the token's own installation; the organization is checked by the caller
	}
	switch kind {
	case SpaceKind:
		v, err := s.spaces.RoleOn(ctx, c, id)
		if err != nil {
			return err
		}
		if v.OrganizationID != orgID {
			return apperr.NotFoundf("space %s not found", id)
		}
	case SiteKind:
		if _, err := s.sites.Get(ctx, c, orgID, id); err != nil {
			return err
		}
	}
	return nil
}

func targetAllows(it Integration, kind Kind) bool {
	return it.Target == "all" || it.Target == string(kind)
}

// InstallOn places an installation on a space or site of its organization (its admins).
func (s *Service) InstallOn(ctx context.Context, c auth.Caller, name, installationID string, kind Kind, targetID string) (ContentInstallation, error) {
	if targetID == "" {
		if kind == SpaceKind {
			return ContentInstallation{}, validate.Required("space")
		}
		return ContentInstallation{}, validate.Required("siteId")
	}
	now := s.clock.Now()
	var out ContentInstallation
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, in, err := s.writableInstallation(ctx, tx, c, name, installationID)
		if err != nil {
			return err
		}
		if !targetAllows(it, kind) {
			return apperr.Invalidf("integration %s can be installed on %s targets only, not on a %s", name, it.Target, kind)
		}
		if err := s.targetOrg(ctx, c, kind, in.OrgID, targetID); err != nil {
			return err
		}
		if existing, err := tx.ContentInstallation(ctx, in.ID, kind, targetID); err == nil {
			out = existing
			return nil
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		ci := ContentInstallation{InstallationID: in.ID, Integration: name, OrgID: in.OrgID, Kind: kind, TargetID: targetID,
			Status: "active", Configuration: json.RawMessage(`{}`), ExternalIDs: []string{}, CreatedAt: now, UpdatedAt: now}
		if err := tx.SaveContentInstallation(ctx, ci); err != nil {
			return err
		}
		out = ci
		return s.record(ctx, tx, it, in, contentPayload(ci, string(kind)+"_installation_setup",
			map[string]any{"status": ci.Status, "previous": map[string]any{"status": "pending"}}))
	})
	return out, err
}

// contentPayload is an event payload about a space or site installation.
func contentPayload(ci ContentInstallation, typ string, more map[string]any) map[string]any {
	p := map[string]any{"type": typ}
	if ci.Kind == SpaceKind {
		p["spaceId"] = ci.TargetID
	} else {
		p["siteId"] = ci.TargetID
	}
	for k, v := range more {
		p[k] = v
	}
	return p
}

func (s *Service) contentInstallation(ctx context.Context, tx Tx, c auth.Caller, name, installationID string, kind Kind, targetID string) (Integration, Installation, ContentInstallation, error) {
	it, in, err := s.installation(ctx, tx, c, name, installationID)
	if err != nil {
		return it, in, ContentInstallation{}, err
	}
	ci, err := tx.ContentInstallation(ctx, in.ID, kind, targetID)
	if errors.Is(err, ErrNotFound) {
		return it, in, ci, apperr.NotFoundf("%s %s has no installation of %s", kind, targetID, name)
	}
	return it, in, ci, err
}

// GetContentInstallation returns a space or site installation to whoever reads its installation.
func (s *Service) GetContentInstallation(ctx context.Context, c auth.Caller, name, installationID string, kind Kind, targetID string) (ContentInstallation, error) {
	_, _, ci, err := s.contentInstallation(ctx, s.store.Read(), c, name, installationID, kind, targetID)
	return ci, err
}

// ContentUpdate is the body of updateIntegrationSpaceInstallation and ...SiteInstallation.
type ContentUpdate struct {
	ExternalIDs   *[]string
	Configuration json.RawMessage
}

// UpdateContentInstallation changes a space or site installation's configuration (checked
// against the integration's form for that target) and external ids.
func (s *Service) UpdateContentInstallation(ctx context.Context, c auth.Caller, name, installationID string, kind Kind, targetID string, u ContentUpdate) (ContentInstallation, error) {
	if err := checkExternalIDs(u.ExternalIDs); err != nil {
		return ContentInstallation{}, err
	}
	now := s.clock.Now()
	var out ContentInstallation
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, in, ci, err := s.contentInstallation(ctx, tx, c, name, installationID, kind, targetID)
		if err != nil {
			return err
		}
		if err := s.writeInstallation(ctx, c, in); err != nil {
			return err
		}
		prev := ci
		if u.Configuration != nil {
			if err := checkConfiguration(it, string(kind), u.Configuration); err != nil {
				return err
			}
			ci.Configuration = u.Configuration
		}
		if u.ExternalIDs != nil {
			ci.ExternalIDs = *u.ExternalIDs
		}
		ci.UpdatedAt = now
		if err := tx.SaveContentInstallation(ctx, ci); err != nil {
			return err
		}
		out = ci
		return s.record(ctx, tx, it, in, contentPayload(ci, string(kind)+"_installation_setup", map[string]any{
			"status": ci.Status, "previous": map[string]any{"status": prev.Status, "configuration": prev.Configuration}}))
	})
	return out, err
}

// UninstallFrom removes a space or site installation; deleted is false when there was none.
func (s *Service) UninstallFrom(ctx context.Context, c auth.Caller, name, installationID string, kind Kind, targetID string) (deleted bool, err error) {
	err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		it, in, ci, err := s.contentInstallation(ctx, tx, c, name, installationID, kind, targetID)
		if apperr.Is(err, apperr.NotFound) {
			return nil
		} else if err != nil {
			return err
		}
		if err := s.writeInstallation(ctx, c, in); err != nil {
			return err
		}
		if deleted, err = tx.DeleteContentInstallation(ctx, in.ID, kind, targetID); err != nil || !deleted {
			return err
		}
		return s.record(ctx, tx, it, in, contentPayload(ci, string(kind)+"_installation_deleted",
			map[string]any{"previous": map[string]any{"configuration": ci.Configuration}}))
	})
	return deleted, err
}

// ListContentInstallations lists the space or site installations of one installation.
func (s *Service) ListContentInstallations(ctx context.Context, c auth.Caller, name, installationID string, kind Kind, page paging.Request) (paging.Result[ContentInstallation], error) {
	tx := s.store.Read()
	_, in, err := s.installation(ctx, tx, c, name, installationID)
	if err != nil {
		return paging.Result[ContentInstallation]{}, err
	}
	cis, err := tx.ContentInstallations(ctx, in.ID, kind, "")
	if err != nil {
		return paging.Result[ContentInstallation]{}, err
	}
	return paging.Slice(cis, func(ci ContentInstallation) string { return ci.TargetID }, page), nil
}

// ListIntegrationContentInstallations lists an integration's space or site installations across
// installations: all of them to its owner's admins, those of the caller's organizations to
// others.
func (s *Service) ListIntegrationContentInstallations(ctx context.Context, c auth.Caller, name string, kind Kind, externalID string, page paging.Request) (paging.Result[ContentInstallation], error) {
	tx := s.store.Read()
	it, err := s.visible(ctx, tx, c, name)
	if err != nil {
		return paging.Result[ContentInstallation]{}, err
	}
	owner, err := s.isOwnerAdmin(ctx, c, it)
	if err != nil {
		return paging.Result[ContentInstallation]{}, err
	}
	cis, err := tx.ContentInstallationsOf(ctx, name, kind)
	if err != nil {
		return paging.Result[ContentInstallation]{}, err
	}
	var shown []ContentInstallation
	for _, ci := range cis {
		if externalID != "" && !slices.Contains(ci.ExternalIDs, externalID) {
			continue
		}
		if !owner && s.readInstallation(ctx, c, it, Installation{ID: ci.InstallationID, OrgID: ci.OrgID}) != nil {
			continue
		}
		shown = append(shown, ci)
	}
	return paging.Slice(shown, func(ci ContentInstallation) string { return ci.InstallationID + "/" + ci.TargetID }, page), nil
}

// installedOn returns the integrations installed on a space or site (explicitly, or through an
// installation selecting all of them), each once, by name.
func (s *Service) installedOn(ctx context.Context, tx Tx, c auth.Caller, kind Kind, orgID, targetID string) ([]View, error) {
	ins, err := tx.Installations(ctx, "", orgID)
	if err != nil {
		return nil, err
	}
	var out []View
	for _, in := range ins {
		all := (kind == SpaceKind && in.SpaceSelection == "all") || (kind == SiteKind && in.SiteSelection == "all")
		if !all {
			if _, err := tx.ContentInstallation(ctx, in.ID, kind, targetID); errors.Is(err, ErrNotFound) {
				continue
			} else if err != nil {
				return nil, err
			}
		}
		it, err := tx.Integration(ctx, in.Integration)
		if err != nil {
			return nil, err
		}
		if !targetAllows(it, kind) {
			continue
		}
		v, err := s.view(ctx, c, it)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	slices.SortFunc(out, func(a, b View) int { return compareStrings(a.Name, b.Name) })
	return out, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// SpaceIntegrations lists the integrations installed on a space the caller can read.
func (s *Service) SpaceIntegrations(ctx context.Context, c auth.Caller, spaceID, search string) ([]View, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return nil, err
	}
	all, err := s.installedOn(ctx, s.store.Read(), c, SpaceKind, v.OrganizationID, spaceID)
	return filterSearch(all, search), err
}

// SiteIntegrations lists the integrations installed on a site of an organization.
func (s *Service) SiteIntegrations(ctx context.Context, c auth.Caller, orgID, siteID, search string) ([]View, error) {
	if _, err := s.sites.Get(ctx, c, orgID, siteID); err != nil {
		return nil, err
	}
	all, err := s.installedOn(ctx, s.store.Read(), c, SiteKind, orgID, siteID)
	return filterSearch(all, search), err
}

func filterSearch(vs []View, search string) []View {
	if search == "" {
		return vs
	}
	f := Filter{Search: search}
	return slices.DeleteFunc(vs, func(v View) bool { return !f.match(v.Integration) })
}

// SiteScript is a script an installation injects into a published site.
type SiteScript struct {
	Integration  Integration
	Installation Installation
	Cookies      bool
}

// SiteScripts lists the installations on a site whose integration may inject a script.
func (s *Service) SiteScripts(ctx context.Context, c auth.Caller, orgID, siteID string) ([]SiteScript, error) {
	vs, err := s.SiteIntegrations(ctx, c, orgID, siteID, "")
	if err != nil {
		return nil, err
	}
	tx := s.store.Read()
	var out []SiteScript
	for _, v := range vs {
		if !slices.Contains(v.Manifest.Scopes, "site:script:inject") {
			continue
		}
		in, err := tx.InstallationIn(ctx, v.Name, orgID)
		if err != nil {
			return nil, err
		}
		out = append(out, SiteScript{Integration: v.Integration, Installation: in,
			Cookies: slices.Contains(v.Manifest.Scopes, "site:script:cookies")})
	}
	return out, nil
}
