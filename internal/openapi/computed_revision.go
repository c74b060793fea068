package openapi

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"math/big"
	"sort"
	"strings"

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
	Pages    []any              `json:"pages"` // the computedPages under it
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

// The groupings of a computed revision's pages (ComputedContentSourceRevisionOpenAPI).
const (
	GroupByTag       = "by-tag"       // a page per tag with its operations (the default)
	GroupByOperation = "by-operation" // a page per tag, its operations each a page under it
)

// revisionPage is a page a computed revision makes, with those under it.
type revisionPage struct {
	title    string
	props    documentProps
	children []revisionPage
}

// computedRevision makes a page per tag of the spec (in the order of its tags list, then of
// the tags only its operations name; operations without a tag under "default"), each with its
// operations or, grouped by operation, with a page per operation under it; and a page of its
// models when props.models is true. props.downloadLink begins each page with a link to the
// spec's file.
func (s *Service) computedRevision(ctx context.Context, req computed.Request, appURL func(string) string, publishedURL func(string) string) (computed.Revision, error) {
	var props struct {
		Models       *bool   `json:"models"`
		DownloadLink *bool   `json:"downloadLink"`
		Grouping     *string `json:"grouping"`
	}
	if len(req.Source.Props) > 0 {
		if err := json.Unmarshal(req.Source.Props, &props); err != nil {
			return computed.Revision{}, apperr.Invalidf("source.props: must be an object with models and downloadLink (booleans) and grouping (by-tag or by-operation)")
		}
	}
	if props.Models == nil {
		return computed.Revision{}, apperr.Invalidf("source.props.models: is required (true adds a page of the spec's models)")
	}
	grouping := GroupByTag
	if props.Grouping != nil {
		grouping = *props.Grouping
	}
	if grouping != GroupByTag && grouping != GroupByOperation {
		return computed.Revision{}, apperr.Invalidf("source.props.grouping: must be by-tag or by-operation, got %q", grouping)
	}
	download := props.DownloadLink != nil && *props.DownloadLink
	t, sp, err := s.computedSpec(ctx, req)
	if err != nil {
		return computed.Revision{}, err
	}
	var pages []revisionPage
	for _, tag := range t.tags() {
		title := tag
		if tag == untaggedTag && !t.declaresTag(untaggedTag) {
			title = "Other"
		}
		if grouping == GroupByTag {
			pages = append(pages, revisionPage{title: title, props: documentProps{Doc: "operations", Page: tag, DownloadLink: download}})
			continue
		}
		pg := revisionPage{title: title, props: documentProps{Doc: "tag", Page: tag, DownloadLink: download}}
		for _, op := range t.tagOperations(tag) {
			pg.children = append(pg.children, revisionPage{title: op.title,
				props: documentProps{Doc: "operation", Page: op.path, Method: op.method, DownloadLink: download}})
		}
		pages = append(pages, pg)
	}
	if *props.Models {
		pages = append(pages, revisionPage{title: "Models", props: documentProps{Doc: "models", DownloadLink: download}})
	}
	out := computed.Revision{}
	used := map[string]bool{}
	var build func(p revisionPage, parent string) (computedPage, error)
	build = func(p revisionPage, parent string) (computedPage, error) {
		md, err := t.documentMarkdown(sp.Slug, p.props)
		if err != nil {
			return computedPage{}, err
		}
		d := markdoc.ToDocument(downloadMarkdown(sp, p.props.DownloadLink, publishedURL) + md)
		pageSlug := markdoc.Slugify(p.title)
		if len(pageSlug) > 100 {
			pageSlug = strings.TrimRight(pageSlug[:100], "-")
		}
		key := parent + pageSlug
		for base, n := pageSlug, 2; used[key] || pageSlug == ""; n++ {
			pageSlug = base + "-" + big.NewInt(int64(n)).String()
			key = parent + pageSlug
		}
		used[key] = true
		pagePath := parent + pageSlug
		cp := computedPage{ID: seededID(req.Seed, pagePath), Title: p.title, Kind: "sheet", Type: "document",
			URLs: map[string]string{"app": appURL("/s/" + req.SpaceID + "/" + pagePath)}, Slug: pageSlug, Path: pagePath,
			Pages: []any{}, Layout: pagelayout.Default(), Tags: []struct{}{}, Document: d,
			Computed: computedRef{Type: ComputedType, Props: p.props.wire(), Dependencies: req.Source.Dependencies},
			Seed:     req.Seed + ":" + pagePath}
		for _, c := range p.children {
			child, err := build(c, pagePath+"/")
			if err != nil {
				return computedPage{}, err
			}
			cp.Pages = append(cp.Pages, child)
		}
		return cp, nil
	}
	for _, p := range pages {
		cp, err := build(p, "")
		if err != nil {
			return computed.Revision{}, err
		}
		raw, err := json.Marshal(cp)
		if err != nil {
			return computed.Revision{}, err
		}
		out.Pages = append(out.Pages, raw)
	}
	return out, nil
}

// wire is the props a page's computed source gives, which compute its document again.
func (p documentProps) wire() map[string]any {
	out := map[string]any{"doc": p.Doc}
	if p.Page != "" {
		out["page"] = p.Page
	}
	if p.Method != "" {
		out["method"] = p.Method
	}
	if p.DownloadLink {
		out["downloadLink"] = true
	}
	return out
}

type tagOperation struct{ path, method, title string }

// tagOperations are the operations of a tag in path then method order, each titled by its
// summary, else its method and path.
func (t *docTree) tagOperations(tag string) []tagOperation {
	paths, _ := t.root["paths"].(map[string]any)
	names := make([]string, 0, len(paths))
	for p := range paths {
		names = append(names, p)
	}
	sort.Strings(names)
	var out []tagOperation
	for _, p := range names {
		item, _ := t.deref(node{v: paths[p], file: t.entry})
		for _, m := range methods {
			op, ok := item[m].(map[string]any)
			if !ok || !hasTag(op, tag) {
				continue
			}
			title, _ := op["summary"].(string)
			if title = strings.TrimSpace(title); title == "" {
				title = strings.ToUpper(m) + " " + p
			}
			out = append(out, tagOperation{path: p, method: m, title: title})
		}
	}
	return out
}

// declaresTag reports a tag named in the spec's tags list.
func (t *docTree) declaresTag(name string) bool {
	declared, _ := t.root["tags"].([]any)
	for _, d := range declared {
		m, _ := d.(map[string]any)
		if n, _ := m["name"].(string); n == name {
			return true
		}
	}
	return false
}

// tags are the spec's tags that have operations: those of its tags list in order, then
// the others its operations name, sorted.
func (t *docTree) tags() []string {
	used := map[string]bool{}
	paths, _ := t.root["paths"].(map[string]any)
	for _, raw := range paths {
		item, _ := t.deref(node{v: raw, file: t.entry})
		for _, m := range methods {
			op, ok := item[m].(map[string]any)
			if !ok {
				continue
			}
			for _, tg := range opTags(op) {
				used[tg] = true
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
