package httpapi

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/site"
	"docsd/internal/space"
	"docsd/internal/wire"
)

// siteConv converts a site's structure for one caller: the space inside each site space
// carries the caller's permissions on it, and published URLs carry the request's share key.
type siteConv struct {
	s        *Server
	site     site.Site
	tree     site.Tree
	roles    map[string]auth.Role
	shareKey string
	// spaces' published addresses, for the space inside each site space
	spacesPublished map[string]wire.ContentPublished
}

// newSiteConv prepares the conversion of st's structure for c, with the caller's role on
// each of its spaces (Guest, permissions all false, on those they cannot open).
func (s *Server) newSiteConv(ctx context.Context, c auth.Caller, st site.Site, tr site.Tree, shareKey string) (*siteConv, error) {
	sc := &siteConv{s: s, site: st, tree: tr, shareKey: shareKey}
	distinct := map[string]bool{}
	for _, ss := range tr.SiteSpaces {
		distinct[ss.SpaceID] = true
	}
	ids := slices.Collect(maps.Keys(distinct))
	var err error
	if sc.spacesPublished, err = s.spacesPublished(ctx, ids, shareKey); err != nil {
		return nil, err
	}
	if sc.roles, err = s.Spaces.RolesOn(ctx, c, st.OrganizationID, ids); err != nil {
		return nil, err
	}
	return sc, nil
}

// shareKeyOf reads the optional shareKey query parameter: it must be the key of an active
// share link of the site.
func (s *Server) shareKeyOf(r *http.Request, st site.Site) (string, error) {
	key := r.URL.Query().Get("shareKey")
	if key == "" {
		return "", nil
	}
	if _, err := s.Sites.ActiveShareLink(r.Context(), st.ID, key); err != nil {
		return "", apperr.Invalidf("shareKey: not the key of an active share link of site %s", st.ID)
	}
	return key, nil
}

// published is the published URL of a path below the site ("" until the site is published).
func (sc *siteConv) published(path string) string {
	if !sc.site.Published {
		return ""
	}
	return sc.s.publishedURL(sc.site, path, sc.shareKey)
}

func (sc *siteConv) siteSpace(ss site.SiteSpace) wire.SiteSpace {
	sp := sc.s.urls.FromSpace(space.View{Space: ss.Space, Role: sc.roles[ss.SpaceID]})
	sp.SetPublished(sc.spacesPublished[ss.SpaceID])
	return wire.SiteSpace{Object: "site-space", ID: ss.ID, Path: ss.Path, Section: ss.SectionID,
		Space: sp, Title: ss.Space.Title,
		Default: ss.Default, Condition: ss.Condition, HasAdvancedCustomizationFeature: ss.Customization != nil,
		URLs: wire.PublishedURLs{Published: sc.published(sc.tree.SiteSpacePath(ss))}}
}

func (sc *siteConv) siteSpaces(list []site.SiteSpace) []wire.SiteSpace {
	out := make([]wire.SiteSpace, 0, len(list))
	for _, ss := range list {
		out = append(out, sc.siteSpace(ss))
	}
	return out
}

// structure is the ordered structure.
func (sc *siteConv) structure() site.Structure { return sc.tree.Structure() }

func (sc *siteConv) section(sec site.Section) wire.SiteSection {
	var spaces []site.SiteSpace
	for _, n := range sc.structure().Sections() {
		if n.ID == sec.ID {
			spaces = n.SiteSpaces
		}
	}
	return sc.sectionNode(&site.SectionNode{Section: sec, SiteSpaces: spaces})
}

func (sc *siteConv) sectionNode(n *site.SectionNode) wire.SiteSection {
	return wire.SiteSection{Object: "site-section", ID: n.ID, Title: n.Title, Description: n.Description,
		Default: n.Default, Path: n.Path, Condition: n.Condition, SectionGroup: n.GroupID,
		SiteSpaces: sc.siteSpaces(n.SiteSpaces), URLs: wire.PublishedURLs{Published: sc.published(site.SectionPath(n.Section))},
		Icon: n.Icon}
}

// group converts a group with its children, found in the ordered structure.
func (sc *siteConv) group(g site.SectionGroup) wire.SiteSectionGroup {
	var find func(items []site.Item) *site.GroupNode
	find = func(items []site.Item) *site.GroupNode {
		for _, it := range items {
			if it.Group == nil {
				continue
			}
			if it.Group.ID == g.ID {
				return it.Group
			}
			if n := find(it.Group.Children); n != nil {
				return n
			}
		}
		return nil
	}
	n := find(sc.structure().Items)
	if n == nil {
		n = &site.GroupNode{SectionGroup: g}
	}
	return sc.groupNode(n)
}

func (sc *siteConv) groupNode(n *site.GroupNode) wire.SiteSectionGroup {
	out := wire.SiteSectionGroup{Object: "site-section-group", ID: n.ID, Title: n.Title, SectionGroup: n.ParentID,
		Icon: n.Icon, Sections: []wire.SiteSection{}, Children: sc.items(n.Children)}
	for _, it := range n.Children {
		if it.Section != nil {
			out.Sections = append(out.Sections, sc.sectionNode(it.Section))
		}
	}
	return out
}

func (sc *siteConv) items(items []site.Item) []any {
	out := make([]any, 0, len(items))
	for _, it := range items {
		if it.Section != nil {
			out = append(out, sc.sectionNode(it.Section))
		} else {
			out = append(out, sc.groupNode(it.Group))
		}
	}
	return out
}

// siteStructure is the `structure` of the site.
func (sc *siteConv) siteStructure() wire.SiteStructure {
	st := sc.structure()
	if !st.HasSections {
		items := make([]any, 0, len(st.SiteSpaces))
		for _, ss := range st.SiteSpaces {
			items = append(items, sc.siteSpace(ss))
		}
		return wire.SiteStructure{Type: "siteSpaces", Structure: items}
	}
	return wire.SiteStructure{Type: "sections", Structure: sc.items(st.Items)}
}

// siteIcon is the favicon of a site's customization, when it sets one.
func (s *Server) siteIcon(st site.Site) json.RawMessage {
	c, err := s.Sites.SiteCustomization(st)
	if err != nil {
		return nil
	}
	var doc struct {
		Favicon json.RawMessage `json:"favicon"`
	}
	if json.Unmarshal(c.Raw, &doc) != nil || len(doc.Favicon) == 0 || strings.TrimSpace(string(doc.Favicon)) == "{}" {
		return nil
	}
	return doc.Favicon
}

func (s *Server) siteWire(v site.View) wire.Site { return s.urls.FromSite(v, s.siteIcon(v.Site)) }
