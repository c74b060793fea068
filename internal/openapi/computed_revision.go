package openapi

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"math/big"
	"sort"

	"docsd/internal/apperr"
	"docsd/internal/computed"
	"docsd/internal/markdoc"
	"docsd/internal/pagelayout"
)

// computedPage is a page of a computed revision in the public API's RevisionPageDocument
// shape: its document is computed, and so is its source, which gives it again.
type computedPage struct {
	ID       string             `json:"id"`
	Title    string             `json:"title"`
	Kind     string             `json:"kind"`
	Type     string             `json:"type"`
	URLs     map[string]string  `json:"urls"`
	Slug     string             `json:"slug"`
	Path     string             `json:"path"`
	Pages    []any              `json:"pages"`
	Layout   pagelayout.Options `json:"layout"`
	Tags     []struct{}         `json:"tags"` // the page tags of the newest spec: none
	Document *markdoc.Document  `json:"document"`
	Computed computedRef        `json:"computed"`
	Seed     string             `json:"computedSeed"`
}

type computedRef struct {
	Type         string          `json:"type"`
	Props        map[string]any  `json:"props"`
	Dependencies json.RawMessage `json:"dependencies"`
}

// computedRevision makes a page per tag of the spec (in the order of its tags list, then of
// the tags only its operations name), and a page of its models when props.models is true.
func (s *Service) computedRevision(ctx context.Context, req computed.Request, appURL func(string) string) (computed.Revision, error) {
	var props struct {
		Models *bool `json:"models"`
	}
	if len(req.Source.Props) > 0 {
		if err := json.Unmarshal(req.Source.Props, &props); err != nil {
			return computed.Revision{}, apperr.Invalidf("source.props: must be an object with models (a boolean)")
		}
	}
	if props.Models == nil {
		return computed.Revision{}, apperr.Invalidf("source.props.models: is required (true adds a page of the spec's models)")
	}
	t, slug, err := s.computedSpec(ctx, req)
	if err != nil {
		return computed.Revision{}, err
	}
	type want struct {
		title string
		props map[string]any
	}
	var pages []want
	for _, tag := range t.tags() {
		pages = append(pages, want{tag, map[string]any{"doc": "operations", "page": tag}})
	}
	if *props.Models {
		pages = append(pages, want{"Models", map[string]any{"doc": "models"}})
	}
	out := computed.Revision{}
	used := map[string]bool{}
	for _, p := range pages {
		doc, _ := p.props["doc"].(string)
		page, _ := p.props["page"].(string)
		d, err := t.document(slug, doc, page)
		if err != nil {
			return computed.Revision{}, err
		}
		pageSlug := markdoc.Slugify(p.title)
		for base, n := pageSlug, 2; used[pageSlug] || pageSlug == ""; n++ {
			pageSlug = base + "-" + big.NewInt(int64(n)).String()
		}
		used[pageSlug] = true
		id := seededID(req.Seed, pageSlug)
		raw, err := json.Marshal(computedPage{ID: id, Title: p.title, Kind: "sheet", Type: "document",
			URLs: map[string]string{"app": appURL("/s/" + req.SpaceID + "/" + pageSlug)}, Slug: pageSlug, Path: pageSlug,
			Pages: []any{}, Layout: pagelayout.Default(), Tags: []struct{}{}, Document: d,
			Computed: computedRef{Type: ComputedType, Props: p.props, Dependencies: req.Source.Dependencies},
			Seed:     req.Seed + ":" + pageSlug})
		if err != nil {
			return computed.Revision{}, err
		}
		out.Pages = append(out.Pages, raw)
	}
	return out, nil
}

// tags are the spec's tags that have operations: those of its tags list in order, then
// the others its operations name, sorted.
func (t *docTree) tags() []string {
	used := map[string]bool{}
	paths, _ := t.root["paths"].(map[string]any)
	for _, raw := range paths {
		item, _ := t.deref(node{v: raw, file: t.entry})
		for _, v := range item {
			op, ok := v.(map[string]any)
			if !ok {
				continue
			}
			tags, _ := op["tags"].([]any)
			for _, tg := range tags {
				if s, ok := tg.(string); ok && s != "" {
					used[s] = true
				}
			}
		}
	}
	var out []string
	listed := map[string]bool{}
	declared, _ := t.root["tags"].([]any)
	for _, d := range declared {
		m, _ := d.(map[string]any)
		if name, _ := m["name"].(string); used[name] && !listed[name] {
			out = append(out, name)
			listed[name] = true
		}
	}
	var rest []string
	for name := range used {
		if !listed[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return append(out, rest...)
}

// seededID derives a page id from the request's seed, so the same seed gives the same ids.
func seededID(seed, key string) string {
	sum := sha256.Sum256([]byte(seed + "\x00" + key))
	id := new(big.Int).SetBytes(sum[:]).Text(62)
	return id[:20]
}
