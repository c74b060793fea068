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

// RegisterComputed adds builtin:openapi sources to r: documents (a tag's operations, one
// operation, a tag's description, the spec's info, its models, as the blocks a page written
// by hand would hold) and revisions (a page per tag, or per operation under its tag, and one
// of models when asked). appURL makes a page's address in the app; publishedURL the address
// a public spec's file is downloaded at (for downloadLink).
func (s *Service) RegisterComputed(r *computed.Registry, appURL func(path string) string, publishedURL func(specID string) string) {
	r.RegisterDocument(ComputedType, func(ctx context.Context, req computed.Request) (*markdoc.Document, error) {
		return s.computedDocument(ctx, req, publishedURL)
	})
	r.RegisterRevision(ComputedType, func(ctx context.Context, req computed.Request) (computed.Revision, error) {
		return s.computedRevision(ctx, req, appURL, publishedURL)
	})
}

type computedSource struct {
	Dependencies struct {
		Spec struct {
			Ref struct {
				Kind string `json:"kind"`
				Spec string `json:"spec"`
			} `json:"ref"`
		} `json:"spec"`
	} `json:"dependencies"`
}

// documentProps are the props of a computed document (ComputedContentSourceDocumentOpenAPI);
// downloadLink is carried from the revision's props to the pages it makes.
type documentProps struct {
	Doc          string `json:"doc"`
	Page         string `json:"page"`
	Method       string `json:"method"`
	DownloadLink bool   `json:"downloadLink"`
}

const docPropsHelp = "must be an object with doc (operations, operation, tag, info or models), page, method (for operation) and downloadLink (a boolean)"

func (s *Service) computedDocument(ctx context.Context, req computed.Request, publishedURL func(string) string) (*markdoc.Document, error) {
	var props documentProps
	if len(req.Source.Props) > 0 {
		if err := json.Unmarshal(req.Source.Props, &props); err != nil {
			return nil, apperr.Invalidf("source.props: %s", docPropsHelp)
		}
	}
	t, sp, err := s.computedSpec(ctx, req)
	if err != nil {
		return nil, err
	}
	md, err := t.documentMarkdown(sp.Slug, props)
	if err != nil {
		return nil, err
	}
	return markdoc.ToDocument(downloadMarkdown(sp, props.DownloadLink, publishedURL) + md), nil
}

// downloadMarkdown is the link to download a spec's file that a generated page begins with
// when its source asks for one. Only a public spec's file can be downloaded by its readers,
// so a private spec's pages get none.
func downloadMarkdown(sp Spec, want bool, publishedURL func(string) string) string {
	if !want || sp.Visibility != Public || publishedURL == nil {
		return ""
	}
	return "[Download the OpenAPI specification](" + publishedURL(sp.ID) + ")\n\n"
}

// computedSpec reads the latest version of the spec a source depends on.
func (s *Service) computedSpec(ctx context.Context, req computed.Request) (*docTree, Spec, error) {
	var src computedSource
	if len(req.Source.Dependencies) > 0 {
		if err := json.Unmarshal(req.Source.Dependencies, &src.Dependencies); err != nil {
			return nil, Spec{}, apperr.Invalidf("source.dependencies: must be {spec: {ref: {kind: openapi, spec: <slug>}}}")
		}
	}
	slug := src.Dependencies.Spec.Ref.Spec
	if src.Dependencies.Spec.Ref.Kind != "openapi" || slug == "" {
		return nil, Spec{}, apperr.Invalidf("source.dependencies.spec.ref: must be {kind: openapi, spec: <slug>}")
	}
	sp, err := s.store.Spec(ctx, req.OrgID, slug)
	if err != nil {
		return nil, Spec{}, apperr.Invalidf("source.dependencies.spec.ref.spec: the organization has no OpenAPI specification %q", slug)
	}
	if sp.LastVersion == "" {
		return nil, Spec{}, apperr.Invalidf("source.dependencies.spec.ref.spec: OpenAPI specification %q has no version yet (processingState %s)", slug, sp.State)
	}
	v, err := s.store.Version(ctx, sp.ID, sp.LastVersion)
	if err != nil {
		return nil, Spec{}, err
	}
	t, ok := newDocTree(v)
	if !ok {
		return nil, Spec{}, apperr.Invalidf("source.dependencies.spec.ref.spec: OpenAPI specification %q has no readable document", slug)
	}
	return t, sp, nil
}

// documentMarkdown is the markdown of one generated page.
func (t *docTree) documentMarkdown(slug string, p documentProps) (string, error) {
	switch p.Doc {
	case "operations":
		if p.Page == "" {
			return "", apperr.Invalidf("source.props.page: the tag whose operations the page shows is required")
		}
		return t.operationsMarkdown(slug, p.Page), nil
	case "operation":
		if p.Page == "" || p.Method == "" {
			return "", apperr.Invalidf("source.props: page (the operation's path) and method are required for doc operation")
		}
		m := strings.ToLower(p.Method)
		if _, _, _, ok := t.operation(p.Page, m); !ok {
			return "", apperr.Invalidf("source.props: the spec has no operation %s %s", strings.ToUpper(m), p.Page)
		}
		return operationBlock(slug, p.Page, m), nil
	case "tag":
		if p.Page == "" {
			return "", apperr.Invalidf("source.props.page: the tag the page describes is required")
		}
		return t.tagDescription(p.Page), nil
	case "info":
		info, _ := t.root["info"].(map[string]any)
		desc, _ := info["description"].(string)
		return desc, nil
	case "models":
		return t.modelsMarkdown(slug), nil
	}
	return "", apperr.Invalidf("source.props.doc: must be operations, operation, tag, info or models, got %q", p.Doc)
}

func operationBlock(slug, p, method string) string {
	return fmt.Sprintf("{%% openapi-operation spec=%q path=%q method=%q %%}\n{%% endopenapi-operation %%}\n\n", slug, p, method)
}

// untaggedTag is the tag operations without tags are grouped under, as Swagger UI and most
// OpenAPI tools do: they get a page like any tag's.
const untaggedTag = "default"

// tagDescription is the description the spec's tags list gives a tag.
func (t *docTree) tagDescription(tag string) string {
	declared, _ := t.root["tags"].([]any)
	for _, d := range declared {
		m, _ := d.(map[string]any)
		if name, _ := m["name"].(string); name == tag {
			desc, _ := m["description"].(string)
			return desc
		}
	}
	return ""
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
		for _, m := range methods {
			op, ok := item[m].(map[string]any)
			if !ok || !hasTag(op, tag) {
				continue
			}
			b.WriteString(operationBlock(slug, p, m))
		}
	}
	return b.String()
}

// methods are the operations of a path item, in the order pages list them.
var methods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// hasTag reports an operation tagged tag; an operation with no tag has untaggedTag.
func hasTag(op map[string]any, tag string) bool {
	for _, t := range opTags(op) {
		if t == tag {
			return true
		}
	}
	return false
}

// opTags are an operation's tags, [untaggedTag] when it names none.
func opTags(op map[string]any) []string {
	tags, _ := op["tags"].([]any)
	var out []string
	for _, tg := range tags {
		if s, ok := tg.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = []string{untaggedTag}
	}
	return out
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
