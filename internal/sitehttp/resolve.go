package sitehttp

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/sitepub"
)

// Resolution is what a published site's URL shows a reader: the site, section, site space
// and space, the page's path in the space, and where these live in the URL. When Redirect is
// set, the reader is to go there instead (Target "content": the page's canonical address;
// "external": the visitor-auth site's login page).
type Resolution struct {
	Site                     sitepub.Site
	SectionID, SiteSpaceID   string
	SpaceID                  string
	PagePath                 string // the page's path in the space; "" for the space's home
	BasePath, SiteBasePath   string // URL paths of the site space and of the site, ending in "/"
	Canonical                string // the page's canonical URL
	ShareKey                 string // the share key that admitted the reader, if any
	Redirect, RedirectTarget string
}

// Resolve resolves u, a URL of a site docsd serves (at /sites/{organizationId}/{basename}/
// under ownBase, or at a site's hostname), for a reader: share keys (?shareKey=) and visitor
// tokens (?jwt_token= in u, or rd.Token, checked by the integration's key on a site whose
// visitor auth an integration does) are honoured as when the page is read. A reader the
// site refuses gets 404 (share-link sites, whose existence must not leak) or 401 (visitor
// auth); with redirectOnError, a visitor-auth refusal is a redirect to the site's login URL
// when it has one.
func (h *Handler) Resolve(ctx context.Context, u *url.URL, ownBase *url.URL, rd sitepub.Reader, redirectOnError bool) (Resolution, error) {
	noSite := apperr.NotFoundf("url: %s is not the address of a published site", u.Redacted())
	if h == nil || h.Sites == nil {
		return Resolution{}, noSite
	}
	var site sitepub.Site
	var base, rest string
	var err error
	if ownBase != nil && strings.EqualFold(u.Host, ownBase.Host) {
		tail, ok := strings.CutPrefix(u.EscapedPath(), strings.TrimSuffix(ownBase.EscapedPath(), "/")+PathPrefix)
		if !ok {
			return Resolution{}, noSite
		}
		segs := strings.SplitN(tail, "/", 3)
		if len(segs) < 2 {
			return Resolution{}, noSite
		}
		orgID, _ := url.PathUnescape(segs[0])
		basename, _ := url.PathUnescape(segs[1])
		site, err = h.Sites.Site(ctx, orgID, basename)
		base = strings.TrimSuffix(ownBase.EscapedPath(), "/") + PathPrefix + segs[0] + "/" + segs[1] + "/"
		if len(segs) == 3 {
			rest = segs[2]
		}
	} else {
		site, err = h.Sites.SiteByHostname(ctx, hostOnly(u.Host))
		base, rest = "/", strings.TrimPrefix(u.EscapedPath(), "/")
	}
	if isNotFound(err) {
		return Resolution{}, noSite
	}
	if err == nil {
		site, err = h.withAuthenticator(ctx, site)
	}
	if err != nil {
		return Resolution{}, err
	}
	if rest, err = url.PathUnescape(rest); err != nil {
		return Resolution{}, apperr.Invalidf("url: the path does not parse")
	}
	q := u.Query()
	if k := q.Get(shareKeyQuery); k != "" {
		rd.ShareKey = k
	}
	if t := q.Get(tokenQuery); t != "" && rd.Token == "" {
		rd.Token = t
	}
	if rd.Query == nil {
		rd.Query = q
	}
	adm, err := h.Sites.Admit(ctx, site, rd)
	var refusal *sitepub.Refusal
	if errors.As(err, &refusal) {
		if refusal.Unauthorized {
			if redirectOnError && refusal.LoginURL != "" {
				return Resolution{Site: site, Redirect: refusal.LoginURL, RedirectTarget: "external"}, nil
			}
			return Resolution{}, apperr.New(apperr.Unauthorized, "visitorAuthToken: the site needs a valid visitor token: %v", refusal.Reason)
		}
		return Resolution{}, noSite
	}
	if err != nil {
		return Resolution{}, err
	}
	if site.Visibility != sitepub.VisitorAuth {
		adm.Claims.Signed = h.Sites.SignedClaims(site, rd.Token)
	}
	st, err := h.Sites.Structure(ctx, site, adm.Claims)
	if err != nil {
		return Resolution{}, err
	}
	loc, ok := sitepub.Locate(st, rest)
	if !ok {
		return Resolution{}, apperr.NotFoundf("url: the site shows no content yet")
	}
	_, snap, err := h.Content.PublishedHead(ctx, loc.SiteSpace.SpaceID)
	if err != nil {
		return Resolution{}, err
	}
	origin := u.Scheme + "://" + u.Host
	if _, found := pageAt(snap, loc.PagePath); !found {
		if to, moved := sitepub.Canonical(st, rest); moved {
			return Resolution{Site: site, Redirect: origin + base + to, RedirectTarget: "content"}, nil
		}
		return Resolution{}, apperr.NotFoundf("url: no page at %s", u.Path)
	}
	res := Resolution{Site: site, SiteSpaceID: loc.SiteSpace.ID, SpaceID: loc.SiteSpace.SpaceID, PagePath: loc.PagePath,
		SiteBasePath: base, BasePath: base + sitepub.Prefix(loc.Section, loc.SiteSpace), ShareKey: rd.ShareKey}
	if site.Visibility != sitepub.ShareLink {
		res.ShareKey = ""
	}
	if loc.Section != nil {
		res.SectionID = loc.Section.ID
	}
	res.Canonical = origin + res.BasePath + loc.PagePath
	return res, nil
}
