package site

import (
	"context"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/validate"
)

// NewSection is the body of a new section.
type NewSection struct {
	SpaceID *string
	Title   opt.Field[string]
	Icon    opt.Field[string]
}

// AddSection adds a section at the end of the site's root, with the space as its first site
// space. The first section of a site takes the site spaces that were at its root, so the
// site is organized in sections from then on.
func (s *Service) AddSection(ctx context.Context, c auth.Caller, orgID, siteID string, n NewSection) (Section, error) {
	if n.SpaceID == nil || *n.SpaceID == "" {
		return Section{}, validate.Required("spaceId")
	}
	if n.Title.Set && !n.Title.Null {
		if err := validate.Length("title", n.Title.Value, SectionTitleMin, SectionTitleMax); err != nil {
			return Section{}, err
		}
	}
	if err := validateIcon(n.Icon); err != nil {
		return Section{}, err
	}
	var out Section
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		sp, err := liveSpace(ctx, tx, st, *n.SpaceID, "spaceId")
		if err != nil {
			return err
		}
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		title := sp.Title
		if n.Title.Set && !n.Title.Null {
			title = n.Title.Value
		}
		if len([]rune(title)) < SectionTitleMin {
			title = "Section " + title
		}
		sec := Section{ID: ids.New(), SiteID: st.ID, Position: tr.end(KindSection, ""), Title: title,
			Path: freePath(slugify(title, "section"), tr.sectionPaths("")), Icon: n.Icon.Value, CreatedAt: now}
		if err := tx.InsertSection(ctx, sec); err != nil {
			return err
		}
		if !tr.hasSections() {
			for _, ss := range tr.SiteSpaces {
				ss.SectionID = sec.ID
				if err := tx.UpdateSiteSpace(ctx, ss); err != nil {
					return err
				}
			}
		}
		if _, err := s.addSiteSpace(ctx, tx, st, sp.ID, &sec.ID, "spaceId", now); err != nil {
			return err
		}
		out, err = reloadSection(ctx, tx, st.ID, sec.ID)
		return err
	})
	return out, err
}

func reloadSection(ctx context.Context, tx Tx, siteID, id string) (Section, error) {
	tr, err := tx.Tree(ctx, siteID)
	if err != nil {
		return Section{}, err
	}
	sec, ok := tr.section(id)
	if !ok {
		return Section{}, apperr.NotFoundf("site section %s not found", id)
	}
	return sec, nil
}

func validateIcon(f opt.Field[string]) error {
	if f.Set && !f.Null {
		return validate.Length("icon", f.Value, 0, IconMax)
	}
	return nil
}

// SectionUpdate holds the section fields a PATCH may change.
type SectionUpdate struct {
	Title            *string
	Path             *string
	DefaultSiteSpace *string
	Condition        opt.Field[string]
	Icon             opt.Field[string]
	Description      opt.Field[string]
}

func (u SectionUpdate) validate() error {
	if u.Title != nil {
		if err := validate.Length("title", *u.Title, SectionTitleMin, SectionTitleMax); err != nil {
			return err
		}
	}
	if u.Path != nil {
		if err := validate.Length("path", *u.Path, 1, PathMax); err != nil {
			return err
		}
	}
	if u.Description.Set && !u.Description.Null {
		if err := validate.Length("description", u.Description.Value, 0, SectionDescriptionMax); err != nil {
			return err
		}
	}
	return validate.First(validateCondition("condition", u.Condition), validateIcon(u.Icon))
}

// PatchSection changes a section.
func (s *Service) PatchSection(ctx context.Context, c auth.Caller, orgID, siteID, id string, u SectionUpdate) (Section, error) {
	if err := u.validate(); err != nil {
		return Section{}, err
	}
	var out Section
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		sec, ok := tr.section(id)
		if !ok {
			return apperr.NotFoundf("site section %s not found in site %s", id, siteID)
		}
		if u.Title != nil {
			sec.Title = *u.Title
		}
		if u.Path != nil {
			if *u.Path != sec.Path && tr.sectionPaths(sec.ID)[*u.Path] {
				return apperr.Conflictf("path: %q is already used by another section of this site", *u.Path)
			}
			sec.Path = *u.Path
		}
		if u.Condition.Set {
			sec.Condition = u.Condition.Ptr()
		}
		if u.Icon.Set {
			sec.Icon = u.Icon.Value
		}
		if u.Description.Set {
			sec.Description = u.Description.Value
		}
		if err := tx.UpdateSection(ctx, sec); err != nil {
			return err
		}
		if u.DefaultSiteSpace != nil {
			if err := setDefaultSiteSpace(ctx, tx, tr, *u.DefaultSiteSpace, sec.ID, "defaultSiteSpace"); err != nil {
				return err
			}
		}
		out = sec
		return nil
	})
	return out, err
}

// DeleteSection removes a section and its site spaces; absent sections are removed already.
// When it was the default, the next section takes the role.
func (s *Service) DeleteSection(ctx context.Context, c auth.Caller, orgID, siteID, id string) error {
	return s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		if _, ok := tr.section(id); !ok {
			return nil
		}
		if err := tx.DeleteSection(ctx, id); err != nil {
			return err
		}
		tr.dropSection(id)
		return fixDefaults(ctx, tx, &tr)
	})
}
