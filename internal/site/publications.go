package site

import (
	"cmp"
	"context"
	"slices"
)

// PublishedSiteSpace is a site space of a published site, with its section (nil at the
// site's root): a place where a site serves a space to readers. The store returns only
// those of live spaces of the site's organization, as Tree does, and reads only what an
// address needs: of the site its id, organization, visibility, basename, hostname and
// creation time; of the section its id, path and default flag; of the site space its space,
// path and default flag.
type PublishedSiteSpace struct {
	Site      Site
	Section   *Section
	SiteSpace SiteSpace
}

// Publication is where a published site serves a space: the site (what PublishedSiteSpace
// reads of it), and the path below the site's URL (see Tree.SiteSpacePath).
type Publication struct {
	Site Site
	Path string
}

// Publications returns, for each of spaceIDs that a published site includes, where sites
// serve it, best first: sites in the order they were made, and within a site its shortest
// path (the site's home before a section's default space, before a variant). Spaces no
// published site includes are left out. It takes no caller: a space's published addresses
// are shown to whoever can read the space.
func (s *Service) Publications(ctx context.Context, spaceIDs []string) (map[string][]Publication, error) {
	return s.PublicationsIn(ctx, s.store.Read(), spaceIDs)
}

// PublicationsIn is Publications read through tx, such as a write transaction whose answer
// needs them.
func (s *Service) PublicationsIn(ctx context.Context, tx Tx, spaceIDs []string) (map[string][]Publication, error) {
	if len(spaceIDs) == 0 {
		return nil, nil
	}
	rows, err := tx.PublishedSiteSpaces(ctx, spaceIDs)
	if err != nil {
		return nil, err
	}
	return publicationsOf(rows), nil
}

// PublicationsLater is PublicationsIn for a write that asks before it reads anything else
// (Tx.PublishedSiteSpacesLater): done gets the publications with the write's next read.
func (s *Service) PublicationsLater(ctx context.Context, tx Tx, spaceIDs []string, done func(map[string][]Publication)) error {
	if len(spaceIDs) == 0 {
		done(nil)
		return nil
	}
	return tx.PublishedSiteSpacesLater(ctx, spaceIDs, func(rows []PublishedSiteSpace) { done(publicationsOf(rows)) })
}

// publicationsOf orders the published site spaces into Publications.
func publicationsOf(rows []PublishedSiteSpace) map[string][]Publication {
	out := map[string][]Publication{}
	for _, r := range rows {
		out[r.SiteSpace.SpaceID] = append(out[r.SiteSpace.SpaceID], Publication{Site: r.Site, Path: siteSpacePath(r.Section, r.SiteSpace)})
	}
	for _, list := range out {
		slices.SortFunc(list, func(a, b Publication) int {
			return cmp.Or(a.Site.CreatedAt.Compare(b.Site.CreatedAt), cmp.Compare(a.Site.ID, b.Site.ID),
				cmp.Compare(len(a.Path), len(b.Path)), cmp.Compare(a.Path, b.Path))
		})
	}
	return out
}

// SiteOfSpaces returns, for each of spaceIDs that exactly one site includes (published or
// not, in one or more of its sections or variants), the id of that site: the site a space
// "belongs to" in the API's sense (ContentImportRun.site). Spaces in no site, or in several,
// are left out. It takes no caller: it answers about spaces the caller has already read.
func (s *Service) SiteOfSpaces(ctx context.Context, spaceIDs []string) (map[string]string, error) {
	if len(spaceIDs) == 0 {
		return nil, nil
	}
	all, err := s.store.Read().SitesOfSpaces(ctx, spaceIDs)
	if err != nil {
		return nil, err
	}
	out := make(map[string]string, len(all))
	for space, sites := range all {
		if len(sites) == 1 {
			out[space] = sites[0]
		}
	}
	return out, nil
}
