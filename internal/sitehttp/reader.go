package sitehttp

import (
	"net/http"
	"net/url"
	"time"

	"docsd/internal/sitepub"
)

// Where readers' credentials travel. The query names follow GitBook's published sites
// (jwt_token for visitor tokens) and the API (shareKey); the cookies carrying visitor claims
// use GitBook's names, so a product that sets them for GitBook works unchanged.
const (
	tokenQuery     = "jwt_token"
	shareKeyQuery  = "shareKey"
	tokenCookie    = "gitbook-visitor-token"
	publicCookie   = "gitbook-visitor-public"
	shareKeyCookie = "docsd-share-key"
)

// Credentials given in the query are remembered in cookies for this long.
const rememberFor = 7 * 24 * time.Hour

// admitFromQuery handles a share key or a visitor token given in the query: when the site
// admits the reader with it, it is stored in a cookie scoped to the site and the reader is
// sent to the same URL without it, so the secret does not stay in the address bar, in history
// or in Referer headers. done is true when a response was written. Without either parameter
// it returns the reader the cookies describe.
func (h *Handler) admitFromQuery(w http.ResponseWriter, r *http.Request, site sitepub.Site, base string) (sitepub.Reader, bool) {
	q := r.URL.Query()
	rd := sitepub.Reader{
		ShareKey:       cookieValue(r, shareKeyCookie),
		Token:          cookieValue(r, tokenCookie),
		UnsignedCookie: unescaped(cookieValue(r, publicCookie)),
		Query:          q,
	}
	key, token := q.Get(shareKeyQuery), q.Get(tokenQuery)
	if key == "" && token == "" {
		return rd, false
	}
	if key != "" {
		rd.ShareKey = key
	}
	if token != "" {
		rd.Token = token
	}
	if _, err := h.Sites.Admit(r.Context(), site, rd); err != nil {
		h.refuse(w, r, site, base, err)
		return rd, true
	}
	expires := h.Sites.Now().Add(rememberFor)
	if key != "" {
		h.setCookie(w, r, base, shareKeyCookie, key, expires)
	}
	// On a site without visitor auth a token only adds claims: one that does not verify is
	// dropped rather than remembered.
	if token != "" && (site.Visibility == sitepub.VisitorAuth || h.Sites.SignedClaims(site, token) != nil) {
		h.setCookie(w, r, base, tokenCookie, token, expires)
	}
	q.Del(shareKeyQuery)
	q.Del(tokenQuery)
	clean := url.URL{Path: r.URL.Path, RawQuery: q.Encode()}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, clean.String(), http.StatusSeeOther)
	return rd, true
}

func cookieValue(r *http.Request, name string) string {
	c, err := r.Cookie(name)
	if err != nil {
		return ""
	}
	return c.Value
}

func (h *Handler) setCookie(w http.ResponseWriter, r *http.Request, path, name, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: path, Expires: expires,
		HttpOnly: true, Secure: r.TLS != nil || h.SecureCookies, SameSite: http.SameSiteLaxMode})
}

// clearCookie drops a refused credential, so the next visit does not present it again.
func clearCookie(w http.ResponseWriter, r *http.Request, path, name string) {
	if _, err := r.Cookie(name); err == nil {
		http.SetCookie(w, &http.Cookie{Name: name, Value: "", Path: path, MaxAge: -1})
	}
}

// unescaped decodes a cookie value set percent-encoded (as browsers' cookie libraries write
// JSON, whose quotes a cookie may not hold).
func unescaped(v string) string {
	if u, err := url.QueryUnescape(v); err == nil {
		return u
	}
	return v
}
