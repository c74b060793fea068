package site

import (
	"context"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/orderkey"
	"docsd/internal/validate"
)

// NewGroup is the body of a new section group.
type NewGroup struct {
	Title    *string
	Icon     opt.Field[string]
	Sections []string // moved into the group, in this order
	Parent   *string  // a group; nil for the site's root
}

// AddGroup adds a section group at the end of its parent (or the root) and moves the given
// sections into it. Groups organize sections, so the site needs sections first.
func (s *Service) AddGroup(ctx context.Context, c auth.Caller, orgID, siteID string, n NewGroup) (SectionGroup, error) {
	if n.Title == nil {
		return SectionGroup{}, validate.Required("title")
	}
	if err := validate.Length("title", *n.Title, GroupTitleMin, GroupTitleMax); err != nil {
		return SectionGroup{}, err
	}
	if err := validateIcon(n.Icon); err != nil {
		return SectionGroup{}, err
	}
	var out SectionGroup
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		if len(tr.Sections) == 0 {
			return apperr.Invalidf("section groups organize sections: add a section to site %s first", siteID)
		}
		parent := ""
		if n.Parent != nil {
			if _, ok := tr.group(*n.Parent); !ok {
				return apperr.Invalidf("parent: no section group %s in this site", *n.Parent)
			}
			parent = *n.Parent
		}
		g := SectionGroup{ID: ids.New(), SiteID: st.ID, ParentID: parent, Position: tr.end(KindGroup, parent),
			Title: *n.Title, Icon: n.Icon.Value, CreatedAt: now}
		if err := tx.InsertGroup(ctx, g); err != nil {
			return err
		}
		key := "" // the new group is empty: its sections take keys one after another
		for i, id := range n.Sections {
			sec, ok := tr.section(id)
			if !ok {
				return apperr.Invalidf("sections.%d: no section %s in this site", i, id)
			}
			key = orderkey.Between(key, "")
			sec.GroupID, sec.Position = g.ID, key
			if err := tx.UpdateSection(ctx, sec); err != nil {
				return err
			}
		}
		out = g
		return nil
	})
	return out, err
}

// GroupUpdate holds the group fields a PATCH may change.
type GroupUpdate struct {
	Title *string
	Icon  opt.Field[string]
}

// PatchGroup renames a section group or changes its icon.
func (s *Service) PatchGroup(ctx context.Context, c auth.Caller, orgID, siteID, id string, u GroupUpdate) (SectionGroup, error) {
	if u.Title != nil {
		if err := validate.Length("title", *u.Title, GroupTitleMin, GroupTitleMax); err != nil {
			return SectionGroup{}, err
		}
	}
	if err := validateIcon(u.Icon); err != nil {
		return SectionGroup{}, err
	}
	var out SectionGroup
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		g, ok := tr.group(id)
		if !ok {
			return apperr.NotFoundf("site section group %s not found in site %s", id, siteID)
		}
		if u.Title != nil {
			g.Title = *u.Title
		}
		if u.Icon.Set {
			g.Icon = u.Icon.Value
		}
		out = g
		return tx.UpdateGroup(ctx, g)
	})
	return out, err
}

// DeleteGroup removes a section group. What it held (sections and groups) moves up to where
// the group was, in order, so deleting a group never deletes content. Absent groups are
// removed already.
func (s *Service) DeleteGroup(ctx context.Context, c auth.Caller, orgID, siteID, id string) error {
	return s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		g, ok := tr.group(id)
		if !ok {
			return nil
		}
		hi := ""
		sib := tr.siblings(KindGroup, g.ParentID, "")
		for i, n := range sib {
			if n.id == g.ID && i+1 < len(sib) {
				hi = sib[i+1].position
			}
		}
		lo := g.Position
		for _, n := range tr.siblings(KindGroup, g.ID, "") {
			lo = orderkey.Between(lo, hi)
			if err := moveNode(ctx, tx, tr, n, g.ParentID, lo); err != nil {
				return err
			}
		}
		return tx.DeleteGroup(ctx, g.ID)
	})
}

// moveNode puts a section or group in container at position.
func moveNode(ctx context.Context, tx Tx, tr Tree, n node, container, position string) error {
	if n.kind == KindSection {
		sec, _ := tr.section(n.id)
		sec.GroupID, sec.Position = container, position
		return tx.UpdateSection(ctx, sec)
	}
	g, _ := tr.group(n.id)
	g.ParentID, g.Position = container, position
	return tx.UpdateGroup(ctx, g)
}

// AddSectionToGroup moves a section to the end of a group.
func (s *Service) AddSectionToGroup(ctx context.Context, c auth.Caller, orgID, siteID, groupID string, sectionID *string) (SectionGroup, Tree, error) {
	if sectionID == nil || *sectionID == "" {
		return SectionGroup{}, Tree{}, validate.Required("sectionId")
	}
	var g SectionGroup
	var out Tree
	err := s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		var ok bool
		if g, ok = tr.group(groupID); !ok {
			return apperr.NotFoundf("site section group %s not found in site %s", groupID, siteID)
		}
		sec, ok := tr.section(*sectionID)
		if !ok {
			return apperr.Invalidf("sectionId: no section %s in this site", *sectionID)
		}
		if sec.GroupID != g.ID {
			sec.GroupID, sec.Position = g.ID, tr.end(KindSection, g.ID)
			if err := tx.UpdateSection(ctx, sec); err != nil {
				return err
			}
		}
		out, err = tx.Tree(ctx, st.ID)
		return err
	})
	return g, out, err
}

// RemoveSectionFromGroup moves a section out of a group, right after the group in the
// group's own container. A section that is not in the group is left alone.
func (s *Service) RemoveSectionFromGroup(ctx context.Context, c auth.Caller, orgID, siteID, groupID, sectionID string) error {
	return s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		tr, err := tx.Tree(ctx, st.ID)
		if err != nil {
			return err
		}
		g, ok := tr.group(groupID)
		sec, found := tr.section(sectionID)
		if !ok || !found || sec.GroupID != g.ID {
			return nil
		}
		sec.GroupID, sec.Position = g.ParentID, tr.beside(KindSection, g.ParentID, g.ID, sec.ID, false)
		return tx.UpdateSection(ctx, sec)
	})
}

// GroupRef reads a group move's pointer, whose type may name a section or a group.
func GroupRef(kind, id, field string) (Ref, error) {
	if err := validate.OneOf(field+".type", kind, KindSection, KindGroup); err != nil {
		return Ref{}, err
	}
	if id == "" {
		return Ref{}, validate.Required(field + ".id")
	}
	return Ref{Kind: kind, ID: id}, nil
}
