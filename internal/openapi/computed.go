package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/computed"
	"docsd/internal/markdoc"
)

// ComputedType is the computed content source type of OpenAPI specs.
const ComputedType = "builtin:openapi"

// RegisterComputed adds builtin:openapi sources to r: documents (a tag's operations, the
// spec's info, its models, as the blocks a page written by hand would hold) and revisions
// (a page per tag, and one of models when asked). appURL makes a page's address in the app.
func (s *Service) RegisterComputed(r *computed.Registry, appURL func(path string) string) {
	r.RegisterDocument(ComputedType, s.computedDocument)
	r.RegisterRevision(ComputedType, func(ctx context.Context, req computed.Request) (computed.Revision, error) {
		return s.computedRevision(ctx, req, appURL)
	})
}

type computedSource struct {
	Props struct {
		Doc  string `json:"doc"`
		Page string `json:"page"`
	} `json:"props"`
	Dependencies struct {
		Spec struct {
			Ref struct {
				Kind string `json:"kind"`
				Spec string `json:"spec"`
			} `json:"ref"`
		} `json:"spec"`
	} `json:"dependencies"`
}

func (s *Service) computedDocument(ctx context.Context, req computed.Request) (*markdoc.Document, error) {
	var src computedSource
	if len(req.Source.Props) > 0 {
		if err := json.Unmarshal(req.Source.Props, &src.Props); err != nil {
			return nil, apperr.Invalidf("source.props: must be an object with doc (operations, info or models) and page")
		}
	}
	t, slug, err := s.computedSpec(ctx, req)
	if err != nil {
		return nil, err
	}
	return t.document(slug, src.Props.Doc, src.Props.Page)
}

// computedSpec reads the latest version of the spec a source depends on.
func (s *Service) computedSpec(ctx context.Context, req computed.Request) (*docTree, string, error) {
	var src computedSource
	if len(req.Source.Dependencies) > 0 {
		if err := json.Unmarshal(req.Source.Dependencies, &src.Dependencies); err != nil {
			return nil, "", apperr.Invalidf("source.dependencies: must be {spec: {ref: {kind: openapi, spec: <slug>}}}")
		}
	}
	slug := src.Dependencies.Spec.Ref.Spec
	if src.Dependencies.Spec.Ref.Kind != "openapi" || slug == "" {
		return nil, "", apperr.Invalidf("source.dependencies.spec.ref: must be {kind: openapi, spec: <slug>}")
	}
	sp, err := s.store.Spec(ctx, req.OrgID, slug)
	if err != nil {
		return nil, "", apperr.Invalidf("source.dependencies.spec.ref.spec: the organization has no OpenAPI specification %q", slug)
	}
	if sp.LastVersion == "" {
		return nil, "", apperr.Invalidf("source.dependencies.spec.ref.spec: OpenAPI specification %q has no version yet (processingState %s)", slug, sp.State)
	}
	v, err := s.store.Version(ctx, sp.ID, sp.LastVersion)
	if err != nil {
		return nil, "", err
	}
	t, ok := newDocTree(v)
	if !ok {
		return nil, "", apperr.Invalidf("source.dependencies.spec.ref.spec: OpenAPI specification %q has no readable document", slug)
	}
	return t, slug, nil
}

// document is the computed document of one page.
func (t *docTree) document(slug, doc, page string) (*markdoc.Document, error) {
	var md string
	switch doc {
	case "operations":
		if page == "" {
			return nil, apperr.Invalidf("source.props.page: the tag whose operations the page shows is required")
		}
		md = t.operationsMarkdown(slug, page)
	case "info":
		info, _ := t.root["info"].(map[string]any)
		desc, _ := info["description"].(string)
		md = desc
	case "models":
		md = t.modelsMarkdown(slug)
	default:
		return nil, apperr.Invalidf("source.props.doc: must be operations, info or models, got %q", doc)
	}
	return markdoc.ToDocument(md), nil
}

// operationsMarkdown is an {% openapi-operation %} block for each operation tagged tag, in
// path then method order.
func (t *docTree) operationsMarkdown(slug, tag string) string {
	paths, _ := t.root["paths"].(map[string]any)
	names := make([]string, 0, len(paths))
	for p := range paths {
		names = append(names, p)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, p := range names {
		item, _ := t.deref(node{v: paths[p], file: t.entry})
		for _, m := range []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"} {
			op, ok := item[m].(map[string]any)
			if !ok || !hasTag(op, tag) {
				continue
			}
			fmt.Fprintf(&b, "{%% openapi-operation spec=%q path=%q method=%q %%}\n{%% endopenapi-operation %%}\n\n", slug, p, m)
		}
	}
	return b.String()
}

func hasTag(op map[string]any, tag string) bool {
	tags, _ := op["tags"].([]any)
	for _, t := range tags {
		if t == tag {
			return true
		}
	}
	return false
}

// modelsMarkdown is one {% openapi-schemas %} block with every named schema.
func (t *docTree) modelsMarkdown(slug string) string {
	var schemas map[string]any
	if t.swagger() {
		schemas, _ = t.root["definitions"].(map[string]any)
	} else {
		comps, _ := t.root["components"].(map[string]any)
		schemas, _ = comps["schemas"].(map[string]any)
	}
	names := make([]string, 0, len(schemas))
	for n := range schemas {
		if !strings.ContainsAny(n, `",`) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return fmt.Sprintf("{%% openapi-schemas spec=%q schemas=%q grouped=\"false\" %%}\n{%% endopenapi-schemas %%}\n", slug, strings.Join(names, ","))
}
