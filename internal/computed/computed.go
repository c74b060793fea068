// Package computed produces the content a computed source describes (the public API's
// ComputedContentSource: `builtin:openapi` pages from an OpenAPI specification,
// `builtin:translation`, `integration:<app>:<source>`) through a registry of source kinds.
// A kind is added by registering it; a source whose kind is not registered is a 400 that names
// its type and what this server supports.
package computed

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/markdoc"
)

// Source is a computed content source as a request gives it.
type Source struct {
	Type         string          `json:"type"`
	Props        json.RawMessage `json:"props,omitempty"`
	Dependencies json.RawMessage `json:"dependencies,omitempty"`
}

// Request is what a computation gets: the space it runs for, its source, and the seed its
// generated ids derive from (the same seed gives the same ids).
type Request struct {
	Caller  auth.Caller // who asks: a source reading other content reads it as them
	SpaceID string
	OrgID   string // the space's organization, whose resources (OpenAPI specs) a source names
	Source  Source
	Seed    string
}

// Revision is a computed revision: its pages, files and reusable contents, each already in the
// public API's shape (RevisionPage, RevisionFile, RevisionReusableContent), since computed
// pages carry what stored ones do not (their source, their computed ids).
type Revision struct {
	Pages            []json.RawMessage `json:"pages"`
	Files            []json.RawMessage `json:"files"`
	ReusableContents []json.RawMessage `json:"reusableContents"`
}

// DocumentFunc computes a document; RevisionFunc computes a revision's content.
type (
	DocumentFunc func(ctx context.Context, req Request) (*markdoc.Document, error)
	RevisionFunc func(ctx context.Context, req Request) (Revision, error)
)

// Registry maps source types to their computations. The zero value has none; it is built
// once at start-up and only read afterwards.
type Registry struct {
	documents map[string]DocumentFunc
	revisions map[string]RevisionFunc
}

// RegisterDocument adds the computation of documents for a source type ("builtin:openapi").
func (r *Registry) RegisterDocument(sourceType string, fn DocumentFunc) {
	if r.documents == nil {
		r.documents = map[string]DocumentFunc{}
	}
	r.documents[sourceType] = fn
}

// RegisterRevision adds the computation of revisions for a source type.
func (r *Registry) RegisterRevision(sourceType string, fn RevisionFunc) {
	if r.revisions == nil {
		r.revisions = map[string]RevisionFunc{}
	}
	r.revisions[sourceType] = fn
}

// Document computes the document req's source describes.
func (r *Registry) Document(ctx context.Context, req Request) (*markdoc.Document, error) {
	if err := req.validate(); err != nil {
		return nil, err
	}
	fn, ok := r.documents[req.Source.Type]
	if !ok {
		return nil, unsupported("document", req.Source.Type, r.documents)
	}
	return fn(ctx, req)
}

// Revision computes the revision content req's source describes.
func (r *Registry) Revision(ctx context.Context, req Request) (Revision, error) {
	if err := req.validate(); err != nil {
		return Revision{}, err
	}
	fn, ok := r.revisions[req.Source.Type]
	if !ok {
		return Revision{}, unsupported("revision", req.Source.Type, r.revisions)
	}
	return fn(ctx, req)
}

// maxTypeLength bounds a source type as we echo it back in an error.
const maxTypeLength = 200

func (req Request) validate() error {
	switch {
	case req.Source.Type == "":
		return apperr.Invalidf("source.type: is required (a computed source type such as builtin:openapi)")
	case len(req.Source.Type) > maxTypeLength:
		return apperr.Invalidf("source.type: must be at most %d characters (got %d)", maxTypeLength, len(req.Source.Type))
	}
	return nil
}

func unsupported[F any](what, sourceType string, kinds map[string]F) error {
	if len(kinds) == 0 {
		return apperr.Invalidf("source.type: computed %s source %q is not supported: this server supports no computed source type yet", what, sourceType)
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	slices.Sort(names)
	return apperr.Invalidf("source.type: computed %s source %q is not supported (supported: %s)", what, sourceType, strings.Join(names, ", "))
}
