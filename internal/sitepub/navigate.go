package sitepub

import "strings"

// Visible is the structure a reader with claims sees: sections, groups and site spaces whose
// condition does not hold are removed, as are groups and sections left empty. Exactly one
// section and one site space per section stay the default (served without a path prefix): the
// one marked so when it is visible, else the first visible one.
func Visible(st Structure, ev *Evaluator, c Claims) Structure {
	out := Structure{SiteSpaces: visibleSpaces(st.SiteSpaces, ev, c)}
	out.Top = visibleNodes(st.Top, ev, c)
	sections := Sections(out)
	hasDefault := false
	for _, s := range sections {
		hasDefault = hasDefault || s.Default
	}
	if !hasDefault && len(sections) > 0 {
		sections[0].Default = true
	}
	return out
}

func visibleNodes(nodes []Node, ev *Evaluator, c Claims) []Node {
	var out []Node
	for _, n := range nodes {
		switch {
		case n.Section != nil:
			if !ev.Visible(n.Section.Condition, c) {
				continue
			}
			s := *n.Section
			if s.SiteSpaces = visibleSpaces(s.SiteSpaces, ev, c); len(s.SiteSpaces) > 0 {
				out = append(out, Node{Section: &s})
			}
		case n.Group != nil:
			g := *n.Group
			if g.Children = visibleNodes(g.Children, ev, c); len(g.Children) > 0 {
				out = append(out, Node{Group: &g})
			}
		}
	}
	return out
}

func visibleSpaces(spaces []SiteSpace, ev *Evaluator, c Claims) []SiteSpace {
	var out []SiteSpace
	hasDefault := false
	for _, ss := range spaces {
		if ev.Visible(ss.Condition, c) {
			out = append(out, ss)
			hasDefault = hasDefault || ss.Default
		}
	}
	if !hasDefault && len(out) > 0 {
		out[0].Default = true
	}
	return out
}

// Sections lists the structure's sections in reading order, groups flattened; the pointers
// share the structure's sections.
func Sections(st Structure) []*Section {
	var out []*Section
	var walk func([]Node)
	walk = func(nodes []Node) {
		for _, n := range nodes {
			if n.Section != nil {
				out = append(out, n.Section)
			} else if n.Group != nil {
				walk(n.Group.Children)
			}
		}
	}
	walk(st.Top)
	return out
}

// Location is what a path under a site names.
type Location struct {
	Section   *Section // nil for a site without sections
	SiteSpace SiteSpace
	PagePath  string // the page's path in its space; "" for the space's home
}

// Locate finds the section, site space and page a site-relative path ("guides/v2/setup")
// names in a (visible) structure: a leading segment equal to a section's path picks that
// section, else the default one; then, likewise, a site space of the section; the rest is the
// page's path. ok is false when the site shows nothing.
func Locate(st Structure, path string) (Location, bool) {
	rest := strings.Trim(path, "/")
	var loc Location
	spaces := st.SiteSpaces
	if sections := Sections(st); len(sections) > 0 {
		for _, s := range sections {
			if s.Default && loc.Section == nil {
				loc.Section = s
			}
		}
		for _, s := range sections {
			if _, tail, ok := cutSegment(rest, s.Path); ok && !s.Default {
				loc.Section, rest = s, tail
				break
			}
		}
		if loc.Section == nil {
			loc.Section = sections[0]
		}
		spaces = loc.Section.SiteSpaces
	}
	if len(spaces) == 0 {
		return Location{}, false
	}
	for _, ss := range spaces {
		if ss.Default {
			loc.SiteSpace = ss
		}
	}
	for _, ss := range spaces {
		if _, tail, ok := cutSegment(rest, ss.Path); ok && !ss.Default {
			loc.SiteSpace, rest = ss, tail
			break
		}
	}
	loc.PagePath = rest
	return loc, true
}

// cutSegment cuts seg off the front of path when it is path's whole first segment.
func cutSegment(path, seg string) (string, string, bool) {
	if seg == "" {
		return "", path, false
	}
	if path == seg {
		return seg, "", true
	}
	if tail, ok := strings.CutPrefix(path, seg+"/"); ok {
		return seg, tail, true
	}
	return "", path, false
}

// Canonical rewrites a path that spells out the default section's path or a default site
// space's path ("guides/v2/setup", both defaults) to the address they are served at
// ("setup"); found is false when the path names neither.
func Canonical(st Structure, path string) (string, bool) {
	rest := strings.Trim(path, "/")
	changed := false
	spaces := st.SiteSpaces
	var section *Section
	for _, s := range Sections(st) {
		if s.Default {
			section = s
		}
	}
	if section != nil {
		spaces = section.SiteSpaces
		if _, tail, ok := cutSegment(rest, section.Path); ok {
			rest, changed = tail, true
		} else {
			for _, s := range Sections(st) {
				if _, tail, ok := cutSegment(rest, s.Path); ok && !s.Default {
					spaces = s.SiteSpaces
					if _, t2, ok := cutDefault(tail, spaces); ok {
						return s.Path + "/" + t2, true
					}
					return "", false
				}
			}
		}
	}
	if _, tail, ok := cutDefault(rest, spaces); ok {
		rest, changed = tail, true
	}
	return rest, changed
}

// cutDefault cuts the default site space's path off the front of path.
func cutDefault(path string, spaces []SiteSpace) (string, string, bool) {
	for _, ss := range spaces {
		if ss.Default {
			return cutSegment(path, ss.Path)
		}
	}
	return "", path, false
}

// Prefix is the site-relative path at which a site space's pages start: the section's path
// unless it is the default section, then the site space's path unless it is the section's
// default, each followed by "/".
func Prefix(section *Section, ss SiteSpace) string {
	var b strings.Builder
	if section != nil && !section.Default {
		b.WriteString(section.Path + "/")
	}
	if !ss.Default {
		b.WriteString(ss.Path + "/")
	}
	return b.String()
}
