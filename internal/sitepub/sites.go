package sitepub

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/site"
)

// Sites reads published sites from the site service.
type Sites struct{ S *site.Service }

var _ Source = Sites{}

// SiteByBasename implements Source.
func (a Sites) SiteByBasename(ctx context.Context, orgID, basename string) (Site, error) {
	st, err := a.S.FindByBasename(ctx, orgID, basename)
	if err != nil {
		return Site{}, err
	}
	return a.convert(st)
}

// SiteByHostname implements Source.
func (a Sites) SiteByHostname(ctx context.Context, hostname string) (Site, error) {
	st, err := a.S.FindByHostname(ctx, hostname)
	if err != nil {
		return Site{}, err
	}
	return a.convert(st)
}

func (a Sites) convert(st site.Site) (Site, error) {
	c, err := a.S.SiteCustomization(st)
	if err != nil {
		return Site{}, err
	}
	return Site{ID: st.ID, OrganizationID: st.OrganizationID, Basename: st.Basename, Title: st.Title,
		Hostname: st.Hostname, Visibility: Visibility(st.Visibility), Published: st.Published,
		AdaptiveSchema: st.AdaptiveSchema, Customization: customization(c),
		Auth:   Auth{Key: []byte(st.VisitorAuth.Key), FallbackURL: st.VisitorAuth.FallbackURL, Backend: st.VisitorAuth.Backend},
		stored: &st}, nil
}

// customization keeps what a page shows; links to content other than URLs are left out.
func customization(c site.Customization) Customization {
	out := Customization{Title: c.Title, PrimaryColor: c.Styling.PrimaryColor.Light, Copyright: c.Footer.Copyright,
		Pagination: c.Pagination.Enabled}
	out.PrimaryDark = c.Styling.PrimaryColor.Dark
	if c.Styling.Tint != nil {
		out.TintColor, out.TintDark = c.Styling.Tint.Color.Light, c.Styling.Tint.Color.Dark
	}
	switch {
	case c.Themes.Default == "dark":
		out.Dark = "always"
	case c.Themes.Toggeable:
		out.Dark = "system"
	}
	if c.Header.Logo != nil {
		out.LogoURL = c.Header.Logo.Light
	}
	if c.Favicon.Icon != nil {
		out.FaviconURL = c.Favicon.Icon.Light
	}
	if a := c.Announcement; a != nil && a.Enabled {
		out.Announcement = a.Message
		if a.Link != nil {
			out.AnnouncementLink = Link{Title: a.Link.Title, URL: refURL(a.Link.To)}
		}
	}
	for _, l := range c.Header.Links {
		if u := refURL(l.To); u != "" {
			out.HeaderLinks = append(out.HeaderLinks, Link{Title: l.Title, URL: u, Condition: l.Condition})
		}
	}
	for _, g := range c.Footer.Groups {
		lg := LinkGroup{Title: g.Title}
		for _, l := range g.Links {
			if u := refURL(l.To); u != "" {
				lg.Links = append(lg.Links, Link{Title: l.Title, URL: u})
			}
		}
		out.FooterGroups = append(out.FooterGroups, lg)
	}
	return out
}

func refURL(r *site.ContentRef) string {
	if r == nil || r.Kind != "url" {
		return ""
	}
	return r.URL
}

// Structure implements Source.
func (a Sites) Structure(ctx context.Context, s Site) (Structure, error) {
	if s.stored == nil {
		found, err := a.S.Find(ctx, s.ID)
		if err != nil {
			return Structure{}, err
		}
		s.stored = &found
	}
	st := *s.stored
	tree, err := a.S.Tree(ctx, st.ID)
	if err != nil {
		return Structure{}, err
	}
	ordered := tree.Structure()
	spaces := func(in []site.SiteSpace) ([]SiteSpace, error) {
		var out []SiteSpace
		for _, ss := range in {
			v := SiteSpace{ID: ss.ID, Title: ss.Space.Title, Path: ss.Path, SpaceID: ss.SpaceID,
				Condition: deref(ss.Condition), Default: ss.Default}
			if len(ss.Customization) > 0 {
				c, err := a.S.SiteSpaceCustomization(st, ss)
				if err != nil {
					return nil, err
				}
				cc := customization(c)
				v.Customization = &cc
			}
			out = append(out, v)
		}
		return out, nil
	}
	var items func([]site.Item) ([]Node, error)
	items = func(in []site.Item) ([]Node, error) {
		var out []Node
		for _, it := range in {
			switch {
			case it.Section != nil:
				ss, err := spaces(it.Section.SiteSpaces)
				if err != nil {
					return nil, err
				}
				out = append(out, Node{Section: &Section{ID: it.Section.ID, Title: it.Section.Title, Path: it.Section.Path,
					Condition: deref(it.Section.Condition), Default: it.Section.Default, SiteSpaces: ss}})
			case it.Group != nil:
				children, err := items(it.Group.Children)
				if err != nil {
					return nil, err
				}
				out = append(out, Node{Group: &Group{ID: it.Group.ID, Title: it.Group.Title, Children: children}})
			}
		}
		return out, nil
	}
	var out Structure
	if out.SiteSpaces, err = spaces(ordered.SiteSpaces); err != nil {
		return Structure{}, err
	}
	if out.Top, err = items(ordered.Items); err != nil {
		return Structure{}, err
	}
	return out, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// ShareKeyActive implements Source.
func (a Sites) ShareKeyActive(ctx context.Context, siteID, key string) (bool, error) {
	_, err := a.S.ActiveShareLink(ctx, siteID, key)
	if err != nil {
		if ae, ok := apperr.As(err); ok && ae.Code == apperr.NotFound {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
