package sitehttp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strings"

	"docsd/internal/apperr"
)

// securityHeaders are set on every answer of a published site. The one inline style sheet a
// page has is allowed by its hash (see writePage); only the scripts of the site's integrations
// (site:script:inject) may run, from the site's own origin.
func securityHeaders(h http.Header) {
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
}

// renderedPage is a page ready to send: its HTML and the headers made from it.
type renderedPage struct {
	body             []byte
	styleHash, etag  string
	private, noIndex bool
	scripts          bool // it loads scripts from the site's origin (integrations', try it)
	// connect is the page's connect-src sources ("" for none): the servers of the public
	// OpenAPI specs whose operations its "try it" panels send.
	connect string
	// The page it shows, for the site_view of a reader served from the cache.
	siteSpaceID, pageID string
}

// newRenderedPage makes a page's answer. The ETag is a hash of exactly what would be sent, so
// it changes with the content, the navigation, the customization and whatever the reader's
// claims show them.
func newRenderedPage(body []byte, styleHash string, private, noIndex bool) *renderedPage {
	sum := sha256.Sum256(body)
	return &renderedPage{body: body, styleHash: styleHash, private: private, noIndex: noIndex,
		etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}
}

// write answers the page, or 304 when the reader's copy is current.
func (p *renderedPage) write(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	securityHeaders(h)
	if p.noIndex {
		h.Set("X-Robots-Tag", "noindex")
	}
	scripts := ""
	if p.scripts {
		// Only scripts served by the site itself: the integrations' (see visit.siteScript)
		// and docsd's own "try it" script (see assets.go); never inline ones, never eval.
		scripts = "script-src 'self'; "
	}
	if p.connect != "" {
		scripts += "connect-src " + p.connect + "; "
	}
	h.Set("Content-Security-Policy", "default-src 'none'; style-src '"+p.styleHash+"'; img-src 'self' https: data:; "+
		scripts+"form-action 'self'; base-uri 'none'; frame-ancestors 'none'")
	h.Set("ETag", p.etag)
	// Readers revalidate every time: a merge changes the page at once, and a 304 costs little.
	if p.private {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	h.Set("Vary", "Cookie")
	if matchesETag(r.Header.Get("If-None-Match"), p.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	h.Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(p.body)
}

// matchesETag reports whether an If-None-Match header lists etag (or is "*"); weak
// validators compare equal to strong ones, as RFC 9110 has it for If-None-Match.
func matchesETag(header, etag string) bool {
	for _, v := range strings.Split(header, ",") {
		v = strings.TrimPrefix(strings.TrimSpace(v), "W/")
		if v == "*" || v == etag {
			return true
		}
	}
	return false
}

// Fail answers err the way the published site answers its own errors, for checks made in
// front of the site's handler.
func (h *Handler) Fail(w http.ResponseWriter, r *http.Request, err error) { h.fail(w, r, err) }

// fail answers an error: the API's JSON error body, or a small HTML page for a browser.
func (h *Handler) fail(w http.ResponseWriter, r *http.Request, err error) {
	var ae *apperr.Error
	if !errors.As(err, &ae) {
		if h != nil && h.Log != nil {
			h.Log.Error("published site", "path", r.URL.Path, "err", err)
		}
		ae = apperr.New(apperr.Internal, "internal error")
	}
	status := ae.Status()
	hd := w.Header()
	securityHeaders(hd)
	hd.Set("Cache-Control", "no-store")
	if strings.Contains(r.Header.Get("Accept"), "text/html") {
		hd.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
		hd.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><meta name=viewport content=\"width=device-width, initial-scale=1\">"+
			"<meta name=robots content=noindex><title>%d %s</title><h1 style=\"font-family:system-ui\">%d %s</h1><p style=\"font-family:system-ui\">%s</p>\n",
			status, http.StatusText(status), status, http.StatusText(status), template.HTMLEscapeString(ae.Message))
		return
	}
	hd.Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": status, "message": ae.Message}})
	_, _ = w.Write(append(b, '\n'))
}
