package site

import (
	"context"
	"errors"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/space"
	"docsd/internal/validate"
)

// addSiteSpace publishes a space on a site: into section, or when section is nil into the
// default section (the root for a site without sections), at the end, with a path made from
// the space's title. field names the space id in errors.
func (s *Service) addSiteSpace(ctx context.Context, tx Tx, st Site, spaceID string, section *string, field string, now time.Time) (SiteSpace, error) {
	sp, err := liveSpace(ctx, tx, st, spaceID, field)
	if err != nil {
		return SiteSpace{}, err
	}
	tr, err := tx.Tree(ctx, st.ID)
	if err != nil {
		return SiteSpace{}, err
	}
	container := ""
	switch {
	case section != nil:
		if _, ok := tr.section(*section); !ok {
			return SiteSpace{}, apperr.Invalidf("sectionId: no section %s in this site", *section)
		}
		container = *section
	case tr.hasSections():
		def := tr.Structure().DefaultSection()
		if def == nil {
			return SiteSpace{}, apperr.Invalidf("sectionId: the site's groups hold no section yet; add a section first")
		}
		container = def.ID
	}
	ss := SiteSpace{ID: ids.New(), SiteID: st.ID, SectionID: container, SpaceID: sp.ID, Space: sp,
		Position: tr.end(KindSiteSpace, container),
		Path:     freePath(slugify(sp.Title, "space"), tr.siteSpacePaths(container, "")), CreatedAt: now}
	if err := tx.InsertSiteSpace(ctx, ss); err != nil {
		return SiteSpace{}, err
	}
	tr.putSiteSpace(ss)
	if err := fixDefaults(ctx, tx, &tr); err != nil {
		return SiteSpace{}, err
	}
	ss, _ = tr.siteSpace(ss.ID)
	return ss, nil
}

// liveSpace loads a space a site may publish: a live space of the site's organization; any
// other id is a 400 naming field.
func liveSpace(ctx context.Context, tx Tx, st Site, id, field string) (space.Space, error) {
	sp, err := tx.Space(ctx, id)
	if errors.Is(err, ErrNotFound) || (err == nil && (sp.OrganizationID != st.OrganizationID || sp.DeletedAt != nil)) {
		return space.Space{}, apperr.Invalidf("%s: no space %s in this organization", field, id)
	}
	return sp, err
}

// AddSiteSpace publishes a space on a site (POST site-spaces).
func (s *Service) AddSiteSpace(ctx context.Context, c auth.Caller, orgID, siteID string, spaceID *string, sectionID *string) (SiteSpace, error) {
	if spaceID == nil || *spaceID == "" {
		return SiteSpace{}, validate.Required("spaceId")
	}
	var out SiteSpace
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		var err error
		out, err = s.addSiteSpace(ctx, tx, st, *spaceID, sectionID, "spaceId", now)
		return err
	})
	return out, err
}

// Structure returns a site's ordered structure to a member of its organization.
func (s *Service) Structure(ctx context.Context, c auth.Caller, orgID, siteID string) (Site, Tree, error) {
	tx := s.store.Read()
	st, err := s.siteIn(ctx, tx, c, orgID, siteID, false)
	if err != nil {
		return Site{}, Tree{}, err
	}
	tr, err := tx.Tree(ctx, st.ID)
	return st, tr, err
}

// SiteSpaceUpdate holds the site space fields a PATCH may change.
type SiteSpaceUpdate struct {
	Path      *string
	Condition opt.Field[string] // null removes
	SpaceID   *string
}

// PatchSiteSpace changes a site space's path, condition or space.
func (s *Service) PatchSiteSpace(ctx context.Context, c auth.Caller, orgID, siteID, id string, u SiteSpaceUpdate) (SiteSpace, error) {
	if u.Path != nil {
		if err := validate.Length("path", *u.Path, 1, PathMax); err != nil {
			return SiteSpace{}, err
		}
	}
	if err := validateCondition("condition", u.Condition); err != nil {
		return SiteSpace{}, err
	}
	var out SiteSpace
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		ss, ok := tr.siteSpace(id)
		if !ok {
			return apperr.NotFoundf("site space %s not found in site %s", id, siteID)
		}
		if u.Path != nil {
			if *u.Path != ss.Path && tr.siteSpacePaths(ss.SectionID, ss.ID)[*u.Path] {
				return apperr.Conflictf("path: %q is already used by another site space in the same section", *u.Path)
			}
			ss.Path = *u.Path
		}
		if u.Condition.Set {
			ss.Condition = u.Condition.Ptr()
		}
		if u.SpaceID != nil {
			sp, err := liveSpace(ctx, tx, st, *u.SpaceID, "spaceId")
			if err != nil {
				return err
			}
			ss.SpaceID, ss.Space = sp.ID, sp
		}
		if err := tx.UpdateSiteSpace(ctx, ss); err != nil {
			return err
		}
		out = ss
		return nil
	})
	return out, err
}

// validateCondition checks an optional, nullable expression's length.
func validateCondition(field string, f opt.Field[string]) error {
	if f.Set && !f.Null {
		return validate.Length(field, f.Value, 0, ConditionMax)
	}
	return nil
}

// DeleteSiteSpace removes a site space; absent ones are removed already. When it was its
// container's default, the next one takes the role.
func (s *Service) DeleteSiteSpace(ctx context.Context, c auth.Caller, orgID, siteID, id string) error {
	return s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		if _, ok := tr.siteSpace(id); !ok {
			return nil
		}
		if err := tx.DeleteSiteSpace(ctx, id); err != nil {
			return err
		}
		tr.dropSiteSpace(id)
		return fixDefaults(ctx, tx, &tr)
	})
}
