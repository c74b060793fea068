package sitehttp

import (
	"net/http"
	"sort"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/openapi"
)

// serveAsset answers docsd's own scripts for published pages, at ~assets/{name} under the
// site: today the "try it" script of API reference blocks. Its name carries a hash of its
// text, so it is cached for a year; any other name is 404.
func (h *Handler) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	tryName, body := openapi.TryItScript()
	if name != tryName {
		h.fail(w, r, apperr.NotFoundf("no file at %s", r.URL.Path))
		return
	}
	hd := w.Header()
	securityHeaders(hd)
	hd.Set("Content-Type", "text/javascript; charset=utf-8")
	hd.Set("Cache-Control", "public, max-age=31536000, immutable")
	hd.Set("Content-Security-Policy", "default-src 'none'")
	hd.Set("ETag", `"`+strings.TrimSuffix(tryName, ".js")+`"`)
	if matchesETag(r.Header.Get("If-None-Match"), hd.Get("ETag")) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// connectSources is the connect-src list of origins, sorted without repeats; "" for none.
func connectSources(origins []string) string {
	if len(origins) == 0 {
		return ""
	}
	sorted := append([]string(nil), origins...)
	sort.Strings(sorted)
	out := sorted[:0]
	for i, o := range sorted {
		if i == 0 || o != sorted[i-1] {
			out = append(out, o)
		}
	}
	return strings.Join(out, " ")
}
