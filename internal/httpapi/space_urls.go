package httpapi

import (
	"context"
	"net/http"

	"docsd/internal/access"
	"docsd/internal/apperr"
	"docsd/internal/paging"
	"docsd/internal/site"
	"docsd/internal/space"
	"docsd/internal/wire"
)

// A space is published through the sites that include it: its urls.published is its
// address in a published site, and urls.public its address in a published public site. The
// public specification ties both to the space's own visibility, from before sites; in docsd
// that visibility governs members' access, and the site's visibility decides who reads it.

// publishedURL is the address of a path below a published site, with a share link's key
// when one is given.
func (s *Server) publishedURL(st site.Site, path, shareKey string) string {
	u := site.PublishedURL(s.urls.Base, st)
	if path != "" {
		u += path + "/"
	}
	if shareKey != "" {
		u += "?" + site.ShareKeyParam + "=" + shareKey
	}
	return u
}

// spacesPublished returns the published addresses of those of spaceIDs that a published site
// includes (see site.Service.Publications for which site comes first); which site gives
// which address is access.ChooseSpaceAddresses's decision. A shareKey that is the key of an
// active share link of one of a space's sites makes that site's address, with the key, the
// published one; any other key changes nothing.
func (s *Server) spacesPublished(ctx context.Context, spaceIDs []string, shareKey string) (map[string]wire.ContentPublished, error) {
	pubs, err := s.Sites.Publications(ctx, spaceIDs)
	if err != nil {
		return nil, err
	}
	return s.publishedAddresses(ctx, pubs, shareKey)
}

// publishedAddresses is spacesPublished's answer from the publications read.
func (s *Server) publishedAddresses(ctx context.Context, pubs map[string][]site.Publication, shareKey string) (map[string]wire.ContentPublished, error) {
	out := make(map[string]wire.ContentPublished, len(pubs))
	for id, list := range pubs {
		sites := make([]access.PublishedSite, len(list))
		for i, p := range list {
			sites[i] = access.PublishedSite{ID: p.Site.ID, Visibility: string(p.Site.Visibility)}
		}
		var keyActive func(siteID string) (bool, error)
		if shareKey != "" {
			keyActive = func(siteID string) (bool, error) {
				_, err := s.Sites.ActiveShareLink(ctx, siteID, shareKey)
				if apperr.Is(err, apperr.NotFound) {
					return false, nil
				}
				return err == nil, err
			}
		}
		choice, err := access.ChooseSpaceAddresses(sites, keyActive)
		if err != nil {
			return nil, err
		}
		key := ""
		if choice.Keyed {
			key = shareKey
		}
		best := list[choice.Published]
		urls := wire.ContentPublished{Published: s.publishedURL(best.Site, best.Path, key)}
		if choice.Public >= 0 {
			p := list[choice.Public]
			urls.Public = s.publishedURL(p.Site, p.Path, "")
		}
		out[id] = urls
	}
	return out, nil
}

// writeSpace answers a space with its published addresses (see spacesPublished for shareKey).
func (s *Server) writeSpace(w http.ResponseWriter, r *http.Request, v space.View, shareKey string) error {
	out, err := s.spaceOut(r.Context(), v, shareKey)
	if err != nil {
		return err
	}
	return ok(w, out)
}

// spaceOut converts a space with its published addresses.
func (s *Server) spaceOut(ctx context.Context, v space.View, shareKey string) (wire.Space, error) {
	out := s.urls.FromSpace(v)
	pubs, err := s.spacesPublished(ctx, []string{v.ID}, shareKey)
	out.SetPublished(pubs[v.ID])
	return out, err
}

// writeSpaceList answers a page of spaces with their published addresses, read at once.
func (s *Server) writeSpaceList(ctx context.Context, w http.ResponseWriter, list string, res paging.Result[space.View]) error {
	pubs, err := s.spacesPublished(ctx, spaceIDs(res.Items, func(v space.View) string { return v.ID }), "")
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(v space.View) wire.Space {
		out := s.urls.FromSpace(v)
		out.SetPublished(pubs[v.ID])
		return out
	})
}

// writeMemberSpaceList answers a page of a member's spaces with their published addresses.
func (s *Server) writeMemberSpaceList(ctx context.Context, w http.ResponseWriter, list string, res paging.Result[space.MemberSpace]) error {
	pubs, err := s.spacesPublished(ctx, spaceIDs(res.Items, func(m space.MemberSpace) string { return m.Space.ID }), "")
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, func(m space.MemberSpace) wire.MemberSpace {
		out := s.urls.FromMemberSpace(m)
		out.Space.SetPublished(pubs[m.Space.ID])
		return out
	})
}

func spaceIDs[T any](items []T, id func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = id(it)
	}
	return out
}
