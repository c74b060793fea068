package httpapi

import (
	"net/http"
	"net/url"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/content"
	"docsd/internal/wire"
)

// Resolving URLs: addresses of this server's app and API (getContentByUrl), of published
// sites (urls_published.go), and of the pages others embed (urls_embed.go).
func (s *Server) urlRoutes() {
	s.handle("GET /v1/urls/content", s.getContentByURL)
	s.handle("GET /v1/urls/published", s.getPublishedContentByURL)
	s.handle("POST /v1/urls/published", s.resolvePublishedContentByURL)
	s.handle("GET /v1/subdomains/{subdomain}", s.getSubdomain)
}

// urlMax bounds a URL to resolve, like every URL the API takes.
const urlMax = 2048

// queryURL reads the required `url` query parameter as an absolute http(s) URL.
func queryURL(r *http.Request) (*url.URL, error) {
	raw, err := queryString(r, "url", urlMax)
	if err != nil {
		return nil, err
	}
	return parseURL("url", raw)
}

func parseURL(field, raw string) (*url.URL, error) {
	if raw == "" {
		return nil, apperr.Invalidf("%s: is required", field)
	}
	if len(raw) > urlMax {
		return nil, apperr.Invalidf("%s: must be at most %d characters", field, urlMax)
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, apperr.Invalidf("%s: must be an absolute http or https URL (got %q)", field, raw)
	}
	return u, nil
}

// contentLookup is getContentByUrl's answer: a collection, or a space with the change
// request and page the URL names.
type contentLookup struct {
	Collection    *wire.Collection    `json:"collection,omitempty"`
	Space         *wire.Space         `json:"space,omitempty"`
	ChangeRequest *wire.ChangeRequest `json:"changeRequest,omitempty"`
	Page          *wire.Page          `json:"page,omitempty"`
}

// getContentByURL resolves an address of this server's app (urls.app: /app/c/{id},
// /app/s/{id}[/{page path}], /app/s/{id}/~/changes/{number}[/{page path}],
// /app/s/{id}/~/revisions/{id}) or API (urls.location: /v1/collections/{id},
// /v1/spaces/{id}[/…]) to what it shows, for a caller who can see it (404 otherwise).
func (s *Server) getContentByURL(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	u, err := queryURL(r)
	if err != nil {
		return err
	}
	base, _ := url.Parse(s.BaseURL)
	if base == nil || !strings.EqualFold(u.Host, base.Host) {
		return apperr.NotFoundf("url: %s is not an address of this server (%s)", u.Host, s.BaseURL)
	}
	path := strings.TrimPrefix(u.EscapedPath(), strings.TrimSuffix(base.EscapedPath(), "/"))
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i, seg := range segs {
		if segs[i], err = url.PathUnescape(seg); err != nil {
			return apperr.Invalidf("url: the path does not parse")
		}
	}
	notContent := apperr.NotFoundf("url: %s names no collection, space, change request or page of this server", u.String())
	if len(segs) < 3 || (segs[0] != "app" && segs[0] != "v1") {
		return notContent
	}
	kind, id, rest := segs[1], segs[2], segs[3:]
	switch kind {
	case "c", "collections":
		v, err := s.Spaces.GetCollection(r.Context(), c, id)
		if err != nil {
			return err
		}
		col := s.urls.FromCollection(v)
		return ok(w, contentLookup{Collection: &col})
	case "s", "spaces":
	default:
		return notContent
	}
	v, err := s.Spaces.Get(r.Context(), c, id)
	if err != nil {
		return err
	}
	sp, err := s.spaceOut(r.Context(), v, "")
	if err != nil {
		return err
	}
	out := contentLookup{Space: &sp}
	var snap *content.Snapshot
	switch {
	case len(rest) >= 2 && rest[0] == "~" && rest[1] == "changes" && len(rest) >= 3:
		cr, err := s.ChangeRequests.Get(r.Context(), c, v.ID, rest[2])
		if err != nil {
			return err
		}
		w := s.urls.FromChangeRequest(cr)
		out.ChangeRequest = &w
		if snap, err = s.Content.Snapshot(r.Context(), cr.Revision); err != nil {
			return err
		}
		rest = rest[3:]
	case len(rest) >= 1 && rest[0] == "~":
		rest = nil // another view of the space (revisions, settings): the space itself
	case segs[0] == "v1":
		rest = nil // an API address below the space: the space
	default:
		if len(rest) > 0 {
			if _, snap, err = s.Content.Head(r.Context(), c, v.ID); err != nil {
				return err
			}
		}
	}
	if snap != nil && len(rest) > 0 {
		pagePath := strings.Join(rest, "/")
		p, found := snap.Tree.PageByPath(pagePath)
		if !found {
			return apperr.NotFoundf("url: no page at %q in space %s", pagePath, v.ID)
		}
		pg := s.urls.FromPage(v.ID, snap, p)
		out.Page = &pg
	}
	return ok(w, out)
}
