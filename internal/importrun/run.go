// Package importrun brings content into a space, a change request or under a page from
// wherever it lives (uploaded files, a website, an archive or a Git repository) as import
// runs (the API's ContentImportRun): each is a durable job whose result is committed in one
// transaction together with the run's completion, so a run is never half-written, a run
// cancelled before its commit leaves the content unchanged, and a run repeated after a
// restart writes nothing twice.
package importrun

import (
	"context"
	"time"

	"docsd/internal/paging"
)

// Statuses of a run, as the API spells them.
const (
	Pending    = "pending"
	InProgress = "in-progress"
	Completed  = "completed"
	Failed     = "failed"
	Cancelled  = "cancelled"
)

// Source types. Website and file are the API's; archive and git name the runs of the space
// import endpoints (an uploaded archive, a Git repository), which the API cannot start here.
const (
	SourceWebsite = "website"
	SourceFile    = "file"
	SourceArchive = "archive"
	SourceGit     = "git"
)

// Source is where a run's content comes from.
type Source struct {
	Type  string   `json:"type"`
	URL   string   `json:"url,omitempty"`
	Files []string `json:"files,omitempty"`
}

// Target is where a run's content goes: under Page (top level when empty) of the change
// request's content, or of the space's current content when ChangeRequest is empty.
type Target struct {
	Space         string
	ChangeRequest string
	Page          string
}

// Page is a page a run made.
type Page struct {
	ID        string `json:"id"`
	SourceURL string `json:"sourceURL,omitempty"`
	Type      string `json:"type"` // page or folder
}

// Run is an import run.
type Run struct {
	ID          string
	OrgID       string
	Target      Target
	Source      Source
	Status      string
	Reason      string   // why it failed
	Pages       []Page   // set when completed
	Errors      []string // what was skipped or imported differently, set when completed
	Revision    string   // the revision it committed
	CreatedBy   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	StartedAt   *time.Time
	CompletedAt *time.Time
}

// Active reports whether the run may still change.
func (r Run) Active() bool { return r.Status == Pending || r.Status == InProgress }

// Filter narrows a list of runs; empty fields do not filter. Status "active" is pending or
// in-progress.
type Filter struct {
	Space         string
	ChangeRequest string
	Status        string
}

// Store keeps runs and uploads.
type Store interface {
	// CreateRun stores a pending run and enqueues its job (none when jobKind is ""), in one
	// transaction.
	CreateRun(ctx context.Context, now time.Time, r Run, jobKind string, payload any) error
	// Run returns a run of the organization, or an apperr.NotFound.
	Run(ctx context.Context, orgID, id string) (Run, error)
	// RunByID returns a run, or an apperr.NotFound.
	RunByID(ctx context.Context, id string) (Run, error)
	// ListRuns lists the organization's runs, most recent first, among spaceIDs.
	ListRuns(ctx context.Context, orgID string, spaceIDs []string, f Filter, page paging.Request) (paging.Result[Run], error)
	// SetStatus moves a run to status if it is in one of from; ok is false when it was not.
	SetStatus(ctx context.Context, now time.Time, id string, from []string, status, reason string) (ok bool, err error)
	// CreateUpload stores an upload slot.
	CreateUpload(ctx context.Context, u Upload) error
	// Upload returns an upload slot by id, or an apperr.NotFound.
	Upload(ctx context.Context, id string) (Upload, error)
	// UploadByKey returns an upload slot of the organization by its key, or an apperr.NotFound.
	UploadByKey(ctx context.Context, orgID, key string) (Upload, error)
	// MarkUploaded records the bytes of an upload slot not used yet; ok is false when it was.
	MarkUploaded(ctx context.Context, now time.Time, id, blobHash string) (ok bool, err error)
}

// Tx is what a run does inside the transaction that commits its content.
type Tx interface {
	// CompleteRun marks an in-progress run completed with what it made; ok is false when the
	// run is no longer in progress (cancelled meanwhile, or completed by another worker).
	CompleteRun(ctx context.Context, now time.Time, id, revision string, pages []Page, errs []string) (ok bool, err error)
}

// TxSource is implemented by the content transactions of the store, which also hold runs.
type TxSource interface {
	ImportRuns() Tx
}
