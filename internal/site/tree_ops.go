package site

import (
	"context"
	"slices"

	"docsd/internal/apperr"
	"docsd/internal/orderkey"
)

// Helpers that change a site's structure inside a write transaction, on a loaded Tree.

// Kinds of structure items, as the API names them.
const (
	KindSiteSpace = "site-space"
	KindSection   = "site-section"
	KindGroup     = "site-section-group"
)

// node is any structure item: its kind, id, container (parent group, section, or "" for the
// root) and position.
type node struct {
	kind, id, container, position string
}

// nodes lists the tree's items of the family of kind: site spaces, or sections and groups
// (which share their containers).
func (t Tree) nodes(kind string) []node {
	var out []node
	if kind == KindSiteSpace {
		for _, ss := range t.SiteSpaces {
			out = append(out, node{KindSiteSpace, ss.ID, ss.SectionID, ss.Position})
		}
		return out
	}
	for _, sec := range t.Sections {
		out = append(out, node{KindSection, sec.ID, sec.GroupID, sec.Position})
	}
	for _, g := range t.Groups {
		out = append(out, node{KindGroup, g.ID, g.ParentID, g.Position})
	}
	return out
}

// siblings lists the items of kind's family in container, in order, leaving out skip.
func (t Tree) siblings(kind, container, skip string) []node {
	var out []node
	for _, n := range t.nodes(kind) {
		if n.container == container && n.id != skip {
			out = append(out, n)
		}
	}
	byPosition(out, func(n node) (string, string) { return n.position, n.id })
	return out
}

// end is a position after every item of kind's family in container.
func (t Tree) end(kind, container string) string {
	sib := t.siblings(kind, container, "")
	if len(sib) == 0 {
		return orderkey.First
	}
	return orderkey.Between(sib[len(sib)-1].position, "")
}

// beside is the position right before or after the sibling target in container, leaving out
// the item being placed (skip).
func (t Tree) beside(kind, container, target, skip string, before bool) string {
	sib := t.siblings(kind, container, skip)
	for i, n := range sib {
		if n.id != target {
			continue
		}
		lo, hi := n.position, ""
		if i+1 < len(sib) {
			hi = sib[i+1].position
		}
		if before {
			lo, hi = "", n.position
			if i > 0 {
				lo = sib[i-1].position
			}
		}
		return orderkey.Between(lo, hi)
	}
	return t.end(kind, container)
}

func (t Tree) siteSpace(id string) (SiteSpace, bool) {
	for _, ss := range t.SiteSpaces {
		if ss.ID == id {
			return ss, true
		}
	}
	return SiteSpace{}, false
}

func (t Tree) section(id string) (Section, bool) {
	for _, sec := range t.Sections {
		if sec.ID == id {
			return sec, true
		}
	}
	return Section{}, false
}

func (t Tree) group(id string) (SectionGroup, bool) {
	for _, g := range t.Groups {
		if g.ID == id {
			return g, true
		}
	}
	return SectionGroup{}, false
}

// hasSections reports whether the site is organized in sections.
func (t Tree) hasSections() bool { return len(t.Sections) > 0 || len(t.Groups) > 0 }

// within reports whether group id is group ancestor or one of its descendants.
func (t Tree) within(id, ancestor string) bool {
	for id != "" {
		if id == ancestor {
			return true
		}
		g, ok := t.group(id)
		if !ok {
			return false
		}
		id = g.ParentID
	}
	return false
}

// freePath returns base, or base-2, base-3, ... whichever no other item in taken uses.
func freePath(base string, taken map[string]bool) string {
	for i := 1; ; i++ {
		p := withSuffix(base, i, PathMax)
		if !taken[p] {
			return p
		}
	}
}

// siteSpacePaths are the paths used in a container of site spaces, except skip's.
func (t Tree) siteSpacePaths(container, skip string) map[string]bool {
	out := map[string]bool{}
	for _, ss := range t.SiteSpaces {
		if ss.SectionID == container && ss.ID != skip {
			out[ss.Path] = true
		}
	}
	return out
}

// sectionPaths are the paths of the site's sections, except skip's.
func (t Tree) sectionPaths(skip string) map[string]bool {
	out := map[string]bool{}
	for _, sec := range t.Sections {
		if sec.ID != skip {
			out[sec.Path] = true
		}
	}
	return out
}

// fixDefaults keeps one default site space in every container that holds any and one default
// section while there are sections: after an addition, removal or move, the first item in
// order takes the role when nothing holds it, and a second holder loses it. It works on tr
// (the structure as the transaction has made it) and keeps tr up to date.
func fixDefaults(ctx context.Context, tx Tx, tr *Tree) error {
	st := tr.Structure()
	containers := map[string][]SiteSpace{"": st.SiteSpaces}
	for _, sec := range st.Sections() {
		containers[sec.ID] = sec.SiteSpaces
	}
	for _, list := range containers {
		if err := oneDefault(list, func(ss SiteSpace) bool { return ss.Default }, func(i int, on bool) error {
			ss := list[i]
			ss.Default = on
			tr.putSiteSpace(ss)
			return tx.UpdateSiteSpace(ctx, ss)
		}); err != nil {
			return err
		}
	}
	secs := st.Sections()
	return oneDefault(secs, func(sec *SectionNode) bool { return sec.Default }, func(i int, on bool) error {
		sec := secs[i].Section
		sec.Default = on
		tr.putSection(sec)
		return tx.UpdateSection(ctx, sec)
	})
}

// putSiteSpace, putSection and putGroup replace (or add) an item of the tree, as a write
// just stored it.
func (t *Tree) putSiteSpace(ss SiteSpace) {
	t.SiteSpaces = upsert(t.SiteSpaces, ss, func(x SiteSpace) string { return x.ID })
}

func (t *Tree) putSection(sec Section) {
	t.Sections = upsert(t.Sections, sec, func(x Section) string { return x.ID })
}

func (t *Tree) putGroup(g SectionGroup) {
	t.Groups = upsert(t.Groups, g, func(x SectionGroup) string { return x.ID })
}

// upsert replaces the item of items with item's id, or appends item.
func upsert[T any](items []T, item T, id func(T) string) []T {
	if i := slices.IndexFunc(items, func(x T) bool { return id(x) == id(item) }); i >= 0 {
		items[i] = item
		return items
	}
	return append(items, item)
}

// dropSiteSpace removes a site space from the tree; dropSection removes a section with its
// site spaces, as the database's cascade does.
func (t *Tree) dropSiteSpace(id string) {
	t.SiteSpaces = slices.DeleteFunc(t.SiteSpaces, func(ss SiteSpace) bool { return ss.ID == id })
}

func (t *Tree) dropSection(id string) {
	t.Sections = slices.DeleteFunc(t.Sections, func(sec Section) bool { return sec.ID == id })
	t.SiteSpaces = slices.DeleteFunc(t.SiteSpaces, func(ss SiteSpace) bool { return ss.SectionID == id })
}

// oneDefault makes the first holder of the default flag the only one, or the first item when
// there is none.
func oneDefault[T any](items []T, isDefault func(T) bool, set func(i int, on bool) error) error {
	found := false
	for i, it := range items {
		if !isDefault(it) {
			continue
		}
		if found {
			if err := set(i, false); err != nil {
				return err
			}
		}
		found = true
	}
	if !found && len(items) > 0 {
		return set(0, true)
	}
	return nil
}

// setDefaultSection makes a section the site's default.
func setDefaultSection(ctx context.Context, tx Tx, tr Tree, id string) error {
	if _, ok := tr.section(id); !ok {
		return apperr.Invalidf("defaultSiteSection: no section %s in this site", id)
	}
	for _, sec := range tr.Sections {
		if on := sec.ID == id; sec.Default != on {
			sec.Default = on
			if err := tx.UpdateSection(ctx, sec); err != nil {
				return err
			}
		}
	}
	return nil
}

// setDefaultSiteSpace makes a site space the default of its container (the root or its
// section); field names the input for errors.
func setDefaultSiteSpace(ctx context.Context, tx Tx, tr Tree, id, container, field string) error {
	target, ok := tr.siteSpace(id)
	if !ok || target.SectionID != container {
		if container == "" {
			return apperr.Invalidf("%s: no site space %s at the root of this site", field, id)
		}
		return apperr.Invalidf("%s: no site space %s in section %s", field, id, container)
	}
	for _, ss := range tr.SiteSpaces {
		if ss.SectionID != container {
			continue
		}
		if on := ss.ID == id; ss.Default != on {
			ss.Default = on
			if err := tx.UpdateSiteSpace(ctx, ss); err != nil {
				return err
			}
		}
	}
	return nil
}

// setDefaultSiteSpaceOfSite is the site PATCH's defaultSiteSpace: the default at the root,
// or in the default section when the site has sections.
func setDefaultSiteSpaceOfSite(ctx context.Context, tx Tx, tr Tree, id string) error {
	container := ""
	if tr.hasSections() {
		def := tr.Structure().DefaultSection()
		if def == nil {
			return apperr.Invalidf("defaultSiteSpace: the site has no default section")
		}
		container = def.ID
	}
	return setDefaultSiteSpace(ctx, tx, tr, id, container, "defaultSiteSpace")
}
