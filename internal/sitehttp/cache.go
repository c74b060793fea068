package sitehttp

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"docsd/internal/outbox"
	"docsd/internal/sitepub"
)

// Reading a published page costs a site lookup, the site's structure, the space's published
// revision, a markdown conversion and the templates; none of it changes until something the
// site shows does. Sites and rendered pages are therefore kept until the outbox says so: every
// write that changes what a site shows writes an event in its transaction (site.published,
// site.unpublished, site.updated for settings, customization, visitor authentication,
// structure, share links and site installations; content.head_moved and space.* for a space
// of the site; integration installations and OpenAPI specs for the site's organization), and
// each instance reads the outbox after its own place, kept in memory. Reading is not a
// consumer's claim: a claimed consumer runs once across the instances sharing the database,
// but a cache is per instance, so every instance must see every event.
//
// No page is stale: a request first waits for a check of the database's generation begun
// after it arrived (store.DB.Generation, shared by the requests in flight), and when the
// generation moved since the last look, for the events written meanwhile to be applied. A
// republish, an unpublish or any change above, by this process or another on the same
// database, is thus seen by the next request; a write that concerns no site (another space, a
// comment, a change request) moves the generation but leaves the pages be.
//
// Each entry carries the place in the outbox its request had reached before computing it,
// and is served only while no event about its site, its organization or one of the spaces its
// site showed came after that place. A page is kept per reader segment: the claims that decide
// what a reader sees are part of its key, and the reader is admitted on every request before
// the cache is consulted, so an expired token or a deactivated share key is refused as before.
const (
	maxCachedPageBytes = 64 << 20
	maxCachedPages     = 20_000
	maxCachedSites     = 10_000
	// maxTracked bounds the marks of sites, spaces and organizations events touched; past it
	// they are forgotten and every entry kept before is retired at once.
	maxTracked = 100_000
	// tailBatch and tailBatches bound one catch-up with the outbox; an instance further behind
	// retires everything and starts again from the last event.
	tailBatch   = 500
	tailBatches = 20
)

// EventTail is what the cache reads of the outbox (store.Outbox).
type EventTail interface {
	LastEventSeq(ctx context.Context) (int64, error)
	EventsAfter(ctx context.Context, seq int64, limit int) ([]outbox.Event, error)
}

type cacheEntry[V any] struct {
	at     int64 // the outbox place its request had reached before computing it
	siteID string
	orgID  string
	spaces []string // the spaces its site showed its reader
	size   int
	v      V
}

type cacheSet struct {
	// active counts requests in flight: only they can share a generation check, so a check
	// waits for no more of them (see store.DB.Generation).
	active       atomic.Int64
	hits, misses atomic.Int64

	tailMu sync.Mutex // one catch-up at a time

	mu       sync.RWMutex
	started  bool   // cursor holds a place in the outbox
	synced   uint64 // the generation the outbox was last read at
	cursor   int64  // the last event applied
	floor    int64  // entries from before this place are retired
	siteAt   map[string]int64
	spaceAt  map[string]int64
	orgAt    map[string]int64
	sites    map[string]cacheEntry[sitepub.Site]
	pages    map[string]cacheEntry[*renderedPage]
	siteSize int
	pageSize int
}

// view is what a request may reuse: entries still valid at place at; ok is false when nothing
// may be reused (no generation or outbox, or a check failed).
type view struct {
	at   int64
	ok   bool
	done func()
}

func (h *Handler) view(r *http.Request, arrived time.Time) view {
	h.caches.active.Add(1)
	v := view{done: func() { h.caches.active.Add(-1) }}
	if h.Generation == nil || h.Events == nil {
		return v
	}
	gen, err := h.Generation(r.Context(), arrived, h.caches.active.Load())
	if err != nil {
		return v // the request went away, or the check failed: compute everything
	}
	at, err := h.caches.catchUp(r.Context(), h.Events, gen)
	if err != nil {
		h.Log.Warn("published sites: reading the outbox failed; pages are rendered afresh", "error", err)
		return v
	}
	v.at, v.ok = at, true
	return v
}

// catchUp applies the events written up to generation gen, and returns the place reached.
func (c *cacheSet) catchUp(ctx context.Context, tail EventTail, gen uint64) (int64, error) {
	c.mu.RLock()
	if c.started && c.synced == gen {
		at := c.cursor
		c.mu.RUnlock()
		return at, nil
	}
	c.mu.RUnlock()
	c.tailMu.Lock()
	defer c.tailMu.Unlock()
	c.mu.RLock()
	started, synced, cursor := c.started, c.synced, c.cursor
	c.mu.RUnlock()
	if started && synced == gen {
		return cursor, nil
	}
	if !started {
		// Nothing is kept yet: start from the last event.
		last, err := tail.LastEventSeq(ctx)
		if err != nil {
			return 0, err
		}
		c.mu.Lock()
		c.started, c.synced, c.cursor, c.floor = true, gen, last, last
		c.mu.Unlock()
		return last, nil
	}
	for range tailBatches {
		events, err := tail.EventsAfter(ctx, cursor, tailBatch)
		if err != nil {
			return 0, err
		}
		if len(events) == 0 {
			break
		}
		c.mu.Lock()
		if events[0].Seq != cursor+1 {
			// Events were pruned before this instance read them: retire everything.
			c.floor = events[len(events)-1].Seq
		}
		for _, e := range events {
			c.apply(e)
		}
		cursor = events[len(events)-1].Seq
		c.cursor = cursor
		c.mu.Unlock()
		if len(events) < tailBatch {
			c.mu.Lock()
			c.synced = gen
			c.mu.Unlock()
			return cursor, nil
		}
	}
	// Nothing more, or too much to read: in the latter case retire everything.
	last, err := tail.LastEventSeq(ctx)
	if err != nil {
		return 0, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if last > c.cursor {
		c.cursor, c.floor = last, last
	}
	c.synced = gen
	return c.cursor, nil
}

// apply marks what event e changed; c.mu is held.
func (c *cacheSet) apply(e outbox.Event) {
	if len(c.siteAt)+len(c.spaceAt)+len(c.orgAt) >= maxTracked {
		c.siteAt, c.spaceAt, c.orgAt = nil, nil, nil
		c.floor = e.Seq
		return
	}
	mark := func(m *map[string]int64, id string) {
		if id == "" {
			return
		}
		if *m == nil {
			*m = map[string]int64{}
		}
		(*m)[id] = e.Seq
	}
	switch {
	case e.Kind == outbox.SitePublished, e.Kind == outbox.SiteUnpublished, e.Kind == outbox.SiteUpdated:
		mark(&c.siteAt, e.Subject)
	case e.Kind == outbox.HeadMoved, e.Kind == outbox.SpaceUpdated, e.Kind == outbox.SpaceDeleted,
		e.Kind == outbox.SpaceRestored:
		mark(&c.spaceAt, e.SpaceID)
	case e.Kind == outbox.InstallationChanged, strings.HasPrefix(e.Kind, "openapi_spec."):
		if e.OrgID == "" {
			c.floor = e.Seq // an integration itself: every organization's sites
		} else {
			mark(&c.orgAt, e.OrgID)
		}
	}
}

// valid says whether an entry computed at place at for a site of org showing spaces is still
// what the site shows; c.mu is held.
func (c *cacheSet) valid(at int64, siteID, orgID string, spaces []string) bool {
	if at < c.floor || c.siteAt[siteID] > at || c.orgAt[orgID] > at {
		return false
	}
	for _, sp := range spaces {
		if c.spaceAt[sp] > at {
			return false
		}
	}
	return true
}

func getEntry[V any](c *cacheSet, m map[string]cacheEntry[V], key string) (V, bool) {
	c.mu.RLock()
	e, ok := m[key]
	ok = ok && c.valid(e.at, e.siteID, e.orgID, e.spaces)
	c.mu.RUnlock()
	if !ok {
		var zero V
		return zero, false
	}
	return e.v, true
}

// putEntry keeps e under key in m, within maxBytes and maxEntries: over them, retired entries
// go first, then everything else. It returns the bytes m holds.
func putEntry[V any](c *cacheSet, m *map[string]cacheEntry[V], held int, key string, e cacheEntry[V], maxBytes, maxEntries int) int {
	e.size += len(key)
	if e.size > maxBytes {
		return held
	}
	if *m == nil {
		*m = map[string]cacheEntry[V]{}
	}
	if old, ok := (*m)[key]; ok {
		held -= old.size
	}
	(*m)[key] = e
	held += e.size
	if held <= maxBytes && len(*m) <= maxEntries {
		return held
	}
	for k, x := range *m {
		if !c.valid(x.at, x.siteID, x.orgID, x.spaces) {
			held -= x.size
			delete(*m, k)
		}
	}
	if held > maxBytes || len(*m) > maxEntries {
		*m = map[string]cacheEntry[V]{key: e}
		held = e.size
	}
	return held
}

// site looks a published site up through the cache; refusals and failures are not kept.
func (h *Handler) site(ctx context.Context, v view, key string, lookup func(context.Context) (sitepub.Site, error)) (sitepub.Site, error) {
	if v.ok {
		if st, ok := getEntry(&h.caches, h.caches.sites, key); ok {
			return st, nil
		}
	}
	st, err := lookup(ctx)
	if err == nil && v.ok {
		c := &h.caches
		c.mu.Lock()
		c.siteSize = putEntry(c, &c.sites, c.siteSize, key, cacheEntry[sitepub.Site]{at: v.at, siteID: st.ID, orgID: st.OrganizationID, size: 1024, v: st},
			maxCachedSites*1024, maxCachedSites)
		c.mu.Unlock()
	}
	return st, err
}

// cachedPage is the page kept under key, if it is still what the site shows.
func (h *Handler) cachedPage(key string, now time.Time) (*renderedPage, bool) {
	p, ok := getEntry(&h.caches, h.caches.pages, key)
	ok = ok && p.fresh(now)
	if ok {
		h.caches.hits.Add(1)
	} else {
		h.caches.misses.Add(1)
	}
	return p, ok
}

// keepPage keeps page p, rendered at place at for site showing st to its reader.
func (h *Handler) keepPage(key string, at int64, site sitepub.Site, st sitepub.Structure, p *renderedPage) {
	c := &h.caches
	e := cacheEntry[*renderedPage]{at: at, siteID: site.ID, orgID: site.OrganizationID, spaces: spacesOf(st),
		size: len(p.body) + len(p.styleHash) + len(p.etag), v: p}
	c.mu.Lock()
	c.pageSize = putEntry(c, &c.pages, c.pageSize, key, e, maxCachedPageBytes, maxCachedPages)
	c.mu.Unlock()
}

// spacesOf lists the spaces a structure shows, once each.
func spacesOf(st sitepub.Structure) []string {
	var out []string
	seen := map[string]bool{}
	add := func(sss []sitepub.SiteSpace) {
		for _, ss := range sss {
			if !seen[ss.SpaceID] {
				seen[ss.SpaceID] = true
				out = append(out, ss.SpaceID)
			}
		}
	}
	add(st.SiteSpaces)
	var walk func([]sitepub.Node)
	walk = func(nodes []sitepub.Node) {
		for _, n := range nodes {
			if n.Section != nil {
				add(n.Section.SiteSpaces)
			}
			if n.Group != nil {
				walk(n.Group.Children)
			}
		}
	}
	walk(st.Top)
	return out
}

// Metrics are the page cache's counters, for /metrics.
func (h *Handler) Metrics() []prometheus.Collector {
	counter := func(result string, n *atomic.Int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "docsd_published_page_cache_total",
			Help:        "Published-site page reads that could be served from the page cache, by whether they were (hit) or not (miss).",
			ConstLabels: prometheus.Labels{"result": result}}, func() float64 { return float64(n.Load()) })
	}
	return []prometheus.Collector{counter("hit", &h.caches.hits), counter("miss", &h.caches.misses)}
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
