// Package site holds docs sites: the spaces they publish (site spaces), the sections and
// section groups that organize them, share links, the adaptive-content schema of visitor
// claims, the customization of the published site, and the key that signs visitor JWTs.
//
// # Who may do what
//
// Sites belong to an organization. Its enabled members read them; only its admins create,
// change, publish and delete them, manage share links and read the visitor-auth key. Guests
// (who see only what they are granted) get 403; anyone else gets 404: a site's existence is as
// private as its organization's.
//
// # Structure
//
// A site's root holds either site spaces (a site without sections) or sections and section
// groups; groups hold sections and groups; sections hold site spaces. Siblings are ordered by
// orderkey positions, one mechanism for every kind of item. Each container of site spaces
// (the root, or a section) has exactly one default site space while it holds any, and a site
// with sections has exactly one default section.
//
// Serving reads this package without a caller: Service.Published and the methods in read.go.
package site

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/access"
	"docsd/internal/clock"
	"docsd/internal/paging"
	"docsd/internal/space"
)

// Visibility says who may read a published site.
type Visibility string

const (
	Public      Visibility = "public"       // anyone; indexed by search engines
	Unlisted    Visibility = "unlisted"     // anyone; not indexed
	ShareLinked Visibility = "share-link"   // anyone with an active share link's key
	VisitorAuth Visibility = "visitor-auth" // visitors holding a JWT signed with the site's key
)

// Visibilities lists the values of Visibility, for validation.
var Visibilities = []string{string(Public), string(Unlisted), string(ShareLinked), string(VisitorAuth)}

// Types are the site types (plans); new sites are basic.
var Types = []string{"basic", "premium", "ultimate", "sponsored", "legacy-basic", "legacy-premium"}

// Site is a docs site.
type Site struct {
	ID              string
	OrganizationID  string
	Type            string
	Title           string
	Visibility      Visibility
	Basename        string // unique in the organization; the last segment of the published path
	Hostname        string // custom hostname; "" when none
	ProxyOrigin     string // "" when none
	Published       bool
	AdaptiveContent bool
	AgentsContext   string // "included" or "excluded"
	// Customization is the site's customization as stored (JSON); nil means the defaults.
	// Service.Customization returns the effective value.
	Customization json.RawMessage
	// AdaptiveSchema is the JSON Schema of visitor claims; nil when the site has none.
	AdaptiveSchema   json.RawMessage
	AdaptiveSchemaAt *time.Time
	VisitorAuth      VisitorAuthSettings
	CreatedAt        time.Time
	UpdatedAt        time.Time
}

// VisitorAuthSettings configure visitor authentication (visibility visitor-auth).
type VisitorAuthSettings struct {
	// Key is the HS256 secret that signs visitor JWTs. Every site has one from its creation;
	// admins read it (GET publishing/auth) and replace it (regenerate).
	Key         string
	Backend     string // "custom" or "integration"
	FallbackURL string // where to send visitors whose token is missing or invalid; "" when none
}

// SiteSpace is a space published on a site, at the root or in a section.
type SiteSpace struct {
	ID        string
	SiteID    string
	SectionID string // "" at the root
	SpaceID   string
	Space     space.Space // the published space (its title is the site space's title)
	Position  string
	Path      string  // unique within its section (or the root)
	Condition *string // adaptive-content expression; nil when none
	Default   bool
	// Customization holds this site space's overrides of the site's customization (a JSON
	// object); nil when it has none.
	Customization json.RawMessage
	CreatedAt     time.Time
}

// Section groups site spaces (variants) under a title, at the root or in a section group.
type Section struct {
	ID          string
	SiteID      string
	GroupID     string // "" at the root
	Position    string
	Title       string
	Description string
	Path        string // unique within the site
	Condition   *string
	Icon        string
	Default     bool
	CreatedAt   time.Time
}

// SectionGroup groups sections and other groups.
type SectionGroup struct {
	ID        string
	SiteID    string
	ParentID  string // "" at the root
	Position  string
	Title     string
	Icon      string
	CreatedAt time.Time
}

// ShareLink admits readers of a share-link site who present its Key, while it is active.
type ShareLink struct {
	ID        string
	SiteID    string
	Name      string
	Key       string // the secret readers present; never derived from the id
	Active    bool
	CreatedAt time.Time
}

// Limits of this package, from the public specification.
const (
	TitleMin, TitleMax               = 2, 128
	BasenameMax                      = 100
	HostnameMax                      = 512
	ProxyMax                         = 512
	PathMax                          = 100
	ConditionMax                     = 1024
	SectionTitleMin, SectionTitleMax = 2, 128
	SectionDescriptionMax            = 256
	GroupTitleMin, GroupTitleMax     = 1, 100
	IconMax                          = 50
	ShareLinkNameMax                 = 50
)

// ErrNotFound is returned by a Tx when a row does not exist.
var ErrNotFound = errors.New("site: not found")

// ErrTaken is returned (wrapped) by a Tx when a unique value (hostname, basename, path) is
// already used.
var ErrTaken = errors.New("site: value taken")

// Filter selects sites in a list; zero values select all.
type Filter struct {
	Space     string // sites publishing this space
	Title     string // case-insensitive contains
	Published *bool
	Types     []string
}

// Tree is a site's whole structure, in no particular order.
type Tree struct {
	Sections   []Section
	Groups     []SectionGroup
	SiteSpaces []SiteSpace // those whose space is live (not in the trash)
}

// Store runs reads and write transactions over sites.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation the site service needs.
type Tx interface {
	access.Store
	InsertSite(ctx context.Context, s Site) error
	UpdateSite(ctx context.Context, s Site) error // ErrTaken for a used hostname or basename
	DeleteSite(ctx context.Context, id string) error
	// Site returns a site; ErrNotFound if it does not exist. Inside a write transaction it
	// locks the site's row, so changes to one site's structure are serialized.
	Site(ctx context.Context, id string) (Site, error)
	SiteByHostname(ctx context.Context, hostname string) (Site, error)
	SiteByBasename(ctx context.Context, orgID, basename string) (Site, error)
	BasenameTaken(ctx context.Context, orgID, basename string) (bool, error)
	ListSites(ctx context.Context, orgID string, f Filter, page paging.Request) (paging.Result[Site], error)
	// CountSiteSpaces counts the site spaces of each site.
	CountSiteSpaces(ctx context.Context, siteIDs []string) (map[string]int, error)

	Tree(ctx context.Context, siteID string) (Tree, error)
	InsertSection(ctx context.Context, s Section) error
	UpdateSection(ctx context.Context, s Section) error
	DeleteSection(ctx context.Context, id string) error
	InsertGroup(ctx context.Context, g SectionGroup) error
	UpdateGroup(ctx context.Context, g SectionGroup) error
	DeleteGroup(ctx context.Context, id string) error
	InsertSiteSpace(ctx context.Context, s SiteSpace) error
	UpdateSiteSpace(ctx context.Context, s SiteSpace) error
	DeleteSiteSpace(ctx context.Context, id string) error

	InsertShareLink(ctx context.Context, l ShareLink) error
	UpdateShareLink(ctx context.Context, l ShareLink) error
	DeleteShareLink(ctx context.Context, siteID, id string) error
	ShareLink(ctx context.Context, siteID, id string) (ShareLink, error)
	ShareLinkByKey(ctx context.Context, key string) (ShareLink, error)
	ListShareLinks(ctx context.Context, siteID string, page paging.Request) (paging.Result[ShareLink], error)

	// AgentSettings returns a site's agent settings; ErrNotFound if they were never set.
	AgentSettings(ctx context.Context, siteID string) (AgentSettings, error)
	// PutAgentSettings inserts or replaces a site's agent settings.
	PutAgentSettings(ctx context.Context, a AgentSettings) error
	InsertFeedback(ctx context.Context, f Feedback) error
	// ListFeedback lists a site's feedback, newest first.
	ListFeedback(ctx context.Context, siteID string, f FeedbackFilter, page paging.Request) (paging.Result[Feedback], error)

	// Space returns a space (live or in the trash); ErrNotFound if it does not exist.
	Space(ctx context.Context, id string) (space.Space, error)
	// PublishedSiteSpaces returns the site spaces of published sites that hold any of
	// spaceIDs, in no particular order.
	PublishedSiteSpaces(ctx context.Context, spaceIDs []string) ([]PublishedSiteSpace, error)
	// PublishedSiteSpacesLater is PublishedSiteSpaces for a write that asks early: the read
	// goes with the write's next statement (on PostgreSQL, in the same round trip), and done
	// gets its rows before that statement returns. A failure fails the write.
	PublishedSiteSpacesLater(ctx context.Context, spaceIDs []string, done func([]PublishedSiteSpace)) error
	// SitesOfSpaces returns, for each of spaceIDs that a site (published or not) includes,
	// the ids of those sites, each once, in no particular order.
	SitesOfSpaces(ctx context.Context, spaceIDs []string) (map[string][]string, error)
}

// Service implements the rules of sites on top of a Store.
type Service struct {
	store  Store
	access *access.Checker
	clock  clock.Clock
}

// NewService returns the site service; it asks acc for every decision.
func NewService(st Store, acc *access.Checker, c clock.Clock) *Service {
	return &Service{store: st, access: acc, clock: c}
}
