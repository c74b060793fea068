package delivery

import (
	"context"
	"strings"
	"sync"

	"docsd/internal/jsrun"
)

// siteScripts caches the answers of fetch_published_script events by site, installation and
// version: every published page of a site loads its scripts, and a script's answer changes
// only with the script or the installations' configuration.
type siteScripts struct {
	mu      sync.Mutex
	answers map[string]SiteScriptAnswer
}

// siteScriptsKept bounds the cached answers (each at most the engine's response limit); past
// it the cache starts again.
const siteScriptsKept = 128

// SiteScriptAnswer is what a script answered for a published site.
type SiteScriptAnswer struct {
	Body         []byte
	ContentType  string
	CacheControl string
}

// SiteScript answers the script installationID's integration injects into site siteID's
// published pages: a fetch_published_script event run in the integration's script, cached per
// version (integration.PublishedScript). A script that fails or answers other than 200 is a
// 502 saying why.
func (d *Deliverer) SiteScript(ctx context.Context, siteID, installationID string) (SiteScriptAnswer, error) {
	version, err := d.Integrations.PublishedScriptVersion(ctx, siteID, installationID)
	if err != nil {
		return SiteScriptAnswer{}, err
	}
	key := siteID + "\x00" + installationID + "\x00" + version
	d.siteScripts.mu.Lock()
	a, ok := d.siteScripts.answers[key]
	d.siteScripts.mu.Unlock()
	if ok {
		return a, nil
	}
	dl, version, err := d.Integrations.PublishedScriptEvent(ctx, siteID, installationID)
	if err != nil {
		return SiteScriptAnswer{}, err
	}
	key = siteID + "\x00" + installationID + "\x00" + version
	res, err := d.answer(ctx, dl, nil, purpose{what: "give its site script", accepts: is200})
	if err != nil {
		return SiteScriptAnswer{}, err
	}
	a = SiteScriptAnswer{Body: res.Body, ContentType: res.Headers.Get("Content-Type"), CacheControl: res.Headers.Get("Cache-Control")}
	if !strings.Contains(a.ContentType, "javascript") {
		a.ContentType = "application/javascript; charset=utf-8"
	}
	if dl.Tunnel != "" {
		// A development tunnel's answer changes with the developer's code, under the same
		// version: neither kept here nor by the browser.
		a.CacheControl = "no-cache"
		return a, nil
	}
	d.siteScripts.mu.Lock()
	if d.siteScripts.answers == nil || len(d.siteScripts.answers) >= siteScriptsKept {
		d.siteScripts.answers = map[string]SiteScriptAnswer{}
	}
	d.siteScripts.answers[key] = a
	d.siteScripts.mu.Unlock()
	return a, nil
}

// VisitorAuthentication runs the fetch_visitor_authentication event for a reader of site
// siteID who has no valid token, at location, in the script of installationID's integration,
// and returns its answer (a redirect to the identity provider). A script that fails, or answers
// other than a 2xx or a 3xx, is a 502 saying why.
func (d *Deliverer) VisitorAuthentication(ctx context.Context, siteID, installationID, location string) (*jsrun.Response, error) {
	dl, err := d.Integrations.VisitorAuthEvent(ctx, siteID, installationID, location)
	if err != nil {
		return nil, err
	}
	return d.answer(ctx, dl, nil, purpose{what: "authenticate the site's visitor",
		accepts: func(status int) bool { return status >= 200 && status < 400 }})
}
