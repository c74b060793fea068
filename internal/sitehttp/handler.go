// Package sitehttp serves published docs sites to readers: at
// /sites/{organizationId}/{basename}/ under the server, and at a site's custom hostname when
// a request arrives with it. It is not part of the JSON API: no API token, HTML answers, and
// readers admitted by the site's visibility (share keys, visitor tokens) rather than by roles.
package sitehttp

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/blob"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/integration"
	"docsd/internal/integration/delivery"
	"docsd/internal/jsrun"
	"docsd/internal/sitepub"
	"docsd/internal/validate"
)

// PathPrefix is where sites answer under the server: /sites/{organizationId}/{basename}/.
const PathPrefix = "/sites/"

// Handler serves published sites.
type Handler struct {
	Sites   *sitepub.Service
	Content *content.Service
	Blobs   blob.Store
	Log     *slog.Logger
	// Search finds pages for the search box (FullText in docsd); with none it finds nothing.
	Search Searcher
	// SecureCookies marks the cookies that remember share keys and visitor tokens Secure even
	// on plain-HTTP requests: the server is reached over HTTPS through a proxy.
	SecureCookies bool
	// Views hears of each page served, for integrations' site_view events; it must not block.
	// nil hears nothing.
	Views interface{ SiteViewed(integration.SiteView) }
	// OpenAPI renders API reference blocks from the organization's OpenAPI specs; with none,
	// a block shows what its page wrote inside it.
	OpenAPI References
	// Integrations gives the scripts the site's integrations inject into its pages and the
	// integration that authenticates a visitor-auth site's readers; nil: none.
	Integrations SiteIntegrations
	// Generation is the database's generation (store.DB.Generation) and Events the outbox
	// (store.Outbox): sites and rendered pages are kept until an event says they changed,
	// read when the generation moved (see cache.go). Either nil renders every page afresh.
	Generation func(ctx context.Context, since time.Time, inFlight int64) (uint64, error)
	// Clock tells when a page holding integration blocks stops being fresh (their answers'
	// expiry is on the same clock); nil is the real clock.
	Clock  clock.Clock
	Events EventTail

	caches cacheSet
}

// SiteIntegrations are what integrations do on published sites (integration.Service's
// PublishedScripts and VisitorAuthenticator, delivery.Deliverer's SiteScript and
// VisitorAuthentication): inject scripts, authenticate readers, render blocks.
type SiteIntegrations interface {
	PublishedScripts(ctx context.Context, siteID string) ([]integration.PublishedScript, error)
	SiteScript(ctx context.Context, siteID, installationID string) (delivery.SiteScriptAnswer, error)
	VisitorAuthenticator(ctx context.Context, siteID string) (integration.SiteAuthenticator, bool, error)
	VisitorAuthentication(ctx context.Context, siteID, installationID, location string) (*jsrun.Response, error)
	// SitePolicies and Block are integration.Service's and delivery.Deliverer's: the
	// Content-Security-Policy the site's integrations declare, and an integration block of a
	// page rendered.
	SitePolicies(ctx context.Context, siteID string) ([]string, error)
	Block(ctx context.Context, req integration.BlockRequest) (delivery.BlockAnswer, error)
}

// References gives, for one organization, the hook that renders its API reference blocks.
type References interface {
	References(ctx context.Context, orgID string) func(tag string, attrs map[string]string) (string, bool)
}

// ServeHTTP serves the site named by the request's {organizationId} and {basename} path
// values (see site.PublishedPath), at {path}.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if h == nil || h.Sites == nil {
		h.fail(w, r, errNoSite(r))
		return
	}
	gen := h.view(r, time.Now())
	defer gen.done()
	orgID, basename := r.PathValue("organizationId"), r.PathValue("basename")
	st, err := h.site(r.Context(), gen, "name\x00"+orgID+"\x00"+basename, func(ctx context.Context) (sitepub.Site, error) {
		return h.Sites.Site(ctx, orgID, basename)
	})
	if err != nil {
		if isNotFound(err) {
			// One answer for absent, unpublished and refused sites: a reader learns nothing
			// of the sites they may not read.
			err = errNoSite(r)
		}
		h.fail(w, r, err)
		return
	}
	base := PathPrefix + url.PathEscape(orgID) + "/" + url.PathEscape(basename) + "/"
	if !strings.HasPrefix(r.URL.EscapedPath(), base) {
		// The site's address without its slash: relative links resolve against the slash.
		http.Redirect(w, r, base+queryOf(r.URL), http.StatusMovedPermanently)
		return
	}
	h.serveSite(w, r, gen, st, base, r.PathValue("path"))
}

// Hosts serves requests whose Host is a published site's hostname, and hands every other
// request to next. Requests for the server's own host, IP addresses and single-label names
// never reach the database.
func (h *Handler) Hosts(next http.Handler, ownHost string) http.Handler {
	own := hostOnly(ownHost)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := hostOnly(r.Host)
		if h == nil || h.Sites == nil || host == own || strings.Count(host, ".") < 2 || net.ParseIP(host) != nil {
			next.ServeHTTP(w, r)
			return
		}
		gen := h.view(r, time.Now())
		defer gen.done()
		site, err := h.site(r.Context(), gen, "host\x00"+host, func(ctx context.Context) (sitepub.Site, error) {
			return h.Sites.SiteByHostname(ctx, host)
		})
		if err != nil {
			if !isNotFound(err) {
				h.fail(w, r, err)
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			h.fail(w, r, apperr.New(apperr.MethodNotAllowed, "method %s is not allowed on a published site", r.Method))
			return
		}
		// Path and query reach the database as text: refuse what it cannot hold, as the API does.
		if !validate.IsText(r.URL.Path) {
			h.fail(w, r, apperr.NotFoundf("no page at this address: the path must be UTF-8 text without NUL characters"))
			return
		}
		if err := validate.Query(r.URL.RawQuery); err != nil {
			h.fail(w, r, err)
			return
		}
		h.serveSite(w, r, gen, site, "/", strings.TrimPrefix(r.URL.Path, "/"))
	})
}

func (h *Handler) now() time.Time {
	if h.Clock == nil {
		return time.Now()
	}
	return h.Clock.Now()
}

func hostOnly(hostport string) string {
	hostport = strings.ToLower(hostport)
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return strings.Trim(h, "[]")
	}
	return hostport
}

// withAuthenticator is site with the key its readers' tokens are checked by. A visitor-auth
// site whose backend is "integration" has its integration sign them with the site
// installation's signing secret; without one installed no token admits anyone.
func (h *Handler) withAuthenticator(ctx context.Context, site sitepub.Site) (sitepub.Site, error) {
	if site.Visibility != sitepub.VisitorAuth || site.Auth.Backend != "integration" {
		return site, nil
	}
	site.Auth.Key, site.Auth.Authenticator = nil, ""
	if h.Integrations == nil {
		return site, nil
	}
	a, ok, err := h.Integrations.VisitorAuthenticator(ctx, site.ID)
	if err != nil || !ok {
		return site, err
	}
	site.Auth.Key, site.Auth.Authenticator = a.Key, a.InstallationID
	return site, nil
}

// serveSite answers one request for a site served at base (a URL path ending in "/"); rest
// is the path below base.
func (h *Handler) serveSite(w http.ResponseWriter, r *http.Request, gen view, site sitepub.Site, base, rest string) {
	site, err := h.withAuthenticator(r.Context(), site)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	rd, done := h.admitFromQuery(w, r, site, base)
	if done {
		return
	}
	adm, err := h.Sites.Admit(r.Context(), site, rd)
	if err != nil {
		h.refuse(w, r, site, base, err)
		return
	}
	if site.Visibility != sitepub.VisitorAuth {
		adm.Claims.Signed = h.Sites.SignedClaims(site, rd.Token)
	}
	// A page is what the site shows this reader's segment at this address: served again from
	// the cache until an event says the site, its organization or one of its spaces changed.
	if strings.HasPrefix(rest, assetsPath) {
		h.serveAsset(w, r, strings.TrimPrefix(rest, assetsPath))
		return
	}
	key, cacheable := "", gen.ok && rest != searchPath && !strings.HasPrefix(rest, filesPath) && !strings.HasPrefix(rest, scriptsPath)
	if cacheable {
		if key, cacheable = pageKey(site, base, rest, adm); cacheable {
			if p, ok := h.cachedPage(key, h.now()); ok {
				p.write(w, r)
				h.viewed(r, site, p.siteSpaceID, p.pageID)
				return
			}
		}
	}
	st, err := h.Sites.Structure(r.Context(), site, adm.Claims)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	v := &visit{h: h, site: site, base: base, adm: adm, st: st}
	switch {
	case rest == searchPath:
		err = v.search(w, r)
	case strings.HasPrefix(rest, filesPath):
		err = v.file(w, r, strings.TrimPrefix(rest, filesPath))
	case strings.HasPrefix(rest, scriptsPath):
		err = v.siteScript(w, r, strings.TrimPrefix(rest, scriptsPath))
	default:
		err = v.page(w, r, rest)
		if err == nil && cacheable && v.rendered != nil && !v.rendered.noStore {
			h.keepPage(key, gen.at, site, st, v.rendered)
		}
	}
	if err != nil {
		h.fail(w, r, err)
	}
}

// Reserved paths under a site, with a "~" no page slug starts with.
const (
	searchPath  = "~search"
	filesPath   = "~files/"
	scriptsPath = "~integrations/"
	assetsPath  = "~assets/"
)

// refuse answers a reader the site does not admit: 404 for share-link sites (nothing about
// the site leaks), a redirect to the login URL or a 401 for visitor-auth sites. Never content.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, site sitepub.Site, base string, err error) {
	var ref *sitepub.Refusal
	if !errors.As(err, &ref) {
		h.fail(w, r, err)
		return
	}
	h.Log.Info("site reader refused", "site", site.ID, "reason", ref.Reason.Error())
	if ref.Unauthorized {
		clearCookie(w, r, base, tokenCookie)
	} else {
		clearCookie(w, r, base, shareKeyCookie)
	}
	if !ref.Unauthorized {
		h.fail(w, r, errNoSite(r))
		return
	}
	if site.Auth.Authenticator != "" && h.Integrations != nil {
		// The integration says where the reader signs in: its script's answer, usually a
		// redirect to the identity provider, which sends them back with a token.
		res, err := h.Integrations.VisitorAuthentication(r.Context(), site.ID, site.Auth.Authenticator, r.URL.Path)
		if err != nil {
			h.fail(w, r, err)
			return
		}
		hd := w.Header()
		securityHeaders(hd)
		for _, k := range []string{"Location", "Content-Type", "Set-Cookie"} {
			if v := res.Headers.Values(k); len(v) > 0 {
				hd[k] = v
			}
		}
		hd.Set("Cache-Control", "no-store")
		hd.Set("Content-Security-Policy", "default-src 'none'; sandbox")
		w.WriteHeader(res.Status)
		_, _ = w.Write(res.Body)
		return
	}
	if ref.LoginURL != "" {
		if u, perr := url.Parse(ref.LoginURL); perr == nil && (u.Scheme == "https" || u.Scheme == "http") {
			q := u.Query()
			q.Set("location", r.URL.Path)
			u.RawQuery = q.Encode()
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, u.String(), http.StatusFound)
			return
		}
	}
	h.fail(w, r, apperr.New(apperr.Unauthorized, "this site needs a valid visitor token (%v)", ref.Reason))
}

func errNoSite(r *http.Request) error { return apperr.NotFoundf("no published site at %s", r.URL.Path) }

func isNotFound(err error) bool {
	var ae *apperr.Error
	return errors.As(err, &ae) && ae.Code == apperr.NotFound
}

// queryOf is "?query" or "".
func queryOf(u *url.URL) string {
	if u.RawQuery == "" {
		return ""
	}
	return "?" + u.RawQuery
}
