package changereq

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/mergerules"
	"docsd/internal/paging"
	"docsd/internal/richtext"
	"docsd/internal/space"
	"docsd/internal/validate"
)

// Review statuses, as the API names them.
const (
	Approved         = "approved"
	ChangesRequested = "changes-requested"
)

// MaxRequestedReviewers bounds the users one request for reviews names.
const MaxRequestedReviewers = 50

// Review is one reviewer's verdict on a change request at one of its revisions.
type Review struct {
	ID              string
	ChangeRequestID string
	Reviewer        User
	RequestedBy     User // ID is "" when nobody asked for the review
	Revision        string
	Status          string
	Outdated        bool
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// RequestedReviewer is a user asked to review a change request.
type RequestedReviewer struct {
	ChangeRequestID string
	User            User
	RequestedBy     User
	Revision        string // the change request's revision when they were asked
	CreatedAt       time.Time
}

// ErrReviewNotFound is returned by a Tx when a review does not exist.
var ErrReviewNotFound = errors.New("changereq: review not found")

// ReviewTx is the storage of reviews and review requests, part of Tx.
type ReviewTx interface {
	// InsertReview stores a review and marks the reviewer's earlier reviews outdated.
	InsertReview(ctx context.Context, r Review) error
	Review(ctx context.Context, changeRequestID, id string) (Review, error)
	// Reviews lists a change request's reviews, oldest first; outdated narrows the list when set.
	Reviews(ctx context.Context, changeRequestID string, outdated *bool, page paging.Request) (paging.Result[Review], error)
	// CurrentReviews are the reviews not outdated: each reviewer's latest.
	CurrentReviews(ctx context.Context, changeRequestID string) ([]Review, error)
	// RequestReviewer stores (or refreshes) a request and marks the user's earlier reviews
	// outdated.
	RequestReviewer(ctx context.Context, r RequestedReviewer) error
	// RequestedReviewer reports found false when the user was not asked.
	RequestedReviewer(ctx context.Context, changeRequestID, userID string) (RequestedReviewer, bool, error)
	RequestedReviewers(ctx context.Context, changeRequestID string, page paging.Request) (paging.Result[RequestedReviewer], error)
	// RemoveRequestedReviewer reports whether there was a request to remove.
	RemoveRequestedReviewer(ctx context.Context, changeRequestID, userID string) (bool, error)
	// OrganizationMergeRules is the organization's merge-rules configuration.
	OrganizationMergeRules(ctx context.Context, orgID string) (mergerules.Config, error)
}

// canReview checks that the caller may review the space's change requests (404 without read
// access, 403 below the review role).
func (s *Service) canReview(ctx context.Context, c auth.Caller, spaceID string) (space.View, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, err
	}
	if !v.Role.AtLeast(auth.Review) {
		return v, apperr.Forbiddenf("reviewing needs the review role on space %s (you have %s)", spaceID, v.Role)
	}
	return v, nil
}

// SubmitReview records the caller's review of the change request's current revision. The
// author of a change request cannot review it: an approval by its author would meet any rule.
func (s *Service) SubmitReview(ctx context.Context, c auth.Caller, spaceID, ref, status string) (Review, error) {
	if status == "" {
		return Review{}, validate.Required("status")
	}
	if err := validate.OneOf("status", status, Approved, ChangesRequested); err != nil {
		return Review{}, err
	}
	v, err := s.canReview(ctx, c, spaceID)
	if err != nil {
		return Review{}, err
	}
	now := s.clock.Now()
	var out Review
	err = s.store.Write(ctx, now, func(tx Tx) error {
		cr, err := s.unmerged(ctx, tx, v, ref)
		if err != nil {
			return err
		}
		if cr.CreatedBy.ID == c.UserID {
			return apperr.Forbiddenf("you opened change request %d: its author cannot review it", cr.Number)
		}
		r := Review{ID: ids.New(), ChangeRequestID: cr.ID, Reviewer: User{ID: c.UserID}, Revision: cr.Revision,
			Status: status, CreatedAt: now, UpdatedAt: now}
		req, found, err := tx.RequestedReviewer(ctx, cr.ID, c.UserID)
		if err != nil {
			return err
		}
		if found {
			r.RequestedBy = req.RequestedBy
		}
		if err := tx.InsertReview(ctx, r); err != nil {
			return err
		}
		out, err = tx.Review(ctx, cr.ID, r.ID)
		return err
	})
	return out, err
}

// ReviewsOf lists a change request's reviews, for a caller with read access.
func (s *Service) ReviewsOf(ctx context.Context, c auth.Caller, spaceID, ref string, outdated *bool, page paging.Request) (paging.Result[Review], error) {
	cr, err := s.Get(ctx, c, spaceID, ref)
	if err != nil {
		return paging.Result[Review]{}, err
	}
	return s.store.Read().Reviews(ctx, cr.ID, outdated, page)
}

// ReviewOf returns one review, for a caller with read access.
func (s *Service) ReviewOf(ctx context.Context, c auth.Caller, spaceID, ref, id string) (Review, error) {
	cr, err := s.Get(ctx, c, spaceID, ref)
	if err != nil {
		return Review{}, err
	}
	r, err := s.store.Read().Review(ctx, cr.ID, id)
	if errors.Is(err, ErrReviewNotFound) {
		return r, apperr.NotFoundf("review %s not found in change request %d", id, cr.Number)
	}
	return r, err
}

// RequestedReviewersOf lists the users asked to review a change request.
func (s *Service) RequestedReviewersOf(ctx context.Context, c auth.Caller, spaceID, ref string, page paging.Request) (paging.Result[RequestedReviewer], error) {
	cr, err := s.Get(ctx, c, spaceID, ref)
	if err != nil {
		return paging.Result[RequestedReviewer]{}, err
	}
	return s.store.Read().RequestedReviewers(ctx, cr.ID, page)
}

// ReviewRequest asks users to review a change request, optionally changing its subject and
// description at the same time.
type ReviewRequest struct {
	Users       []string
	Subject     *string
	Description json.RawMessage // nil when absent
}

// RequestReviewers asks each user to review the change request (the caller needs the edit
// role). Every user must be able to review the space, and cannot be its author.
func (s *Service) RequestReviewers(ctx context.Context, c auth.Caller, spaceID, ref string, in ReviewRequest) ([]RequestedReviewer, error) {
	if in.Users == nil {
		return nil, validate.Required("users")
	}
	if len(in.Users) > MaxRequestedReviewers {
		return nil, apperr.Invalidf("users: must list at most %d users (got %d)", MaxRequestedReviewers, len(in.Users))
	}
	if in.Subject != nil {
		if err := validate.Length("subject", *in.Subject, 0, SubjectMax); err != nil {
			return nil, err
		}
	}
	var desc json.RawMessage
	if in.Description != nil && string(in.Description) != "null" {
		doc, err := richtext.Validate("description", in.Description)
		if err != nil {
			return nil, err
		}
		desc = doc.JSON()
	}
	v, err := s.canEdit(ctx, c, spaceID)
	if err != nil {
		return nil, err
	}
	users := make([]string, 0, len(in.Users))
	seen := map[string]bool{}
	for i, id := range in.Users {
		if id == "" || len(id) > 100 {
			return nil, apperr.Invalidf("users[%d]: must be a user id of 1 to 100 characters", i)
		}
		if seen[id] {
			continue
		}
		seen[id] = true
		// The user's own role on the space: whoever cannot review it cannot be asked to.
		uv, err := s.spaces.RoleOn(ctx, auth.Caller{UserID: id}, spaceID)
		if err != nil && !apperr.Is(err, apperr.NotFound) {
			return nil, err
		}
		if err != nil || !uv.Role.AtLeast(auth.Review) {
			return nil, apperr.Invalidf("users[%d]: user %s cannot review space %s (reviewers need the review role)", i, id, spaceID)
		}
		users = append(users, id)
	}
	now := s.clock.Now()
	out := make([]RequestedReviewer, 0, len(users))
	err = s.store.Write(ctx, now, func(tx Tx) error {
		cr, err := s.unmerged(ctx, tx, v, ref)
		if err != nil {
			return err
		}
		for i, id := range users {
			if id == cr.CreatedBy.ID {
				return apperr.Invalidf("users[%d]: user %s opened change request %d and cannot review it", i, id, cr.Number)
			}
			if err := tx.RequestReviewer(ctx, RequestedReviewer{ChangeRequestID: cr.ID, User: User{ID: id},
				RequestedBy: User{ID: c.UserID}, Revision: cr.Revision, CreatedAt: now}); err != nil {
				return err
			}
		}
		if in.Subject != nil || in.Description != nil {
			next := cr
			if in.Subject != nil {
				next.Subject = *in.Subject
			}
			if in.Description != nil {
				next.Description = desc
			}
			next.UpdatedAt = now
			if err := update(ctx, tx, next, cr.Revision); err != nil {
				return err
			}
		}
		for _, id := range users {
			r, _, err := tx.RequestedReviewer(ctx, cr.ID, id)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	})
	return out, err
}

// RemoveRequestedReviewer withdraws a request for review; removed is false when the user was
// not asked.
func (s *Service) RemoveRequestedReviewer(ctx context.Context, c auth.Caller, spaceID, ref, userID string) (removed bool, err error) {
	v, err := s.canEdit(ctx, c, spaceID)
	if err != nil {
		return false, err
	}
	err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		cur, err := s.get(ctx, tx, v, ref)
		if err != nil {
			return err
		}
		removed, err = tx.RemoveRequestedReviewer(ctx, cur.ID, userID)
		return err
	})
	return removed, err
}
