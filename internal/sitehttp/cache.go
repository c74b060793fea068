package sitehttp

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"docsd/internal/gencache"
	"docsd/internal/sitepub"
)

// Reading a published page costs a site lookup, the site's structure, the space's published
// revision, a markdown conversion and the templates; none of it changes until the database
// does. Sites and rendered pages are therefore kept labelled with the database's generation,
// read through the barrier that only accepts a check begun after the request arrived: a
// republish, an unpublish, a change of visibility, share links, structure or customization,
// made by this process or another on the same database, is seen by the next request. A page
// is kept per reader segment: the claims that decide what a reader sees (signed claims of a
// verified visitor token, unsigned claims the site's schema accepts) are part of its key, and
// the reader is admitted on every request before the cache is consulted, so an expired token
// or a deactivated share key is refused as before.
const (
	maxCachedPageBytes = 64 << 20
	maxCachedPages     = 20_000
	maxCachedSites     = 10_000
)

type cacheSet struct {
	once   sync.Once
	sitesC *gencache.Cache[sitepub.Site]
	pagesC *gencache.Cache[*renderedPage]
	// active counts requests in flight: batching generation checks pays only when others
	// share them.
	active atomic.Int64
}

func (c *cacheSet) init() {
	c.once.Do(func() {
		c.sitesC = gencache.New[sitepub.Site](maxCachedSites*1024, maxCachedSites)
		c.pagesC = gencache.New[*renderedPage](maxCachedPageBytes, maxCachedPages)
	})
}

func (c *cacheSet) sites() *gencache.Cache[sitepub.Site] { c.init(); return c.sitesC }

func (c *cacheSet) pages() *gencache.Cache[*renderedPage] { c.init(); return c.pagesC }

// generation is the database's generation as a request found it; ok is false where there is
// none (nothing is cached then).
type generation struct {
	n    uint64
	ok   bool
	done func()
}

func (h *Handler) generation(r *http.Request, arrived time.Time) generation {
	h.caches.active.Add(1)
	g := generation{done: func() { h.caches.active.Add(-1) }}
	if h.Generation == nil {
		return g
	}
	n, err := h.Generation(r.Context(), arrived, h.caches.active.Load() > 1)
	if err != nil {
		return g // the request went away, or the check failed: compute everything
	}
	g.n, g.ok = n, true
	return g
}

// site looks a published site up through the cache; refusals and failures are not kept.
func (h *Handler) site(ctx context.Context, gen generation, key string, lookup func(context.Context) (sitepub.Site, error)) (sitepub.Site, error) {
	if gen.ok {
		if st, ok := h.caches.sites().Get(key, gen.n); ok {
			return st, nil
		}
	}
	st, err := lookup(ctx)
	if err == nil && gen.ok {
		h.caches.sites().Put(key, gen.n, st, 1024)
	}
	return st, err
}

// pageKey names what a reader is shown at rest of site served at base: everything the page
// depends on besides the database. ok is false when the claims cannot be written down.
func pageKey(site sitepub.Site, base, rest string, adm sitepub.Admission) (string, bool) {
	claims, err := json.Marshal(adm.Claims) // maps are written with sorted keys
	if err != nil {
		return "", false
	}
	return site.ID + "\x00" + base + "\x00" + rest + "\x00" + strconv.FormatBool(adm.NoIndex) + "\x00" + string(claims), true
}
