package changereq

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/ids"
	"docsd/internal/keylock"
	"docsd/internal/opt"
	"docsd/internal/paging"
	"docsd/internal/richtext"
	"docsd/internal/space"
	"docsd/internal/validate"
)

// Service runs change requests, checking the caller's role through the space service.
type Service struct {
	store   Store
	spaces  *space.Service
	content *content.Service
	clock   clock.Clock
	merging keylock.Set // spaces a merge is running in, so merges of one space take turns
}

// NewService returns the change request service.
func NewService(st Store, spaces *space.Service, cs *content.Service, c clock.Clock) *Service {
	return &Service{store: st, spaces: spaces, content: cs, clock: c}
}

// update stores cr if no other write moved its revision since it was read (409 otherwise).
func update(ctx context.Context, tx Tx, cr ChangeRequest, prevRevision string) error {
	ok, err := tx.Update(ctx, cr, prevRevision)
	if err == nil && !ok {
		return apperr.Conflictf("change request %d changed while this change was made; retry", cr.Number)
	}
	return err
}

// View is a change request with what the caller needs to render it.
type View struct {
	ChangeRequest
	Head string // the space's head, for `outdated`
}

// Create is the body of a new change request.
type Create struct {
	Subject     string
	Description json.RawMessage
}

// Patch is the body of an update; absent fields are left alone.
type Patch struct {
	Subject     opt.Field[string]
	Description opt.Field[json.RawMessage]
	Status      opt.Field[string]
}

// insertAttempts bounds retries when concurrent creators race for the same number.
const insertAttempts = 8

// canEdit checks that the caller may propose changes to the space (404 without read access,
// 403 below edit).
func (s *Service) canEdit(ctx context.Context, c auth.Caller, spaceID string) (space.View, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, err
	}
	if !v.Role.AtLeast(auth.Edit) {
		return v, apperr.Forbiddenf("this needs the edit role on space %s (you have %s)", spaceID, v.Role)
	}
	return v, nil
}

// Create opens a change request on the space's current head.
func (s *Service) Create(ctx context.Context, c auth.Caller, spaceID string, in Create) (View, error) {
	if err := validate.Length("subject", in.Subject, 0, SubjectMax); err != nil {
		return View{}, err
	}
	var desc json.RawMessage
	if in.Description != nil && string(in.Description) != "null" {
		doc, err := richtext.Validate("description", in.Description)
		if err != nil {
			return View{}, err
		}
		desc = doc.JSON()
	}
	v, err := s.canEdit(ctx, c, spaceID)
	if err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	cr := ChangeRequest{ID: ids.New(), SpaceID: spaceID, OrganizationID: v.OrganizationID, Status: Open,
		Subject: in.Subject, Description: desc, CreatedBy: User{ID: c.UserID}, Revision: v.Revision,
		RevisionInitial: v.Revision, CreatedAt: now, UpdatedAt: now}
	for attempt := 0; ; attempt++ {
		err = s.store.Write(ctx, now, func(tx Tx) error {
			var err error
			if cr.Number, err = tx.Insert(ctx, cr); err != nil {
				return err
			}
			return tx.AddContributor(ctx, cr.ID, c.UserID, false, now)
		})
		if !errors.Is(err, ErrNumberTaken) || attempt == insertAttempts {
			break
		}
	}
	if errors.Is(err, ErrNumberTaken) {
		return View{}, apperr.Conflictf("space %s: too many change requests created at once; retry", spaceID)
	}
	if err != nil {
		return View{}, err
	}
	return s.get(ctx, s.store.Read(), v, cr.ID)
}

// Get returns a change request by id or by number, for a caller with read access.
func (s *Service) Get(ctx context.Context, c auth.Caller, spaceID, ref string) (View, error) {
	_, cr, err := s.GetWithSpace(ctx, c, spaceID, ref)
	return cr, err
}

// GetWithSpace is Get with the space as the caller sees it, from the same access decision,
// for reads that answer with both (a change request's content).
func (s *Service) GetWithSpace(ctx context.Context, c auth.Caller, spaceID, ref string) (space.View, View, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return v, View{}, err
	}
	cr, err := s.get(ctx, s.store.Read(), v, ref)
	return v, cr, err
}

// MergedAs returns the change request whose merge made a merge revision, which the caller
// has read already (its `mergedFrom`); ok is false when there is none. spaceID is the space
// the revision was made in, head the current head of the space it is read in.
func (s *Service) MergedAs(ctx context.Context, spaceID, revisionID, head string) (v View, ok bool, err error) {
	cr, err := s.store.Read().MergedAs(ctx, spaceID, revisionID)
	if errors.Is(err, ErrNotFound) {
		return View{}, false, nil
	}
	return View{ChangeRequest: cr, Head: head}, err == nil, err
}

func (s *Service) get(ctx context.Context, tx Tx, v space.View, ref string) (View, error) {
	cr, err := tx.Get(ctx, v.ID, ref)
	if errors.Is(err, ErrNotFound) {
		return View{}, apperr.NotFoundf("change request %s not found in space %s", ref, v.ID)
	}
	return View{ChangeRequest: cr, Head: v.Revision}, err
}

// Update changes the subject, description or status. Merged is reached only by merging, and
// a merged change request keeps that status.
func (s *Service) Update(ctx context.Context, c auth.Caller, spaceID, ref string, p Patch) (View, error) {
	if p.Subject.Set {
		if p.Subject.Null {
			return View{}, apperr.Invalidf("subject: must be a string of at most %d characters, not null", SubjectMax)
		}
		if err := validate.Length("subject", p.Subject.Value, 0, SubjectMax); err != nil {
			return View{}, err
		}
	}
	var desc json.RawMessage
	if p.Description.Set && !p.Description.Null {
		doc, err := richtext.Validate("description", p.Description.Value)
		if err != nil {
			return View{}, err
		}
		desc = doc.JSON()
	}
	if p.Status.Set {
		if p.Status.Null {
			return View{}, apperr.Invalidf("status: must be one of draft, open, archived, not null")
		}
		if err := validate.OneOf("status", p.Status.Value, Draft, Open, Archived); err != nil {
			return View{}, err
		}
	}
	v, err := s.canEdit(ctx, c, spaceID)
	if err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	var out View
	err = s.store.Write(ctx, now, func(tx Tx) error {
		cur, err := s.get(ctx, tx, v, ref)
		if err != nil {
			return err
		}
		cr := cur.ChangeRequest
		if p.Status.Set && cr.Status == Merged {
			return apperr.Conflictf("change request %d is merged: its status can no longer change", cr.Number)
		}
		if p.Subject.Set {
			cr.Subject = p.Subject.Value
		}
		if p.Description.Set {
			cr.Description = desc
		}
		if p.Status.Set {
			cr.Status = p.Status.Value
		}
		cr.UpdatedAt = now
		if err := update(ctx, tx, cr, cur.Revision); err != nil {
			return err
		}
		out = View{ChangeRequest: cr, Head: v.Revision}
		return nil
	})
	return out, err
}

// List lists the change requests of one space, for a caller with read access.
func (s *Service) List(ctx context.Context, c auth.Caller, spaceID string, f Filter, page paging.Request) (paging.Result[View], error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return paging.Result[View]{}, err
	}
	res, err := s.store.Read().List(ctx, []string{spaceID}, f, page)
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, cr := range res.Items {
		out.Items = append(out.Items, View{ChangeRequest: cr, Head: v.Revision})
	}
	return out, err
}

// IsNumber says whether a reference names a change request by its number.
func IsNumber(ref string) bool {
	n, err := strconv.ParseInt(ref, 10, 64)
	return err == nil && n > 0 && strconv.FormatInt(n, 10) == ref
}

// ListInOrganization lists the change requests of every space of the organization the
// caller can read (404 for non-members).
func (s *Service) ListInOrganization(ctx context.Context, c auth.Caller, orgID string, f Filter, page paging.Request) (paging.Result[View], error) {
	heads := map[string]string{}
	var spaceIDs []string
	for next := (paging.Request{Limit: paging.MaxLimit}); ; {
		res, err := s.spaces.ListInOrganization(ctx, c, orgID, next)
		if err != nil {
			return paging.Result[View]{}, err
		}
		for _, v := range res.Items {
			heads[v.ID] = v.Revision
			spaceIDs = append(spaceIDs, v.ID)
		}
		if res.Next == nil {
			break
		}
		next.After = res.Next
	}
	if len(spaceIDs) == 0 {
		return paging.Result[View]{Items: []View{}}, nil
	}
	res, err := s.store.Read().List(ctx, spaceIDs, f, page)
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, cr := range res.Items {
		out.Items = append(out.Items, View{ChangeRequest: cr, Head: heads[cr.SpaceID]})
	}
	return out, err
}

// Contributors lists the users who changed the change request's content (each revision they
// made counts once), latest first, for a caller who can see it (404 otherwise).
func (s *Service) Contributors(ctx context.Context, c auth.Caller, spaceID, ref string, page paging.Request) (paging.Result[Contributor], error) {
	v, err := s.Get(ctx, c, spaceID, ref)
	if err != nil {
		return paging.Result[Contributor]{}, err
	}
	return s.store.Read().Contributors(ctx, v.ID, page)
}
