package integration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// SiteView is a page of a published site served to a reader.
type SiteView struct {
	SiteID, OrgID, SiteSpaceID, PageID string
	URL, Referrer, UserAgent, IP       string
	Language                           string
}

// Views turns served pages into site_view events, sampled so that reading never waits on it:
// at most one view per site per period is kept, handed over through a bounded queue that
// drops what it cannot hold, and written by Run.
type Views struct {
	s      *Service
	period time.Duration
	queue  chan SiteView
	mu     sync.Mutex
	last   map[string]time.Time // site id → when its last view was kept
}

// NewViews returns the site view sampler: one view per site per period.
func (s *Service) NewViews(period time.Duration) *Views {
	return &Views{s: s, period: period, queue: make(chan SiteView, 256), last: map[string]time.Time{}}
}

// SiteViewed offers a served page; it never blocks.
func (v *Views) SiteViewed(sv SiteView) {
	now := v.s.clock.Now()
	v.mu.Lock()
	if t, ok := v.last[sv.SiteID]; ok && now.Sub(t) < v.period {
		v.mu.Unlock()
		return
	}
	v.last[sv.SiteID] = now
	if len(v.last) > 10000 { // forget old sites rather than grow without bound
		for id, t := range v.last {
			if now.Sub(t) >= v.period {
				delete(v.last, id)
			}
		}
	}
	v.mu.Unlock()
	select {
	case v.queue <- sv:
	default:
	}
}

// Run writes the kept views as events until ctx ends; errors are dropped with the view (a
// sampled view is not worth a retry).
func (v *Views) Run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case sv := <-v.queue:
			_ = v.s.recordSiteView(ctx, sv)
		}
	}
}

// recordSiteView writes a site_view event for each installation on the site (or selecting every
// site of its organization) whose integration may read site views.
func (s *Service) recordSiteView(ctx context.Context, sv SiteView) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		ins, err := tx.Installations(ctx, "", sv.OrgID)
		if err != nil {
			return err
		}
		anon := sha256.Sum256([]byte(sv.IP + "\x00" + sv.UserAgent))
		for _, in := range ins {
			if in.SiteSelection != "all" {
				if _, err := tx.ContentInstallation(ctx, in.ID, SiteKind, sv.SiteID); errors.Is(err, ErrNotFound) {
					continue
				} else if err != nil {
					return err
				}
			}
			it, err := tx.Integration(ctx, in.Integration)
			if err != nil {
				return err
			}
			visitor := map[string]any{"anonymousId": hex.EncodeToString(anon[:12]), "cookies": map[string]string{},
				"userAgent": sv.UserAgent, "ip": sv.IP}
			if sv.Language != "" {
				visitor["language"] = sv.Language
			}
			p := map[string]any{"type": "site_view", "siteId": sv.SiteID, "visitor": visitor, "url": sv.URL, "referrer": sv.Referrer}
			if sv.SiteSpaceID != "" {
				p["siteSpaceId"] = sv.SiteSpaceID
			}
			if sv.PageID != "" {
				p["pageId"] = sv.PageID
			}
			if err := s.record(ctx, tx, it, in, p); err != nil {
				return err
			}
		}
		return nil
	})
}
