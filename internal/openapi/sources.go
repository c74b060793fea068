package openapi

import (
	"context"
	"encoding/json"
	"net/url"
	"path"
	"regexp"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/content"
	"docsd/internal/ids"
	"docsd/internal/outbox"
)

// SourcesConsumer is the outbox consumer that makes a spec of the organization for each URL
// an older {% openapi src="…" %} or {% swagger src="…" %} block of a space's content names,
// so the block renders from the spec's versions as newer blocks do from theirs.
const SourcesConsumer = "openapi.sources"

// srcBlock finds the source URL of the older blocks in a page's markdown.
var srcBlock = regexp.MustCompile(`\{%\s*(?:openapi|swagger)\s[^%]*?\bsrc="(https?://[^"\s]+)"`)

// SourceURLs lists the http(s) URLs the older OpenAPI blocks of markdown name.
func SourceURLs(markdown string) []string {
	var out []string
	for _, m := range srcBlock.FindAllStringSubmatch(markdown, -1) {
		out = append(out, m[1])
	}
	return out
}

// HandleHeadMoves is the consumer: for each space whose head moved, the pages changed since
// the previous head are read for source URLs. It is idempotent: a URL that has a spec is left.
func (s *Service) HandleHeadMoves(cs *content.Service) func(ctx context.Context, events []outbox.Event) error {
	return func(ctx context.Context, events []outbox.Event) error {
		for _, e := range events {
			if e.Kind != outbox.HeadMoved {
				continue
			}
			var mv outbox.HeadMove
			if json.Unmarshal(e.Data, &mv) != nil {
				continue
			}
			// Only the changed pages are read, through a view of the new head: deriving
			// the whole tree of every revision a run of merges makes (and caching it) is what
			// a 10,000-page space's memory went to.
			sp, err := cs.PublishedSpace(ctx, e.SpaceID)
			if apperr.Is(err, apperr.NotFound) {
				continue // deleted since
			}
			if err != nil {
				return err
			}
			changed, _, err := cs.PageChanges(ctx, mv.From, mv.To)
			if apperr.Is(err, apperr.NotFound) {
				changed, _, err = cs.PageChanges(ctx, "", mv.To)
			}
			if err != nil {
				return err
			}
			if len(changed) == 0 {
				continue
			}
			view, err := cs.RevisionView(ctx, mv.To)
			if apperr.Is(err, apperr.NotFound) && sp.Revision != "" {
				view, err = cs.RevisionView(ctx, sp.Revision)
			}
			if err != nil {
				return err
			}
			mds, err := cs.ViewMarkdowns(ctx, view, changed)
			if err != nil {
				return err
			}
			for _, md := range mds {
				for _, u := range SourceURLs(md) {
					if err := s.ensureURLSpec(ctx, sp.OrganizationID, u); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
}

// ensureURLSpec makes a spec of the organization fetched from rawURL, unless one is; its
// slug comes from the URL's host and file name, made unique with a suffix.
func (s *Service) ensureURLSpec(ctx context.Context, orgID, rawURL string) error {
	if CheckSource(Source{URL: rawURL}) != nil {
		return nil
	}
	if _, err := s.store.SpecBySourceURL(ctx, orgID, rawURL); err == nil || !apperr.Is(err, apperr.NotFound) {
		return err
	}
	base := slugFromURL(rawURL)
	for i := 0; i < 20; i++ {
		slug := base
		if i > 0 {
			slug = strings.TrimRight(base[:min(len(base), SlugMax-4)], "-") + "-" + strings.ToLower(ids.Random(3))
		}
		now := s.clock.Now()
		sp := Spec{ID: ids.New(), OrgID: orgID, Slug: slug, SourceURL: rawURL, Visibility: Private,
			State: StatePending, Generation: 1, CreatedAt: now, UpdatedAt: now}
		err := s.store.CreateSpec(ctx, now, sp, processJob(sp.ID, sp.Generation))
		if !apperr.Is(err, apperr.Conflict) {
			return err
		}
	}
	return nil
}

var nonSlug = regexp.MustCompile(`[^a-z0-9]+`)

// slugFromURL is "petstore-example-com-openapi" for https://petstore.example.com/openapi.json.
func slugFromURL(rawURL string) string {
	u, _ := url.Parse(rawURL)
	name := strings.TrimSuffix(path.Base(u.Path), path.Ext(u.Path))
	slug := strings.Trim(nonSlug.ReplaceAllString(strings.ToLower(u.Hostname()+"-"+name), "-"), "-")
	if len(slug) > SlugMax {
		slug = strings.TrimRight(slug[:SlugMax], "-")
	}
	if slug == "" {
		slug = "openapi"
	}
	return slug
}
