// Package changereq keeps change requests: proposed edits to a space's content, made as a
// line of revisions beside the space's head. This file holds the types, rules and storage
// interface; service.go checks access and runs them.
package changereq

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/content"
	"docsd/internal/paging"
)

// Statuses, as the API names them. Merged is reached only by merging.
const (
	Draft    = "draft"
	Open     = "open"
	Archived = "archived"
	Merged   = "merged"
)

// Statuses lists every status, for filters.
var Statuses = []string{Draft, Open, Archived, Merged}

// SubjectMax is the longest subject, in characters.
const SubjectMax = 100

// User is the creator as the API shows them; ID is "" when the user is gone.
type User struct {
	ID, Email, DisplayName, PhotoURL string
}

// Contributor is a user who changed a change request's content: how many revisions they made
// and when they made the last.
type Contributor struct {
	User      User
	Edits     int
	UpdatedAt time.Time
}

// ChangeRequest is one change request.
type ChangeRequest struct {
	ID                     string
	SpaceID                string
	OrganizationID         string // the space's organization, for URLs and org lists
	Number                 int64
	Status                 string
	Subject                string
	Description            json.RawMessage // nil when none was given
	CreatedBy              User
	Revision               string
	RevisionInitial        string
	RevisionMergedAncestor string
	RevisionMerged         string
	CreatedAt, UpdatedAt   time.Time
	OpenComments           int // only the comment store changes it
}

// MergeBase is the revision the change request's edits started from: the head it was last
// brought up to date with, else the head it was created from.
func (cr ChangeRequest) MergeBase() string {
	if cr.RevisionMergedAncestor != "" {
		return cr.RevisionMergedAncestor
	}
	return cr.RevisionInitial
}

// Outdated says whether the space's head has moved past the change request's merge base.
func (cr ChangeRequest) Outdated(head string) bool {
	return cr.Status != Merged && head != cr.MergeBase()
}

// Filter narrows a list. Empty fields do not filter.
type Filter struct {
	Status            string
	Creator           string
	Contributor       string // a user who created it or made one of its revisions
	RequestedReviewer string // a user asked to review it
	// Conversation clusters do not exist yet: a filter on one matches nothing, which is
	// exactly what it selects.
	ConversationsIssuesCluster string
}

// ErrNotFound is returned by a Tx when a change request does not exist.
var ErrNotFound = errors.New("changereq: not found")

// ErrNumberTaken is returned by Insert when another change request took the number first.
var ErrNumberTaken = errors.New("changereq: number taken")

// Store runs reads and write transactions.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Tx is every storage operation on change requests.
type Tx interface {
	// Insert stores cr with the next number of its space and returns that number.
	Insert(ctx context.Context, cr ChangeRequest) (int64, error)
	// Get finds a change request of a space by its id or by its number (ref in decimal).
	Get(ctx context.Context, spaceID, ref string) (ChangeRequest, error)
	// MergedAs finds the change request of a space whose merge made revisionID.
	MergedAs(ctx context.Context, spaceID, revisionID string) (ChangeRequest, error)
	// Update stores cr if its revision is still prevRevision; ok is false when another write
	// moved the change request's revision first.
	Update(ctx context.Context, cr ChangeRequest, prevRevision string) (ok bool, err error)
	// AddContributor records that a user made the change request (edited false) or one of its
	// revisions (edited true, counted, at the time given).
	AddContributor(ctx context.Context, id, userID string, edited bool, at time.Time) error
	// Contributors lists the users who made revisions of the change request, latest first.
	Contributors(ctx context.Context, id string, page paging.Request) (paging.Result[Contributor], error)
	// Content is the same transaction, for writing revisions.
	Content() content.Tx
	// List lists the change requests of the given spaces, newest first.
	List(ctx context.Context, spaceIDs []string, f Filter, page paging.Request) (paging.Result[ChangeRequest], error)
	ReviewTx
}
