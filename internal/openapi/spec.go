// Package openapi keeps an organization's OpenAPI specifications: their sources (a URL or a
// text), the versions processing made of them, and the rules for who reads and edits them.
// Fetching and parsing run in a durable job (process.go); storage is behind Store.
package openapi

import (
	"context"
	"regexp"
	"time"

	"docsd/internal/paging"
)

// The processing states and error codes of the API's OpenAPISpec.
const (
	StatePending  = "pending"
	StateProgress = "progress"
	StateComplete = "complete"

	ErrFetchTimeout = "FETCH_TIMEOUT"
	ErrFetch        = "FETCH_ERROR"
	ErrParse        = "PARSE_ERROR"

	Private = "private"
	Public  = "public"
)

// SlugMax and SourceURLMax are the spec's limits.
const (
	SlugMax      = 100
	SourceURLMax = 2048
)

var slugPattern = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// Spec is an organization's OpenAPI specification.
type Spec struct {
	ID              string
	OrgID           string
	Slug            string
	SourceURL       string // empty for a text source
	SourceText      string // the document as given, for a text source
	Visibility      string
	State           string
	LastVersion     string
	LastProcessedAt *time.Time
	LastErrorCode   string
	LastErrors      []ProblemItem // the first MaxErrors of ErrorCount
	ErrorCount      int
	// Generation counts source changes; a processing job carries the generation it was
	// made for, and its result is dropped when the source changed meanwhile.
	Generation   int64
	ETag         string // validators of the last answer of a URL source, for refreshes
	LastModified string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// MaxErrors bounds the processing errors kept on a spec.
const MaxErrors = 20

// ProblemItem is one processing error: what is wrong and where (file:line:column or a JSON
// pointer, inside Message), with a short code for programs.
type ProblemItem struct {
	Message string `json:"message"`
	Code    string `json:"code,omitempty"`
}

// Version is one processed state of a spec's content; a new one is made only when the
// normalised files differ from the latest one's.
type Version struct {
	ID        string
	SpecID    string
	Hash      string
	URL       string // the source URL, or empty for a text source
	Entry     string // path of the entry file inside Files
	Files     map[string]string
	CreatedAt time.Time
}

// Source is what a spec is made from: exactly one of URL and Text.
type Source struct {
	URL  string
	Text string
}

// Store keeps specs and versions. Methods return apperr not-found errors for what is absent.
type Store interface {
	CreateSpec(ctx context.Context, now time.Time, s Spec, job Job) error
	// UpdateSource sets a spec's source, bumps its generation, sets it pending and queues
	// job for the new generation, returning the spec as stored.
	UpdateSource(ctx context.Context, now time.Time, orgID, slug string, src Source) (Spec, error)
	SetVisibility(ctx context.Context, now time.Time, orgID, slug, visibility string) (Spec, error)
	DeleteSpec(ctx context.Context, now time.Time, orgID, slug string) error
	Spec(ctx context.Context, orgID, slug string) (Spec, error)
	SpecByID(ctx context.Context, id string) (Spec, error)
	// SpecBySourceURL finds the organization's spec fetched from url (the oldest, if several).
	SpecBySourceURL(ctx context.Context, orgID, url string) (Spec, error)
	ListSpecs(ctx context.Context, orgID string, page paging.Request) (paging.Result[Spec], error)
	ListVersions(ctx context.Context, specID string, page paging.Request) (paging.Result[Version], error)
	Version(ctx context.Context, specID, id string) (Version, error)
	// StartProcessing moves the spec at generation gen to progress; false when the
	// generation moved on or the spec is gone.
	StartProcessing(ctx context.Context, now time.Time, specID string, gen int64) (bool, error)
	// FinishProcessing records a result for generation gen: a new version when v is not nil
	// and its hash differs from the latest one's, else only the processing fields.
	FinishProcessing(ctx context.Context, now time.Time, specID string, gen int64, r Result) error
	// DueForRefresh lists URL specs last processed before cutoff.
	DueForRefresh(ctx context.Context, cutoff time.Time, limit int) ([]Spec, error)
	EnqueueProcess(ctx context.Context, now time.Time, specID string, gen int64) error
}

// Job is the processing job queued with a change of source.
type Job struct {
	Kind    string
	Payload any
	Dedupe  string
}

// Result is the outcome of one processing: a version's files, or an error code and errors;
// NotModified when the server answered 304 to a refresh.
type Result struct {
	Version      *Version
	ErrorCode    string
	Errors       []ProblemItem
	ETag         string
	LastModified string
	NotModified  bool
}

// EventVersionCreated is written with a new version, in its transaction, for what shows
// the spec (published pages) to follow.
const EventVersionCreated = "openapi_spec.version_created"
