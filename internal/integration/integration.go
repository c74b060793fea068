// Package integration is the integration registry: integrations published by organizations
// (their manifest, script, images and secrets), their installations on organizations, spaces
// and sites, and the events those installations receive.
//
// Who may do what is decided in access.go alone, so that it can move into the access
// component whole.
package integration

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/fetch"
	"docsd/internal/org"
	"docsd/internal/paging"
	"docsd/internal/site"
	"docsd/internal/space"
)

// Values of the enumerations of the public specification.
var (
	Scopes = []string{"space:content:read", "space:content:write", "space:metadata:read", "space:metadata:write",
		"space:git:sync", "page:feedback:read", "site:metadata:read", "site:views:read", "site:script:inject",
		"site:script:cookies", "site:visitor:auth", "site:adaptive:read", "site:adaptive:write", "openapi:read",
		"openapi:write", "conversations:ingest"}
	Categories   = []string{"analytics", "collaboration", "content", "marketing", "visitor-auth", "other"} // gitsync went in newer specs
	Targets      = []string{"all", "site", "space", "organization"}
	Visibilities = []string{"public", "private", "unlisted"}
	Runtimes     = []string{"v1", "v2"}
	Statuses     = []string{"active", "pending", "paused"}
	Selections   = []string{"all", "selected"}
)

// Limits from the public specification, and docsd's own on images.
const (
	NameMax                = 100
	TitleMin, TitleMax     = 2, 30
	DescriptionMax         = 100
	SummaryMax             = 2048
	PreviewImagesMax       = 3
	ExternalLinksMax       = 5
	SecretsMax             = 20
	ExternalIDsMax         = 5
	BlockTitleMin          = 2
	BlockTitleMax          = 40
	BlockDescriptionMax    = 150
	IconBytesMax           = 512 << 10
	PreviewImageBytesMax   = 2 << 20
	ScriptBytesMax         = 8 << 20
	ImageDimensionMax      = 4096
	InstallationTokenTTL   = time.Hour
	DevelopmentModeTTL     = 30 * time.Minute
	DevelopmentMaxFailures = 5
	EventRetention         = 30 * 24 * time.Hour
)

// Manifest is what a publication describes besides its script: kept as published.
type Manifest struct {
	Title          string          `json:"title"`
	Description    string          `json:"description"`
	Summary        string          `json:"summary,omitempty"`
	Scopes         []string        `json:"scopes"`
	Categories     []string        `json:"categories"`
	Blocks         []Block         `json:"blocks"`
	ContentSources json.RawMessage `json:"contentSources,omitempty"`
	Configurations json.RawMessage `json:"configurations,omitempty"`
	ExternalLinks  json.RawMessage `json:"externalLinks,omitempty"`
	CSP            json.RawMessage `json:"contentSecurityPolicy,omitempty"`
	Icon           string          `json:"icon,omitempty"`          // image id; "" when none
	PreviewImages  []string        `json:"previewImages,omitempty"` // image ids
}

// Block is a custom block an integration defines.
type Block struct {
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Description string          `json:"description,omitempty"`
	Icon        string          `json:"icon,omitempty"`
	URLUnfurl   []string        `json:"urlUnfurl,omitempty"`
	Markdown    json.RawMessage `json:"markdown,omitempty"`
}

// Integration is a published integration.
type Integration struct {
	Name       string
	OrgID      string // the owning organization
	Version    int
	Runtime    string
	Visibility string
	Target     string
	Manifest   Manifest
	Script     string
	// SealedSecrets and SealedSigning are encrypted (see Sealer); they never leave the service.
	SealedSecrets string
	SealedSigning string
	Dev           Development
	CreatedAt     time.Time
	UpdatedAt     time.Time
}

// Development is an integration's development mode: its events go to a tunnel.
type Development struct {
	TunnelURL string // "" when off
	All       bool   // every organization's events, not only the owner's
	ExpiresAt time.Time
	Failures  int
}

// Image is an icon or preview image as published.
type Image struct {
	ID          string
	ContentType string
	Data        []byte
}

// Installation is an integration installed on an organization.
type Installation struct {
	ID             string
	Integration    string
	OrgID          string
	Status         string
	SpaceSelection string
	SiteSelection  string
	Configuration  json.RawMessage
	ExternalIDs    []string
	SealedSigning  string
	Spaces         int // space installations (filled on reads)
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Kind tells a space installation from a site installation.
type Kind string

const (
	SpaceKind Kind = "space"
	SiteKind  Kind = "site"
)

// ContentInstallation is an installation's presence on a space or a site.
type ContentInstallation struct {
	InstallationID string
	Integration    string
	OrgID          string
	Kind           Kind
	TargetID       string
	Status         string
	Configuration  json.RawMessage
	ExternalIDs    []string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Event is what an installation received, with its delivery's outcome.
type Event struct {
	ID             string
	Integration    string
	InstallationID string
	OrgID          string
	Type           string
	Payload        json.RawMessage
	Status         string // "pending" while being delivered, then "success" or "failed"
	Trace          []LogEntry
	CreatedAt      time.Time
}

// LogEntry is one line of an event's trace.
type LogEntry struct {
	Message   string    `json:"message"`
	Timestamp time.Time `json:"timestamp"`
	Level     string    `json:"level"`
}

// ErrNotFound is returned by a Tx when a row does not exist.
var ErrNotFound = errors.New("integration: not found")

// ErrTaken is returned by a Tx when an installation already exists.
var ErrTaken = errors.New("integration: already installed")

// Store runs reads and write transactions over integrations.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation the service needs.
type Tx interface {
	Integration(ctx context.Context, name string) (Integration, error)
	Integrations(ctx context.Context) ([]Integration, error) // every one, by name
	SaveIntegration(ctx context.Context, it Integration, images []Image) error
	SetDevelopment(ctx context.Context, name string, d Development) error
	DeleteIntegration(ctx context.Context, name string) (bool, error)
	Image(ctx context.Context, name, id string) (Image, error)

	Installation(ctx context.Context, id string) (Installation, error)
	InstallationIn(ctx context.Context, name, orgID string) (Installation, error)
	Installations(ctx context.Context, name, orgID string) ([]Installation, error) // "" = any
	InsertInstallation(ctx context.Context, in Installation) error                 // ErrTaken
	UpdateInstallation(ctx context.Context, in Installation) error
	DeleteInstallation(ctx context.Context, id string) error

	ContentInstallation(ctx context.Context, installationID string, kind Kind, targetID string) (ContentInstallation, error)
	// ContentInstallations lists by installation ("" = any) and target ("" = any).
	ContentInstallations(ctx context.Context, installationID string, kind Kind, targetID string) ([]ContentInstallation, error)
	ContentInstallationsOf(ctx context.Context, name string, kind Kind) ([]ContentInstallation, error)
	SaveContentInstallation(ctx context.Context, ci ContentInstallation) error
	DeleteContentInstallation(ctx context.Context, installationID string, kind Kind, targetID string) (bool, error)

	InsertEvent(ctx context.Context, ev Event) (inserted bool, err error) // false when the id exists
	SpaceOrg(ctx context.Context, spaceID string) (string, error)
	SiteOrg(ctx context.Context, siteID string) (string, error)
	UpdateEvent(ctx context.Context, ev Event) error
	Event(ctx context.Context, name, id string) (Event, error)
	Events(ctx context.Context, name string, page paging.Request, f EventFilter) (paging.Result[Event], error)
	// PruneEvents deletes events created before cutoff and returns how many went.
	PruneEvents(ctx context.Context, cutoff time.Time) (int64, error)

	// EnqueueDelivery queues the job that delivers an event, in this transaction.
	EnqueueDelivery(ctx context.Context, name, eventID string, runAt time.Time) error
	// Now is the transaction's time.
	Now() time.Time

	InsertToken(ctx context.Context, hash, installationID string, expires time.Time) error
	// TokenInstallation returns the installation a live token acts for.
	TokenInstallation(ctx context.Context, hash string, now time.Time) (Installation, error)
}

// Orgs is what the service needs of organizations.
type Orgs interface {
	Role(ctx context.Context, c auth.Caller, orgID string) (role auth.Role, member bool, err error)
	Lookup(ctx context.Context, idOrSubdomain string) (org.Organization, error)
}

// Spaces tells the service about spaces.
type Spaces interface {
	RoleOn(ctx context.Context, c auth.Caller, spaceID string) (space.View, error)
}

// Sites tells the service about sites.
type Sites interface {
	Get(ctx context.Context, c auth.Caller, orgID, id string) (site.View, error)
}

// Service implements the rules of integrations on top of a Store.
type Service struct {
	store    Store
	orgs     Orgs
	spaces   Spaces
	sites    Sites
	seal     Sealer
	outbound *fetch.Client // delivers events; vets tunnel URLs
	clock    clock.Clock
}

// Sealer encrypts secrets at rest.
type Sealer interface {
	Seal(plain string) string
	Open(sealed string) (string, error)
}

// NewService returns the integration service.
func NewService(st Store, orgs Orgs, spaces Spaces, sites Sites, seal Sealer, outbound *fetch.Client, c clock.Clock) *Service {
	return &Service{store: st, orgs: orgs, spaces: spaces, sites: sites, seal: seal, outbound: outbound, clock: c}
}
