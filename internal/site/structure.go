package site

import (
	"cmp"
	"slices"
)

// Structure is a site's tree in order: the root's site spaces (a site without sections) or
// its sections and groups.
type Structure struct {
	HasSections bool
	SiteSpaces  []SiteSpace // root site spaces, when !HasSections
	Items       []Item      // root sections and groups, when HasSections
}

// Item is a section or a section group, whichever is set.
type Item struct {
	Section *SectionNode
	Group   *GroupNode
}

// SectionNode is a section with its site spaces in order.
type SectionNode struct {
	Section
	SiteSpaces []SiteSpace
}

// GroupNode is a section group with its children (sections and groups) in order.
type GroupNode struct {
	SectionGroup
	Children []Item
}

func (it Item) position() (string, string) {
	if it.Section != nil {
		return it.Section.Position, it.Section.ID
	}
	return it.Group.Position, it.Group.ID
}

func byPosition[T any](items []T, key func(T) (string, string)) {
	slices.SortFunc(items, func(a, b T) int {
		pa, ia := key(a)
		pb, ib := key(b)
		return cmp.Or(cmp.Compare(pa, pb), cmp.Compare(ia, ib))
	})
}

func siteSpaceKey(s SiteSpace) (string, string) { return s.Position, s.ID }

// Structure arranges the tree in order.
func (t Tree) Structure() Structure {
	spaces := map[string][]SiteSpace{}
	for _, ss := range t.SiteSpaces {
		spaces[ss.SectionID] = append(spaces[ss.SectionID], ss)
	}
	for k := range spaces {
		byPosition(spaces[k], siteSpaceKey)
	}
	children := map[string][]Item{}
	for i := range t.Sections {
		sec := t.Sections[i]
		children[sec.GroupID] = append(children[sec.GroupID], Item{Section: &SectionNode{Section: sec, SiteSpaces: spaces[sec.ID]}})
	}
	groups := map[string]*GroupNode{}
	for _, g := range t.Groups {
		groups[g.ID] = &GroupNode{SectionGroup: g}
	}
	for _, g := range t.Groups {
		children[g.ParentID] = append(children[g.ParentID], Item{Group: groups[g.ID]})
	}
	for k := range children {
		byPosition(children[k], Item.position)
	}
	for id, g := range groups {
		g.Children = children[id]
	}
	if len(t.Sections) == 0 && len(t.Groups) == 0 {
		return Structure{SiteSpaces: spaces[""]}
	}
	return Structure{HasSections: true, Items: children[""]}
}

// Sections lists the structure's sections in order, depth first through groups.
func (s Structure) Sections() []*SectionNode {
	var out []*SectionNode
	var walk func([]Item)
	walk = func(items []Item) {
		for _, it := range items {
			if it.Section != nil {
				out = append(out, it.Section)
			} else {
				walk(it.Group.Children)
			}
		}
	}
	walk(s.Items)
	return out
}

// AllSiteSpaces lists every site space in order.
func (s Structure) AllSiteSpaces() []SiteSpace {
	if !s.HasSections {
		return s.SiteSpaces
	}
	var out []SiteSpace
	for _, sec := range s.Sections() {
		out = append(out, sec.SiteSpaces...)
	}
	return out
}

// DefaultSection is the default section (nil when the site has none).
func (s Structure) DefaultSection() *SectionNode {
	for _, sec := range s.Sections() {
		if sec.Default {
			return sec
		}
	}
	return nil
}

// SiteSpacePath is where a site space is published below the site's URL: its section's
// path unless that section is the default one, then its own path unless it is the default
// site space of its container. The default site space of the default section is the site's
// home, "".
func (t Tree) SiteSpacePath(ss SiteSpace) string {
	var section *Section
	if ss.SectionID != "" {
		for i, sec := range t.Sections {
			if sec.ID == ss.SectionID {
				section = &t.Sections[i]
			}
		}
	}
	return siteSpacePath(section, ss)
}

// siteSpacePath is SiteSpacePath given the site space's section (nil at the site's root).
func siteSpacePath(section *Section, ss SiteSpace) string {
	p := ""
	if section != nil && !section.Default {
		p = section.Path
	}
	if !ss.Default {
		if p != "" {
			p += "/"
		}
		p += ss.Path
	}
	return p
}

// SectionPath is where a section is published below the site's URL ("" for the default).
func SectionPath(sec Section) string {
	if sec.Default {
		return ""
	}
	return sec.Path
}

// OrderKeys gives every item of the tree a key that sorts the whole structure depth first in
// order (a parent's key, "!", then the item's position, a space and its id; both separators
// sort before every base-62 digit, so a parent precedes its children and a shorter position
// its longer neighbours), so flat lists of site spaces,
// sections or groups can be paged with stable cursors.
func (t Tree) OrderKeys() map[string]string {
	parentOf := map[string]string{}
	pos := map[string]string{}
	for _, g := range t.Groups {
		parentOf[g.ID], pos[g.ID] = g.ParentID, g.Position+" "+g.ID
	}
	for _, sec := range t.Sections {
		parentOf[sec.ID], pos[sec.ID] = sec.GroupID, sec.Position+" "+sec.ID
	}
	for _, ss := range t.SiteSpaces {
		parentOf[ss.ID], pos[ss.ID] = ss.SectionID, ss.Position+" "+ss.ID
	}
	keys := map[string]string{}
	var key func(id string, depth int) string
	key = func(id string, depth int) string {
		if k, ok := keys[id]; ok {
			return k
		}
		k := pos[id]
		if p := parentOf[id]; p != "" && depth < 64 {
			k = key(p, depth+1) + "!" + k
		}
		keys[id] = k
		return k
	}
	for id := range pos {
		key(id, 0)
	}
	return keys
}
