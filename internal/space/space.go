// Package space holds the content tree of an organization — spaces, and the collections that
// group them — with the grants that open it to users and teams, and the one rule that says
// what role a caller has on each node.
//
// # Effective role
//
// A caller's role on a space or collection (Access.SpaceRole, Access.CollectionRole; other
// features call Service.RoleOn) is:
//
//   - nothing, for anyone who is not an enabled member of the owning organization (guests are
//     members: they hold no role in the organization, only what they are granted);
//   - admin, for organization admins;
//   - otherwise the strongest of
//   - the grants to the caller and to the caller's teams on the node and on every collection
//     above it (a grant on a collection reaches everything inside it);
//   - for non-guest members, the default level of the node, unless it is a private space: a
//     level of "inherit" takes the parent collection's level, and at the top of the tree the
//     member's organization role. An explicit level is not capped by the organization role:
//     an admin who opens a space for editing to every member means every member, including
//     read-only ones. Null means no access by default;
//   - for non-guest members on an `in-collection` space, read access whenever they can access
//     the parent collection ("whoever can access the parent collection").
//
// Private spaces open to nobody by default, so the member who creates a space (or a
// collection) is granted admin on it unless they are an organization admin already.
//
// Deleting a space moves it to the trash for 7 days (restore brings it back); a durable job
// then removes it for good. Deleting a collection that still holds live spaces or collections
// is refused with 409; an empty collection is deleted at once, and spaces in the trash that
// belonged to it would be restored at the top level.
package space

import (
	"context"
	"errors"
	"time"

	"docsd/internal/access"
	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/gencache"
	"docsd/internal/mergerules"
)

// Visibility says who may read a space besides the members it is granted to.
type Visibility string

const (
	Public       Visibility = "public"        // anyone; indexed by search engines
	Unlisted     Visibility = "unlisted"      // anyone; not indexed
	ShareLink    Visibility = "share-link"    // anyone with the secret link
	VisitorAuth  Visibility = "visitor-auth"  // visitors authenticated through a JWT
	InCollection Visibility = "in-collection" // whoever can access the parent collection
	Private      Visibility = "private"       // only the members granted access
)

// Visibilities lists every visibility, for validation messages.
var Visibilities = []string{string(Public), string(Unlisted), string(ShareLink), string(VisitorAuth), string(InCollection), string(Private)}

// EditMode says whether a space's content may be edited.
type EditMode string

const (
	Live   EditMode = "live"   // direct edits
	Locked EditMode = "locked" // every content edit is refused
)

// Level is the default level of a space or collection: a role name, Inherit, or NoAccess.
type Level string

const (
	Inherit  Level = "inherit"
	NoAccess Level = "" // JSON null
)

// Role is the role a level names (Guest for NoAccess and Inherit).
func (l Level) Role() auth.Role {
	if l == Inherit {
		return auth.Guest
	}
	return auth.Role(l)
}

// Space is a container of documentation content.
type Space struct {
	ID             string
	OrganizationID string
	Parent         string // collection id; "" at the top level
	Position       string // orderkey among its siblings
	Title          string
	Emoji          string // "" when none
	IconURL        string // "" when none
	Visibility     Visibility
	EditMode       EditMode
	Language       string // "" when unset
	DefaultLevel   Level
	MergeRules     mergerules.Config
	// Revision is the id of the space's current revision (its head). A space starts with an
	// empty revision, written with it; a duplicate starts from its source's head. Only the
	// content service moves it afterwards (UpdateSpace leaves it alone).
	Revision  string
	CreatedAt time.Time
	UpdatedAt time.Time
	DeletedAt *time.Time // set while the space is in the trash
	// OpenComments counts the space's own open comments (not those of its change requests);
	// only the comment store changes it.
	OpenComments int
}

// Collection groups spaces and other collections.
type Collection struct {
	ID             string
	OrganizationID string
	Parent         string // collection id; "" at the top level
	Position       string
	Title          string
	Description    *string
	DefaultLevel   Level
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Limits and rules of this package.
const (
	TitleMax       = 50
	DescriptionMax = 100
	EmojiMax       = 50
	IconURLMax     = 2048
	// TrashRetention is how long a deleted space can be restored before it is removed for good.
	TrashRetention = 7 * 24 * time.Hour
	// PurgeJob is the job kind that removes a deleted space for good.
	PurgeJob = "space.purge"
)

// ErrNotFound is returned by a Tx when a space, collection, team or membership does not exist.
var ErrNotFound = errors.New("space: not found")

// Service implements the rules of spaces, collections and grants on top of a Store.
type Service struct {
	store  Store
	access *access.Checker
	clock  clock.Clock
	// rows keeps each read's space row, token check and facts by the database generation the
	// request read on arrival (gencache.WithGeneration): while nothing is written, the next
	// read of the space by the same caller needs no statement at all (spaceFacts).
	rows *gencache.Cache[spaceFactsRow]
}

// spaceFactsRows bounds the rows kept: one per caller, space and token read since the last write.
const spaceFactsRows = 10_000

// NewService returns the space service; it asks acc for every role.
func NewService(s Store, acc *access.Checker, c clock.Clock) *Service {
	return &Service{store: s, access: acc, clock: c, rows: gencache.New[spaceFactsRow](spaceFactsRows*512, spaceFactsRows)}
}

// Store runs reads and write transactions over spaces.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation the space service needs, grouped by resource.
type Tx interface {
	SpaceTx
	CollectionTx
	GrantTx
	OrgTx
}

// OrgTx reads what the space service needs to know of organizations.
type OrgTx interface {
	// MemberRole is read by the access component only (access.Store).
	access.Store
	// Members lists the enabled members of orgID.
	Members(ctx context.Context, orgID string) ([]Member, error)
	// LockTree serializes the changes to an organization's content tree (moves, transfers,
	// positions), so two concurrent moves cannot build a cycle or share a position.
	LockTree(ctx context.Context, orgID string) error
}

// Member is an enabled member of an organization, as access computations need them.
type Member struct {
	User account.User
	Role auth.Role
}

// SpaceTx stores spaces.
type SpaceTx interface {
	InsertSpace(ctx context.Context, s Space) error
	// Space returns a space, in the trash or not; ErrNotFound if it does not exist.
	Space(ctx context.Context, id string) (Space, error)
	// SpaceAccess returns a space, in the trash or not, with everything that decides userID's
	// role on it, in one round trip: every request on a space starts with it. Unless tokenID
	// is "", it also reads whether that API token of userID still exists. ErrNotFound if the
	// space does not exist.
	SpaceAccess(ctx context.Context, id, userID, tokenID string) (SpaceAccess, error)
	// SpaceRow returns a space, in the trash or not, with the access generation and, unless
	// tokenID is "", whether that API token of userID still exists. ErrNotFound if the space
	// does not exist.
	SpaceRow(ctx context.Context, id, userID, tokenID string) (SpaceRow, error)
	// AfterCommit runs f once the write transaction has committed, never if it rolls back;
	// outside a transaction, at once.
	AfterCommit(f func())
	// UpdateSpace writes s over the space was, as this write read it: the two tell an update
	// from a deletion or a restoration, and a change of visibility, for the event.
	UpdateSpace(ctx context.Context, was, s Space) error
	// Spaces lists the live spaces of an organization (not those in the trash), in no order.
	Spaces(ctx context.Context, orgID string) ([]Space, error)
	// PurgeSpace removes a space for good if it has been in the trash since before cutoff.
	PurgeSpace(ctx context.Context, id string, cutoff time.Time) (bool, error)
	// SchedulePurge makes sure the space is purged at runAt, durably.
	SchedulePurge(ctx context.Context, id string, deletedAt, runAt time.Time) error
}

// CollectionTx stores collections.
type CollectionTx interface {
	InsertCollection(ctx context.Context, c Collection) error
	Collection(ctx context.Context, id string) (Collection, error)
	UpdateCollection(ctx context.Context, c Collection) error
	// Collections lists every collection of an organization, in no order.
	Collections(ctx context.Context, orgID string) ([]Collection, error)
	// DeleteCollection removes an empty collection; spaces in the trash that belonged to it
	// move to the top level (and from in-collection to private visibility).
	DeleteCollection(ctx context.Context, id string) error
	// MoveTreeToOrganization hands collections, and every space (live or in the trash) whose
	// parent is one of them, to orgID, keeping their parents, and drops the grants on them
	// that cannot follow (as DropForeignGrants).
	MoveTreeToOrganization(ctx context.Context, orgID string, collectionIDs []string, at time.Time) error
}

// notFound maps a storage miss to the API's 404.
func notFound(err error, format string, args ...any) error {
	if errors.Is(err, ErrNotFound) {
		return apperr.NotFoundf(format, args...)
	}
	return err
}
