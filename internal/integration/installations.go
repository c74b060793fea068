package integration

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// InstallationView is an installation with its integration.
type InstallationView struct {
	Installation
	IntegrationView Integration
}

// Install installs an integration on an organization its admins run (201), once: a second
// install answers the existing installation. Errors: 404 for an integration the organization
// cannot see or an organization the caller is not in; 403 for non-admins; 400 when the
// integration's target excludes organizations.
func (s *Service) Install(ctx context.Context, c auth.Caller, name, orgID string) (Installation, error) {
	if orgID == "" {
		return Installation{}, validate.Required("organization")
	}
	if err := s.requireOrgAdmin(ctx, c, orgID); err != nil {
		return Installation{}, err
	}
	now := s.clock.Now()
	var out Installation
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, err := s.visible(ctx, tx, c, name)
		if err != nil {
			return err
		}
		if existing, err := tx.InstallationIn(ctx, name, orgID); err == nil {
			out = existing
			return nil
		} else if !errors.Is(err, ErrNotFound) {
			return err
		}
		in := Installation{ID: ids.New(), Integration: name, OrgID: orgID, Status: "active", SpaceSelection: "selected",
			SiteSelection: "selected", Configuration: json.RawMessage(`{}`), ExternalIDs: []string{},
			SealedSigning: s.seal.Seal(ids.Secret()), CreatedAt: now, UpdatedAt: now}
		if err := tx.InsertInstallation(ctx, in); err != nil {
			return err
		}
		out = in
		return s.record(ctx, tx, it, in, map[string]any{"type": "installation_setup", "status": in.Status,
			"previous": map[string]any{"status": "pending"}})
	})
	return out, err
}

// installation loads an installation of the named integration that the caller may read.
func (s *Service) installation(ctx context.Context, tx Tx, c auth.Caller, name, id string) (Integration, Installation, error) {
	it, err := tx.Integration(ctx, name)
	if errors.Is(err, ErrNotFound) {
		return it, Installation{}, apperr.NotFoundf("integration %s not found", name)
	} else if err != nil {
		return it, Installation{}, err
	}
	in, err := tx.Installation(ctx, id)
	if errors.Is(err, ErrNotFound) || (err == nil && in.Integration != name) {
		return it, in, apperr.NotFoundf("installation %s not found", id)
	} else if err != nil {
		return it, in, err
	}
	if err := s.readInstallation(ctx, c, it, in); err != nil {
		// Whatever the reason, the caller learns nothing of the installation's organization.
		if apperr.Is(err, apperr.Forbidden) || apperr.Is(err, apperr.NotFound) {
			return it, in, apperr.NotFoundf("installation %s not found", id)
		}
		return it, in, err
	}
	return it, in, s.countSpaces(ctx, tx, &in)
}

// writableInstallation loads an installation the caller may read (404 otherwise) and change
// (its organization's admins, or its own token).
func (s *Service) writableInstallation(ctx context.Context, tx Tx, c auth.Caller, name, id string) (Integration, Installation, error) {
	it, in, err := s.installation(ctx, tx, c, name, id)
	if err != nil {
		return it, in, err
	}
	return it, in, s.writeInstallation(ctx, c, in)
}

func (s *Service) countSpaces(ctx context.Context, tx Tx, in *Installation) error {
	cis, err := tx.ContentInstallations(ctx, in.ID, SpaceKind, "")
	in.Spaces = len(cis)
	return err
}

// GetInstallation returns an installation to its organization's members, its integration's
// owner admins and its own token.
func (s *Service) GetInstallation(ctx context.Context, c auth.Caller, name, id string) (Installation, error) {
	_, in, err := s.installation(ctx, s.store.Read(), c, name, id)
	return in, err
}

// InstallationUpdate is the body of updateIntegrationInstallation.
type InstallationUpdate struct {
	ExternalIDs    *[]string
	Configuration  json.RawMessage
	SpaceSelection *string
	SiteSelection  *string
}

// UpdateInstallation changes an installation (its organization's admins, or its token) and
// records an installation_setup event with the previous state.
func (s *Service) UpdateInstallation(ctx context.Context, c auth.Caller, name, id string, u InstallationUpdate) (Installation, error) {
	if err := validate.First(checkExternalIDs(u.ExternalIDs), optEnum("space_selection", u.SpaceSelection, Selections),
		optEnum("site_selection", u.SiteSelection, Selections)); err != nil {
		return Installation{}, err
	}
	now := s.clock.Now()
	var out Installation
	err := s.store.Write(ctx, now, func(tx Tx) error {
		it, in, err := s.writableInstallation(ctx, tx, c, name, id)
		if err != nil {
			return err
		}
		prev := in
		if u.Configuration != nil {
			if err := checkConfiguration(it, "account", u.Configuration); err != nil {
				return err
			}
			in.Configuration = u.Configuration
		}
		if u.ExternalIDs != nil {
			in.ExternalIDs = *u.ExternalIDs
		}
		if u.SpaceSelection != nil {
			in.SpaceSelection = *u.SpaceSelection
		}
		if u.SiteSelection != nil {
			in.SiteSelection = *u.SiteSelection
		}
		in.UpdatedAt = now
		if err := tx.UpdateInstallation(ctx, in); err != nil {
			return err
		}
		out = in
		return s.record(ctx, tx, it, in, map[string]any{"type": "installation_setup", "status": in.Status,
			"previous": map[string]any{"status": prev.Status, "configuration": prev.Configuration}})
	})
	return out, err
}

// Uninstall removes an installation with its space and site installations; deleted is false
// when there was none to remove.
func (s *Service) Uninstall(ctx context.Context, c auth.Caller, name, id string) (deleted bool, err error) {
	err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		it, in, err := s.installation(ctx, tx, c, name, id)
		if apperr.Is(err, apperr.NotFound) {
			return nil
		} else if err != nil {
			return err
		}
		if err := s.requireOrgAdmin(ctx, c, in.OrgID); err != nil {
			return err
		}
		if err := s.record(ctx, tx, it, in, map[string]any{"type": "installation_deleted",
			"previous": map[string]any{"configuration": in.Configuration}}); err != nil {
			return err
		}
		deleted = true
		return tx.DeleteInstallation(ctx, in.ID)
	})
	return deleted, err
}

// InstallationFilter selects installations in a list.
type InstallationFilter struct {
	ExternalID string
}

// ListInstallations lists an integration's installations to its owner's admins (every
// organization's) or to members of an organization (theirs alone).
func (s *Service) ListInstallations(ctx context.Context, c auth.Caller, name string, f InstallationFilter, page paging.Request) (paging.Result[Installation], error) {
	tx := s.store.Read()
	it, err := s.visible(ctx, tx, c, name)
	if err != nil {
		return paging.Result[Installation]{}, err
	}
	all, err := tx.Installations(ctx, name, "")
	if err != nil {
		return paging.Result[Installation]{}, err
	}
	owner, err := s.isOwnerAdmin(ctx, c, it)
	if err != nil {
		return paging.Result[Installation]{}, err
	}
	var shown []Installation
	for _, in := range all {
		if f.ExternalID != "" && !slices.Contains(in.ExternalIDs, f.ExternalID) {
			continue
		}
		if !owner && s.readInstallation(ctx, c, it, in) != nil {
			continue
		}
		shown = append(shown, in)
	}
	return s.withCounts(ctx, tx, paging.Slice(shown, func(in Installation) string { return in.ID }, page))
}

func (s *Service) withCounts(ctx context.Context, tx Tx, res paging.Result[Installation]) (paging.Result[Installation], error) {
	for i := range res.Items {
		if err := s.countSpaces(ctx, tx, &res.Items[i]); err != nil {
			return res, err
		}
	}
	return res, nil
}

// OrgInstallation is an installation of an organization with its integration.
type OrgInstallation struct {
	Integration  View
	Installation Installation
}

// ListOrgInstallations lists the installations of an organization to its members, by
// integration name; search looks in the integration's name and title.
func (s *Service) ListOrgInstallations(ctx context.Context, c auth.Caller, orgID, search string, page paging.Request) (paging.Result[OrgInstallation], error) {
	if err := s.requireOrgMember(ctx, c, orgID); err != nil {
		return paging.Result[OrgInstallation]{}, err
	}
	tx := s.store.Read()
	all, err := tx.Installations(ctx, "", orgID)
	if err != nil {
		return paging.Result[OrgInstallation]{}, err
	}
	f := Filter{Search: search}
	var out []OrgInstallation
	for _, in := range all {
		it, err := tx.Integration(ctx, in.Integration)
		if err != nil {
			return paging.Result[OrgInstallation]{}, err
		}
		if !f.match(it) {
			continue
		}
		if err := s.countSpaces(ctx, tx, &in); err != nil {
			return paging.Result[OrgInstallation]{}, err
		}
		v, err := s.view(ctx, c, it)
		if err != nil {
			return paging.Result[OrgInstallation]{}, err
		}
		out = append(out, OrgInstallation{Integration: v, Installation: in})
	}
	return paging.Slice(out, func(o OrgInstallation) string { return o.Integration.Name }, page), nil
}

// Status is an integration installed in an organization, or on one of its spaces or sites,
// with the installation's status.
type Status struct {
	Status      string
	Integration View
	TargetKind  string // organization, space or site
	TargetID    string
}

// OrgStatus returns the status of an integration's installation in an organization (404 when
// it is not installed there).
func (s *Service) OrgStatus(ctx context.Context, c auth.Caller, orgID, name string) (string, error) {
	if err := s.requireOrgMember(ctx, c, orgID); err != nil {
		return "", err
	}
	tx := s.store.Read()
	if _, err := s.visible(ctx, tx, c, name); err != nil {
		return "", err
	}
	in, err := tx.InstallationIn(ctx, name, orgID)
	if errors.Is(err, ErrNotFound) {
		return "", apperr.NotFoundf("integration %s is not installed in organization %s", name, orgID)
	}
	return in.Status, err
}

// OrgStatuses lists what is installed in an organization at a target: its installations
// (organization), or their space or site installations, with their status.
func (s *Service) OrgStatuses(ctx context.Context, c auth.Caller, orgID, target string, page paging.Request) (paging.Result[Status], error) {
	if err := s.requireOrgMember(ctx, c, orgID); err != nil {
		return paging.Result[Status]{}, err
	}
	tx := s.store.Read()
	ins, err := tx.Installations(ctx, "", orgID)
	if err != nil {
		return paging.Result[Status]{}, err
	}
	var out []Status
	for _, in := range ins {
		it, err := tx.Integration(ctx, in.Integration)
		if err != nil {
			return paging.Result[Status]{}, err
		}
		v, err := s.view(ctx, c, it)
		if err != nil {
			return paging.Result[Status]{}, err
		}
		if target == "organization" {
			out = append(out, Status{Status: in.Status, Integration: v, TargetKind: target, TargetID: orgID})
			continue
		}
		cis, err := tx.ContentInstallations(ctx, in.ID, Kind(target), "")
		if err != nil {
			return paging.Result[Status]{}, err
		}
		for _, ci := range cis {
			out = append(out, Status{Status: ci.Status, Integration: v, TargetKind: target, TargetID: ci.TargetID})
		}
	}
	return paging.Slice(out, func(st Status) string { return st.Integration.Name + "/" + st.TargetID }, page), nil
}

func checkExternalIDs(v *[]string) error {
	if v == nil {
		return nil
	}
	if len(*v) > ExternalIDsMax {
		return apperr.Invalidf("externalIds: at most %d ids", ExternalIDsMax)
	}
	for i, id := range *v {
		if err := validate.Length("externalIds", id, 1, 256); err != nil {
			return apperr.Invalidf("externalIds[%d]: must be 1 to 256 characters", i)
		}
	}
	return nil
}

func optEnum(field string, v *string, allowed []string) error {
	if v == nil {
		return nil
	}
	return validate.OneOf(field, *v, allowed...)
}
