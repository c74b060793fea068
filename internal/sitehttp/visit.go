package sitehttp

import (
	"encoding/json"
	"errors"
	"html/template"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/blob"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/integration"
	"docsd/internal/markdoc"
	"docsd/internal/openapi"
	"docsd/internal/sitehtml"
	"docsd/internal/sitepub"
	"docsd/internal/spacelinks"
)

// visit is one admitted reader's request to one site.
type visit struct {
	h    *Handler
	site sitepub.Site
	base string // URL path the site is served at, ending in "/"
	adm  sitepub.Admission
	st   sitepub.Structure
	// rendered is the page the visit answered, for the cache.
	rendered *renderedPage
	// connect are the origins the page's scripts may send requests to (connect-src).
	connect []string
	// blocks is what the page's integration blocks need of the page (see block).
	blocks blocksSeen
}

// blocksSeen gathers, while a page's integration blocks render, what the page's headers and
// caching need of them.
type blocksSeen struct {
	policies, frames []string
	expires          time.Time
	noStore          bool
}

// page renders the page at rest.
func (v *visit) page(w http.ResponseWriter, r *http.Request, rest string) error {
	loc, ok := sitepub.Locate(v.st, rest)
	if !ok {
		return apperr.NotFoundf("this site shows no content yet")
	}
	_, snap, err := v.h.Content.PublishedHead(r.Context(), loc.SiteSpace.SpaceID)
	if err != nil {
		return err
	}
	page, ok := pageAt(snap, loc.PagePath)
	if ok && page.Kind == contenttree.KindGroup {
		page, ok = firstDocument(snap, page.ID)
	}
	if !ok {
		if to, found := sitepub.Canonical(v.st, rest); found {
			// The address names the default section or site space by its path, which their
			// pages are served without.
			http.Redirect(w, r, v.base+to, http.StatusMovedPermanently)
			return nil
		}
		return apperr.NotFoundf("no page at %s", r.URL.Path)
	}
	md, err := v.h.Content.Markdown(r.Context(), snap, page.ID)
	if err != nil {
		return err
	}
	// Reusable contents show in place of their includes, before conditions are weighed, so
	// an included `if` block is decided as one written in the page.
	if md, err = v.h.Content.ExpandIncludes(r.Context(), snap, md); err != nil {
		return err
	}
	md = v.h.Sites.Conditional(md, v.adm.Claims)
	prefix := v.base + sitepub.Prefix(loc.Section, loc.SiteSpace)
	var links *spacelinks.Resolver // indexing the tree costs a walk: only pages with links pay it
	var hooks markdoc.HTMLHooks
	var tryOrigins []string // where the page's "try it" panels send requests
	if v.h.OpenAPI != nil {
		refs := v.h.OpenAPI.References(r.Context(), v.site.OrganizationID)
		hooks.OpenAPI = func(tag string, attrs map[string]string) (string, bool) {
			out, ok := refs(tag, attrs)
			if ok {
				tryOrigins = append(tryOrigins, openapi.TryItOrigins(out)...)
			}
			return out, ok
		}
	}
	hooks.Integration = func(name, block string, props map[string]any) string {
		return v.block(r, integration.BlockRequest{SiteID: v.site.ID, SpaceID: loc.SiteSpace.SpaceID,
			Integration: name, Block: block, Props: props})
	}
	body := sitehtml.RewriteLinks(markdoc.ToHTMLWith(md, hooks), func(dest string, image bool) (string, bool) {
		if links == nil {
			links = spacelinks.New(snap.Tree)
		}
		ref, ok := links.Resolve(page.ID, dest)
		if !ok {
			return "", false
		}
		switch ref.Kind {
		case "file":
			return v.base + filesPath + loc.SiteSpace.ID + "/" + ref.File, true
		case "page", "anchor":
			p, ok := snap.Paths[ref.Page]
			if !ok || image {
				return "", false
			}
			u := prefix + p
			if ref.Anchor != "" {
				u += "#" + ref.Anchor
			}
			return u, true
		}
		return "", false
	})
	p := v.frame(loc)
	p.Tree = v.tree(snap, prefix, page.ID)
	if c := v.customization(loc); c.Pagination {
		p.Previous, p.Next = neighbours(p.Tree, prefix+snap.Paths[page.ID])
	}
	p.Title, p.Description, p.Body = page.Title, page.Description, body
	p.Outline = outline(md)
	// A hidden page stays readable at its address, but out of search engines as it is out of
	// the navigation.
	p.NoIndex = p.NoIndex || page.NoIndex || page.NoRobotsIndex || page.Hidden
	if len(tryOrigins) > 0 {
		name, _ := openapi.TryItScript()
		p.Scripts = append(p.Scripts, v.base+assetsPath+name)
	}
	v.connect = tryOrigins
	if err := v.write(w, r, p); err != nil {
		return err
	}
	if v.rendered != nil {
		v.rendered.siteSpaceID, v.rendered.pageID = loc.SiteSpace.ID, page.ID
	}
	v.h.viewed(r, v.site, loc.SiteSpace.ID, page.ID)
	return nil
}

// viewed tells Views of a page served to a reader, rendered afresh or from the cache alike.
func (h *Handler) viewed(r *http.Request, site sitepub.Site, siteSpaceID, pageID string) {
	if h.Views != nil && r.Method == http.MethodGet {
		h.Views.SiteViewed(integration.SiteView{SiteID: site.ID, OrgID: site.OrganizationID,
			SiteSpaceID: siteSpaceID, PageID: pageID, URL: requestURL(r), Referrer: r.Referer(),
			UserAgent: r.UserAgent(), IP: clientIP(r), Language: r.Header.Get("Accept-Language")})
	}
}

// requestURL is the address the reader asked for.
func requestURL(r *http.Request) string {
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host + r.URL.RequestURI()
}

// clientIP is the TCP peer's address.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// pageAt finds the document or group at a path of the snapshot, the home page for "": the
// snapshot's indexes answer without walking the tree.
func pageAt(snap *content.Snapshot, path string) (contenttree.Page, bool) {
	if path == "" {
		for _, id := range snap.Children("") {
			switch p := snap.Tree.Pages[id]; p.Kind {
			case contenttree.KindDocument:
				return p, true
			case contenttree.KindGroup:
				if home, ok := firstDocument(snap, id); ok {
					return home, true
				}
			}
		}
		return contenttree.Page{}, false
	}
	for id, p := range snap.Paths {
		if p == path {
			return snap.Tree.Pages[id], true
		}
	}
	return contenttree.Page{}, false
}

// outline lists a page's headings when it has at least two, so a long page can be skimmed.
func outline(md string) []sitehtml.NavItem {
	var out []sitehtml.NavItem
	for _, s := range markdoc.Sections(md) {
		if s.ID != "" && s.Title != "" {
			out = append(out, sitehtml.NavItem{Title: s.Title, URL: "#" + s.ID})
		}
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// firstDocument is the first document under a group, for a group's own URL.
func firstDocument(snap *content.Snapshot, groupID string) (contenttree.Page, bool) {
	for _, id := range snap.Children(groupID) {
		if c := snap.Tree.Pages[id]; c.Kind == contenttree.KindDocument {
			return c, true
		}
	}
	return contenttree.Page{}, false
}

// frame is the part of a page every answer of the site shares: header, sections, variants,
// footer.
func (v *visit) frame(loc sitepub.Location) sitehtml.Page {
	c := v.customization(loc)
	title := v.site.Title
	if c.Title != "" {
		title = c.Title
	}
	p := sitehtml.Page{
		SiteTitle: title, HomeURL: v.base, NoIndex: v.adm.NoIndex,
		Theme: sitehtml.Theme{Primary: c.PrimaryColor, Tint: c.TintColor, PrimaryDark: c.PrimaryDark,
			TintDark: c.TintDark, Dark: c.Dark},
		LogoURL: safeURL(c.LogoURL), Favicon: safeURL(c.FaviconURL), Copyright: c.Copyright,
		SearchURL: v.base + searchPath, Announcement: c.Announcement,
		AnnouncementLink: sitehtml.Link{Title: c.AnnouncementLink.Title, URL: safeURL(c.AnnouncementLink.URL)},
	}
	for _, l := range c.HeaderLinks {
		if !v.h.Sites.Visible(l.Condition, v.adm.Claims) {
			continue
		}
		p.Header = append(p.Header, sitehtml.Link{Title: l.Title, URL: l.URL})
	}
	for _, g := range c.FooterGroups {
		fg := sitehtml.LinkGroup{Title: g.Title}
		for _, l := range g.Links {
			fg.Links = append(fg.Links, sitehtml.Link{Title: l.Title, URL: l.URL})
		}
		p.Footer = append(p.Footer, fg)
	}
	p.Sections = v.sectionItems(v.st.Top, loc.Section)
	spaces := v.st.SiteSpaces
	if loc.Section != nil {
		spaces = loc.Section.SiteSpaces
	}
	if len(spaces) > 1 {
		for _, ss := range spaces {
			p.Variants = append(p.Variants, sitehtml.NavItem{Title: ss.Title,
				URL: v.base + sitepub.Prefix(loc.Section, ss), Current: ss.ID == loc.SiteSpace.ID})
		}
	}
	return p
}

// customization is the site's, or the site space's when it overrides the site's.
func (v *visit) customization(loc sitepub.Location) sitepub.Customization {
	if loc.SiteSpace.Customization != nil {
		return *loc.SiteSpace.Customization
	}
	return v.site.Customization
}

// neighbours finds the pages before and after the one at url in the tree's reading order
// (depth first, pages with an address of the site only).
func neighbours(tree []sitehtml.NavItem, url string) (prev, next *sitehtml.Link) {
	var order []sitehtml.Link
	var walk func([]sitehtml.NavItem)
	walk = func(items []sitehtml.NavItem) {
		for _, it := range items {
			if it.URL != "" && strings.HasPrefix(it.URL, "/") {
				order = append(order, sitehtml.Link{Title: it.Title, URL: it.URL})
			}
			walk(it.Children)
		}
	}
	walk(tree)
	for i, l := range order {
		if l.URL != url {
			continue
		}
		if i > 0 {
			prev = &order[i-1]
		}
		if i+1 < len(order) {
			next = &order[i+1]
		}
		break
	}
	return prev, next
}

func (v *visit) sectionItems(nodes []sitepub.Node, current *sitepub.Section) []sitehtml.NavItem {
	var out []sitehtml.NavItem
	for _, n := range nodes {
		switch {
		case n.Section != nil:
			u := v.base
			if !n.Section.Default {
				u += n.Section.Path + "/"
			}
			out = append(out, sitehtml.NavItem{Title: n.Section.Title, URL: u,
				Current: current != nil && current.ID == n.Section.ID})
		case n.Group != nil:
			out = append(out, sitehtml.NavItem{Title: n.Group.Title, Children: v.sectionItems(n.Group.Children, current)})
		}
	}
	return out
}

// tree is the site space's page tree, hidden pages left out; prefix is the URL path of the
// site space's pages.
func (v *visit) tree(snap *content.Snapshot, prefix, currentID string) []sitehtml.NavItem {
	var build func(parentID string) []sitehtml.NavItem
	build = func(parentID string) []sitehtml.NavItem {
		var out []sitehtml.NavItem
		for _, id := range snap.Children(parentID) {
			c := snap.Tree.Pages[id]
			if c.Hidden {
				continue
			}
			item := sitehtml.NavItem{Title: c.Title, Current: c.ID == currentID}
			switch c.Kind {
			case contenttree.KindDocument:
				item.URL = prefix + snap.Paths[c.ID]
			case contenttree.KindLink:
				if item.URL = linkURL(c.Target); item.URL == "" {
					continue
				}
			}
			item.Children = build(c.ID)
			out = append(out, item)
		}
		return out
	}
	return build("")
}

// linkURL is the address of a link page pointing at a URL; other targets are left out of the
// navigation.
func linkURL(target json.RawMessage) string {
	var t struct {
		Kind string `json:"kind"`
		URL  string `json:"url"`
	}
	if json.Unmarshal(target, &t) != nil || t.Kind != "url" {
		return ""
	}
	return safeURL(t.URL)
}

// safeURL keeps http(s) URLs and site-relative paths; anything else becomes "".
func safeURL(u string) string {
	l := strings.ToLower(u)
	if strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://") || (strings.HasPrefix(u, "/") && !strings.HasPrefix(u, "//")) {
		return u
	}
	return ""
}

// block renders an integration block of the page through its integration's script
// (delivery.Deliverer.Block). A block that cannot be shown, whatever the reason, is a small
// box saying so, never a failed page; the page is then not cached, so the next reader tries
// again.
func (v *visit) block(r *http.Request, req integration.BlockRequest) string {
	label := template.HTMLEscapeString(req.Integration + "/" + req.Block)
	if v.h.Integrations == nil {
		v.blocks.noStore = true
		return `<div class="integration-block integration-error" role="note">Integration block ` + label + `: integrations do not run on this server.</div>`
	}
	a, err := v.h.Integrations.Block(r.Context(), req)
	if err != nil {
		v.blocks.noStore = true
		msg := "it could not be rendered"
		var ae *apperr.Error
		if errors.As(err, &ae) && ae.Code != apperr.Internal {
			msg = ae.Message
		} else {
			if v.h.Log != nil {
				v.h.Log.Error("integration block", "site", v.site.ID, "integration", req.Integration, "block", req.Block, "err", err)
			}
		}
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return `<div class="integration-block integration-error" role="note"><strong>Integration block ` + label +
			` could not be shown.</strong> ` + template.HTMLEscapeString(strings.ToValidUTF8(msg, "")) + `</div>`
	}
	if a.Policy != "" && !slices.Contains(v.blocks.policies, a.Policy) {
		v.blocks.policies = append(v.blocks.policies, a.Policy)
	}
	for _, f := range a.Frames {
		if !slices.Contains(v.blocks.frames, f) {
			v.blocks.frames = append(v.blocks.frames, f)
		}
	}
	if a.Expires.IsZero() {
		v.blocks.noStore = true
	} else if v.blocks.expires.IsZero() || a.Expires.Before(v.blocks.expires) {
		v.blocks.expires = a.Expires
	}
	return `<div class="integration-block" data-integration="` + template.HTMLEscapeString(req.Integration) +
		`" data-block="` + template.HTMLEscapeString(req.Block) + `">` + a.HTML + `</div>`
}

func (v *visit) write(w http.ResponseWriter, r *http.Request, p sitehtml.Page) error {
	var policies []string
	if v.h.Integrations != nil {
		var err error
		if policies, err = v.h.Integrations.SitePolicies(r.Context(), v.site.ID); err != nil {
			return err
		}
		scripts, err := v.h.Integrations.PublishedScripts(r.Context(), v.site.ID)
		if err != nil {
			return err
		}
		for _, s := range scripts {
			p.Scripts = append(p.Scripts, v.base+scriptsPath+url.PathEscape(s.InstallationID)+"/script.js?v="+url.QueryEscape(s.Version))
		}
	}
	out, err := sitehtml.Render(p)
	if err != nil {
		return err
	}
	private := v.site.Visibility == sitepub.ShareLink || v.site.Visibility == sitepub.VisitorAuth
	v.rendered = newRenderedPage(out.HTML, out.StyleHash, private, p.NoIndex)
	v.rendered.scripts = len(p.Scripts) > 0
	for _, pol := range v.blocks.policies {
		if !slices.Contains(policies, pol) {
			policies = append(policies, pol)
		}
	}
	v.rendered.policies, v.rendered.frames = policies, v.blocks.frames
	v.rendered.expires, v.rendered.noStore = v.blocks.expires, v.blocks.noStore
	v.rendered.connect = connectSources(v.connect)
	v.rendered.write(w, r)
	return nil
}

// file streams a file of a visible site space: rest is "{siteSpaceId}/{fileId}".
func (v *visit) file(w http.ResponseWriter, r *http.Request, rest string) error {
	ssID, fileID, _ := strings.Cut(rest, "/")
	var ss *sitepub.SiteSpace
	for _, s := range allSpaces(v.st) {
		if s.ID == ssID {
			ss = &s
			break
		}
	}
	if ss == nil {
		return apperr.NotFoundf("no file at %s", r.URL.Path)
	}
	_, snap, err := v.h.Content.PublishedHead(r.Context(), ss.SpaceID)
	if err != nil {
		return err
	}
	f, ok := snap.Tree.Files[fileID]
	if !ok {
		return apperr.NotFoundf("no file at %s", r.URL.Path)
	}
	hd := w.Header()
	securityHeaders(hd)
	// A file is served as its owner uploaded it; the sandbox keeps an SVG or an HTML file
	// from running anything on the site's origin.
	hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; sandbox")
	if v.adm.NoIndex {
		hd.Set("X-Robots-Tag", "noindex")
	}
	if v.site.Visibility == sitepub.ShareLink || v.site.Visibility == sitepub.VisitorAuth {
		hd.Set("Cache-Control", "private, no-cache")
	} else {
		hd.Set("Cache-Control", "public, no-cache")
	}
	return blob.Serve(w, r, v.h.Blobs, f.Hash, f.ContentType)
}

// allSpaces lists every visible site space of a structure.
func allSpaces(st sitepub.Structure) []sitepub.SiteSpace {
	out := append([]sitepub.SiteSpace(nil), st.SiteSpaces...)
	for _, s := range sitepub.Sections(st) {
		out = append(out, s.SiteSpaces...)
	}
	return out
}

// siteScript answers the script an integration injects into the site: rest is
// "{installationId}/script.js". The reader was admitted as for any page.
func (v *visit) siteScript(w http.ResponseWriter, r *http.Request, rest string) error {
	id, file, _ := strings.Cut(rest, "/")
	if v.h.Integrations == nil || file != "script.js" || id == "" {
		return apperr.NotFoundf("no script at %s", r.URL.Path)
	}
	a, err := v.h.Integrations.SiteScript(r.Context(), v.site.ID, id)
	if err != nil {
		return err
	}
	hd := w.Header()
	securityHeaders(hd)
	hd.Set("Content-Type", a.ContentType)
	cc := a.CacheControl
	if cc == "" {
		cc = "no-cache"
	}
	if v.site.Visibility == sitepub.ShareLink || v.site.Visibility == sitepub.VisitorAuth {
		cc = "private, " + strings.TrimPrefix(cc, "public, ")
	}
	hd.Set("Cache-Control", cc)
	hd.Set("Content-Length", strconv.Itoa(len(a.Body)))
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(a.Body)
	return err
}
