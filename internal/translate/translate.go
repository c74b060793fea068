// Package translate keeps an organization's translations (a source space rendered into a
// result space in another language) and its glossary, and runs translations as durable jobs
// through a language provider (provider.go): pages whose text did not change since the last
// run are not sent again.
package translate

import (
	"context"
	"errors"
	"time"

	"docsd/internal/paging"
	"docsd/internal/richtext"
)

// JobKind is the job that runs one translation.
const JobKind = "translation.run"

// Consumer names the translation trigger's cursor in the event outbox.
const Consumer = "translations"

// Statuses of a translation, as the API lists them.
const (
	Pending   = "pending"   // a run is queued
	Running   = "running"   // a run is under way
	Completed = "completed" // no run is queued or running (also before the first run)
)

// Languages are the API's translation languages (TranslationLanguage): those of the oldest
// supported spec and zh-tw, which newer ones add.
var Languages = []string{"en", "fr", "de", "es", "it", "pt", "pt-br", "ru", "ja", "zh", "zh-tw", "yue", "ko", "ar",
	"hi", "nl", "pl", "tr", "sv", "no", "da", "fi", "el", "cs", "hu", "ro", "th", "vi", "id", "ms", "he", "uk", "sk",
	"bg", "hr", "lt", "lv", "et", "sl"}

// Stats are a translation's true counts; durations are in seconds.
type Stats struct {
	Runs              int `json:"runs"`
	TotalWords        int `json:"totalWords"`
	TotalPages        int `json:"totalPages"`
	TotalDuration     int `json:"totalDuration"`
	LatestRunDuration int `json:"latestRunDuration"`
	LatestPages       int `json:"latestPages"`
	LatestWords       int `json:"latestWords"`
}

// Translation is one translation of a space.
type Translation struct {
	ID             string
	OrgID          string
	SourceSpace    string
	SourceLanguage string
	Language       string
	Instructions   richtext.Document
	// AutoRun runs the translation again when its source space's content changes (after a
	// first run).
	AutoRun        bool
	Status         string
	ResultSpace    string // "" before the first run
	ResultRevision string
	// Provider names the provider of the latest run; LastError why it failed, if it did.
	Provider  string
	LastError string
	RunSeq    int // runs asked for, to name each run's job
	Stats     Stats
	CreatedBy string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// GlossaryEntry is a term and how it is written in each language: a provider must give the
// term in the target language as written here (or keep it as in the source when the entry
// has no term for the target).
type GlossaryEntry struct {
	ID           string
	OrgID        string
	Translations map[string]string
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// Unit is the stored translation of one piece of the source (a page's title, description or
// body; a reusable content's title or body), kept so that a run sends only what changed.
type Unit struct {
	Key        string // "page:<id>:title", "page:<id>:description", "page:<id>:body", "reusable:<id>:…"
	SourceHash string // of the source text and of what shaped its translation
	Text       string
}

// ErrNotFound is returned by Store for what does not exist.
var ErrNotFound = errors.New("translate: not found")

// Store keeps translations, their units and the glossary.
type Store interface {
	Insert(ctx context.Context, t Translation) error
	Get(ctx context.Context, orgID, id string) (Translation, error) // ErrNotFound
	GetByID(ctx context.Context, id string) (Translation, error)    // ErrNotFound
	List(ctx context.Context, orgID string, page paging.Request) (paging.Result[Translation], error)
	BySource(ctx context.Context, spaceID string) ([]Translation, error)
	UpdateSettings(ctx context.Context, t Translation) error // instructions, autoRun, updatedAt
	Delete(ctx context.Context, orgID, id string) (bool, error)
	// QueueRun marks the translation pending and enqueues its run job in one transaction,
	// unless a run is already pending; it returns whether a run was queued.
	QueueRun(ctx context.Context, id string, now time.Time, jobKind string) (bool, error)
	// SaveRun records the state of run number seq (status, result, provider, error, stats).
	// When a later run was queued meanwhile, the status stays pending.
	SaveRun(ctx context.Context, t Translation, seq int) error
	Units(ctx context.Context, id string) (map[string]Unit, error)
	// PutUnits replaces the translation's units with units.
	PutUnits(ctx context.Context, id string, units []Unit, now time.Time) error

	Glossary(ctx context.Context, orgID string, page paging.Request) (paging.Result[GlossaryEntry], error)
	AllGlossary(ctx context.Context, orgID string) ([]GlossaryEntry, error)
	GlossaryEntry(ctx context.Context, orgID, id string) (GlossaryEntry, error) // ErrNotFound
	// ApplyGlossary runs a batch in one transaction; an update or delete of an entry that
	// does not exist fails the batch with ErrNotFound wrapped with its index.
	ApplyGlossary(ctx context.Context, orgID string, ops []GlossaryOp, now time.Time) error
}

// GlossaryOp is one operation of updateGlossaryEntries.
type GlossaryOp struct {
	Type         string // insert, update, delete
	ID           string // update, delete; set by the service for insert
	Translations map[string]string
}
