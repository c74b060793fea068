package site

import (
	"context"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/validate"
)

// Ref points at a structure item: a site space, a section or a section group.
type Ref struct {
	Kind string // KindSiteSpace, KindSection or KindGroup
	ID   string
}

// Position says where an item goes: right before or right after another item. With neither,
// the item goes to the end of its level (site spaces: their container; sections and groups:
// the site's root).
type Position struct {
	Before, After *Ref
}

// Moved is the item a move placed, whichever kind it is.
type Moved struct {
	SiteSpace *SiteSpace
	Section   *Section
	Group     *SectionGroup
	Tree      Tree // the structure after the move
}

// Sort moves any item of a site's structure before or after any other of its family (site
// spaces among site spaces; sections and groups among sections and groups), into the
// target's container: one ordering mechanism for the whole structure (sortSiteStructure and
// the older move operations).
func (s *Service) Sort(ctx context.Context, c auth.Caller, orgID, siteID string, item Ref, pos Position) (Moved, error) {
	if err := validate.OneOf("item.type", item.Kind, KindSiteSpace, KindSection, KindGroup); err != nil {
		return Moved{}, err
	}
	if item.ID == "" {
		return Moved{}, validate.Required("item.id")
	}
	var out Moved
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		var err error
		out, err = s.move(ctx, tx, st, item, pos)
		return err
	})
	return out, err
}

func (s *Service) move(ctx context.Context, tx Tx, st Site, item Ref, pos Position) (Moved, error) {
	tr, err := tx.Tree(ctx, st.ID)
	if err != nil {
		return Moved{}, err
	}
	if err := tr.exists(item, ""); err != nil {
		return Moved{}, err
	}
	if pos.Before != nil && pos.After != nil {
		return Moved{}, apperr.Invalidf("position: give before or after, not both")
	}
	target, field, before := pos.After, "position.after", false
	if pos.Before != nil {
		target, field, before = pos.Before, "position.before", true
	}
	var container, position string
	if target == nil {
		if item.Kind == KindSiteSpace {
			ss, _ := tr.siteSpace(item.ID)
			container = ss.SectionID
		}
		position = tr.end(item.Kind, container)
	} else {
		if err := tr.exists(*target, field); err != nil {
			return Moved{}, err
		}
		if (item.Kind == KindSiteSpace) != (target.Kind == KindSiteSpace) {
			return Moved{}, apperr.Invalidf("%s: a %s can only be placed next to a %s", field, item.Kind, familyOf(item.Kind))
		}
		if target.ID == item.ID {
			return Moved{}, apperr.Invalidf("%s: an item cannot be placed next to itself", field)
		}
		container = tr.containerOf(*target)
		if item.Kind == KindGroup && tr.within(container, item.ID) {
			return Moved{}, apperr.Invalidf("%s: a section group cannot move inside itself or its descendants", field)
		}
		position = tr.beside(item.Kind, container, target.ID, item.ID, before)
	}
	switch item.Kind {
	case KindSiteSpace:
		ss, _ := tr.siteSpace(item.ID)
		if ss.SectionID != container {
			ss.Path = freePath(ss.Path, tr.siteSpacePaths(container, ss.ID))
			ss.Default = false
		}
		ss.SectionID, ss.Position = container, position
		tr.putSiteSpace(ss)
		err = tx.UpdateSiteSpace(ctx, ss)
	case KindSection:
		sec, _ := tr.section(item.ID)
		sec.GroupID, sec.Position = container, position
		tr.putSection(sec)
		err = tx.UpdateSection(ctx, sec)
	case KindGroup:
		g, _ := tr.group(item.ID)
		g.ParentID, g.Position = container, position
		tr.putGroup(g)
		err = tx.UpdateGroup(ctx, g)
	}
	if err != nil {
		return Moved{}, err
	}
	if err := fixDefaults(ctx, tx, &tr); err != nil {
		return Moved{}, err
	}
	out := Moved{Tree: tr}
	switch item.Kind {
	case KindSiteSpace:
		ss, _ := tr.siteSpace(item.ID)
		out.SiteSpace = &ss
	case KindSection:
		sec, _ := tr.section(item.ID)
		out.Section = &sec
	case KindGroup:
		g, _ := tr.group(item.ID)
		out.Group = &g
	}
	return out, nil
}

func familyOf(kind string) string {
	if kind == KindSiteSpace {
		return "site space"
	}
	return "site section or site section group"
}

// exists checks that r names an item of the tree: the moved item is a 404 when absent (field
// ""), a position's target a 400 naming field.
func (t Tree) exists(r Ref, field string) error {
	ok := false
	switch r.Kind {
	case KindSiteSpace:
		_, ok = t.siteSpace(r.ID)
	case KindSection:
		_, ok = t.section(r.ID)
	case KindGroup:
		_, ok = t.group(r.ID)
	default:
		return apperr.Invalidf("%s.type: must be one of %s, %s, %s (got %q)", field, KindSiteSpace, KindSection, KindGroup, r.Kind)
	}
	if ok {
		return nil
	}
	if field == "" {
		return apperr.NotFoundf("%s %s not found in this site", r.Kind, r.ID)
	}
	return apperr.Invalidf("%s: invalid position: no %s %s in this site", field, r.Kind, r.ID)
}

// containerOf is the container of an existing item.
func (t Tree) containerOf(r Ref) string {
	switch r.Kind {
	case KindSiteSpace:
		ss, _ := t.siteSpace(r.ID)
		return ss.SectionID
	case KindSection:
		sec, _ := t.section(r.ID)
		return sec.GroupID
	}
	g, _ := t.group(r.ID)
	return g.ParentID
}
