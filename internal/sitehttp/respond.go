package sitehttp

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

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
	// policies are the Content-Security-Policy values of the site's integrations and of the
	// page's integration blocks, merged into the page's own (mergePolicies); frames the
	// origins of the blocks' webframes.
	policies, frames []string
	// expires, when set, is when an integration block on the page stops being fresh: the
	// page is served from the cache until then. noStore: a block may not be kept (or failed),
	// so the page is not cached.
	expires time.Time
	noStore bool
	// connect is the page's connect-src sources ("" for none): the servers of the public
	// OpenAPI specs whose operations its "try it" panels send.
	connect string
	// The page it shows, for the site_view of a reader served from the cache.
	siteSpaceID, pageID string

	headersOnce          sync.Once
	headers, bodyHeaders http.Header // see makeHeaders
}

// newRenderedPage makes a page's answer. The ETag is a hash of exactly what would be sent, so
// it changes with the content, the navigation, the customization and whatever the reader's
// claims show them.
func newRenderedPage(body []byte, styleHash string, private, noIndex bool) *renderedPage {
	sum := sha256.Sum256(body)
	return &renderedPage{body: body, styleHash: styleHash, private: private, noIndex: noIndex,
		etag: `"` + base64.RawURLEncoding.EncodeToString(sum[:18]) + `"`}
}

// write answers the page, or 304 when the reader's copy is current. Its headers are made
// once, on its first answer (the page's fields are all set by then, and never after): a
// cached page is answered many times, and setting each header (its key canonicalized, its
// value allocated, the policy merged) was a tenth of a cached page's CPU. The body goes with
// its length, in one write: chunked, an answer took a system call more.
func (p *renderedPage) write(w http.ResponseWriter, r *http.Request) {
	p.headersOnce.Do(p.makeHeaders)
	h := w.Header()
	for k, v := range p.headers {
		h[k] = v
	}
	if matchesETag(r.Header.Get("If-None-Match"), p.etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	for k, v := range p.bodyHeaders {
		h[k] = v
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(p.body)
}

// makeHeaders makes the headers of every answer of the page (headers) and those of its 200
// (bodyHeaders). Each value is a slice of length and capacity 1, shared by every answer: a
// handler adding a value to one appends into a new array, never into this one.
func (p *renderedPage) makeHeaders() {
	h := http.Header{}
	securityHeaders(h)
	if p.noIndex {
		h.Set("X-Robots-Tag", "noindex")
	}
	h.Set("Content-Security-Policy", p.policy())
	h.Set("ETag", p.etag)
	// Readers revalidate every time: a merge changes the page at once, and a 304 costs little.
	if p.private {
		h.Set("Cache-Control", "private, no-cache")
	} else {
		h.Set("Cache-Control", "public, no-cache")
	}
	h.Set("Vary", "Cookie")
	p.headers = h
	p.bodyHeaders = http.Header{}
	p.bodyHeaders.Set("Content-Type", "text/html; charset=utf-8")
	p.bodyHeaders.Set("Content-Length", strconv.Itoa(len(p.body)))
}

// fresh reports whether a cached page may still be served at now.
func (p *renderedPage) fresh(now time.Time) bool {
	return p.expires.IsZero() || now.Before(p.expires)
}

// policy is the page's Content-Security-Policy: nothing runs or loads but the one style sheet
// (by its hash), images, the scripts served by the site itself (the integrations', see
// visit.siteScript, and docsd's own "try it" script, see assets.go; never inline ones, never
// eval), the servers its "try it" panels call, its blocks' frames, widened by what the site's integrations declare.
func (p *renderedPage) policy() string {
	d := [][2]string{{"default-src", "'none'"}, {"style-src", "'" + p.styleHash + "'"}, {"img-src", "'self' https: data:"}}
	if p.scripts {
		d = append(d, [2]string{"script-src", "'self'"})
	}
	if p.connect != "" {
		d = append(d, [2]string{"connect-src", p.connect})
	}
	if len(p.frames) > 0 {
		d = append(d, [2]string{"frame-src", strings.Join(p.frames, " ")})
	}
	d = append(d, [2]string{"form-action", "'self'"}, [2]string{"base-uri", "'none'"}, [2]string{"frame-ancestors", "'none'"})
	return mergePolicies(d, p.policies)
}

// mergedDirectives are the directives an integration's policy may widen: where a page may
// load scripts, styles, images, frames, fonts and media from, and connect to. The others
// (default-src, frame-ancestors, base-uri, form-action, sandbox, reporting) stay the page's.
var mergedDirectives = map[string]string{
	// directive: the one it falls back to when the page does not set it
	"script-src": "default-src", "script-src-elem": "script-src", "script-src-attr": "script-src",
	"style-src": "default-src", "style-src-elem": "style-src", "img-src": "default-src",
	"connect-src": "default-src", "frame-src": "child-src", "child-src": "default-src",
	"font-src": "default-src", "media-src": "default-src", "worker-src": "script-src",
	"manifest-src": "default-src",
}

// mergePolicies adds to the page's directives (in order) the sources the policies (header
// values) give to the directives of mergedDirectives. A directive the page does not set starts
// from the one it falls back to, so adding to it keeps what the page allowed; 'none' gives way
// to the first source added.
func mergePolicies(page [][2]string, policies []string) string {
	values := map[string][]string{}
	var order []string
	for _, d := range page {
		values[d[0]] = strings.Fields(d[1])
		order = append(order, d[0])
	}
	var lookup func(name string, depth int) []string
	lookup = func(name string, depth int) []string {
		if v, ok := values[name]; ok || depth > 4 {
			return v
		}
		if name == "frame-src" {
			if v, ok := values["child-src"]; ok {
				return v
			}
		}
		return lookup(mergedDirectives[name], depth+1)
	}
	for _, pol := range policies {
		for _, part := range strings.Split(pol, ";") {
			f := strings.Fields(part)
			if len(f) < 2 {
				continue
			}
			name := strings.ToLower(f[0])
			if _, ok := mergedDirectives[name]; !ok {
				continue
			}
			cur, ok := values[name]
			if !ok {
				cur = append([]string(nil), lookup(name, 0)...)
				order = append(order, name)
			}
			for _, src := range f[1:] {
				if src == "'none'" || slices.Contains(cur, src) {
					continue
				}
				if len(cur) == 1 && cur[0] == "'none'" {
					cur = nil
				}
				cur = append(cur, src)
			}
			if len(cur) == 0 {
				cur = []string{"'none'"}
			}
			values[name] = cur
		}
	}
	var b strings.Builder
	for i, name := range order {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(name + " " + strings.Join(values[name], " "))
	}
	return b.String()
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
