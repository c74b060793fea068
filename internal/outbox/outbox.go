// Package outbox delivers the events that changes write, in the transaction that makes them,
// to the consumers that react to them (the search indexer, and later integrations): each
// consumer keeps its own cursor and sees every event at least once, in commit order, on
// whichever instance claims it first. Consumers must therefore be idempotent.
package outbox

import (
	"context"
	"encoding/json"
	"time"
)

// Kinds of events. A change writes one in its own transaction (see store.Q.Emit).
const (
	SpaceCreated  = "space.created"
	SpaceUpdated  = "space.updated"
	SpaceDeleted  = "space.deleted"
	SpaceRestored = "space.restored"

	// HeadMoved: a space's current revision changed. Data is HeadMove.
	HeadMoved = "content.head_moved"

	ChangeRequestOpened   = "change_request.opened"
	ChangeRequestUpdated  = "change_request.updated"
	ChangeRequestMerged   = "change_request.merged"
	ChangeRequestClosed   = "change_request.closed"
	ChangeRequestReviewed = "change_request.reviewed"

	CommentPosted = "comment.posted"
	ReplyPosted   = "comment.reply_posted"

	SitePublished   = "site.published"
	SiteUnpublished = "site.unpublished"
	// SiteUpdated: something a published site shows changed other than its publication:
	// its settings, customization, visitor authentication or adaptive schema, its structure
	// (sections, groups, site spaces), its share links or the integrations installed on it.
	// Subject is the site's id; one per site and transaction.
	SiteUpdated = "site.updated"
	// InstallationChanged: an integration installation of the organization was created,
	// changed or removed (the scripts it injects into the organization's sites may change).
	// Subject is the installation's id.
	InstallationChanged = "integration.installation_changed"
	// OpenAPISpecChanged: an OpenAPI spec of the organization was deleted or its visibility
	// changed (a new version is openapi.EventVersionCreated). Subject is the spec's id.
	OpenAPISpecChanged = "openapi_spec.changed"

	MemberAdded       = "member.added"
	MemberUpdated     = "member.updated"
	MemberRemoved     = "member.removed"
	TeamCreated       = "team.created"
	TeamUpdated       = "team.updated"
	TeamDeleted       = "team.deleted"
	TeamMemberSet     = "team.member_set"
	TeamMemberRemoved = "team.member_removed"
)

// Event is one change, as written by the transaction that made it.
type Event struct {
	Seq     int64           // position in commit order, from 1
	Kind    string          // one of the kinds above
	OrgID   string          // the organization it happened in, when known
	SpaceID string          // the space it is about, if any
	Subject string          // the id of the thing that changed (change request, comment, user...)
	Data    json.RawMessage // kind-specific details, a JSON object
	At      time.Time       // the time of the transaction that wrote it
}

// VisibilityChange is the data of a SpaceUpdated event that changed the space's visibility.
type VisibilityChange struct {
	PreviousVisibility string `json:"previousVisibility"`
	Visibility         string `json:"visibility"`
}

// HeadMove is the data of a HeadMoved event.
type HeadMove struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Store is what the outbox needs from storage.
type Store interface {
	// EnsureCursor creates a consumer's cursor before the first event, if it has none.
	EnsureCursor(ctx context.Context, consumer string) error
	// PendingConsumers returns the consumers that have events after their cursor. The runner
	// asks once per pass, so that idle consumers cost no claim.
	PendingConsumers(ctx context.Context) (map[string]bool, error)
	// ClaimEvents takes the consumer's cursor for owner and returns up to limit events after
	// it, oldest first. ok is false when another instance holds the claim. A claim holds for
	// lease at most, unless committed or released first.
	ClaimEvents(ctx context.Context, consumer, owner string, now time.Time, lease time.Duration, limit int) (Claim, bool, error)
	// ConsumerLag reports how far a consumer is behind, at now.
	ConsumerLag(ctx context.Context, consumer string, now time.Time) (Lag, error)
	// PruneEvents deletes events written before cutoff, and returns how many went.
	PruneEvents(ctx context.Context, now, cutoff time.Time) (int64, error)
}

// Claim is a consumer's hold on its cursor and the events after it.
type Claim interface {
	Events() []Event
	// Advance moves the cursor to seq (the last event processed) and ends the claim.
	Advance(ctx context.Context, now time.Time, seq int64) error
	// Fail records a failed attempt, leaves the cursor where it was and ends the claim.
	Fail(ctx context.Context, now time.Time, cause error) error
	// Release ends the claim without a word; safe after Advance or Fail.
	Release()
}

// Lag is how far a consumer is behind.
type Lag struct {
	Pending  int64         // events after its cursor
	Oldest   time.Duration // age of the oldest of them (0 when none)
	Failures int64         // failed attempts since the last success
}
