package comment

import (
	"context"
	"errors"
	"slices"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/clock"
	"docsd/internal/content"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/space"
)

// Service runs comments, checking the caller's role through the space service: readers read,
// the comment role posts, replies, reacts, resolves and reopens; authors edit and delete
// their own; space admins delete any.
type Service struct {
	store          Store
	spaces         *space.Service
	changeRequests *changereq.Service
	content        *content.Service
	clock          clock.Clock
}

// NewService returns the comment service.
func NewService(st Store, spaces *space.Service, crs *changereq.Service, cs *content.Service, c clock.Clock) *Service {
	return &Service{store: st, spaces: spaces, changeRequests: crs, content: cs, clock: c}
}

// Scope names comments as a request does: a space, and a change request of it by id or
// number ("" for the space's own comments).
type Scope struct {
	SpaceID       string
	ChangeRequest string
}

// Permissions are what one caller may do with a comment or reply.
type Permissions struct{ View, Edit, Reply, Delete bool }

// View is a comment with the caller's permissions on it.
type View struct {
	Comment
	Permissions Permissions
}

// ReplyView is a reply with the caller's permissions on it and what its URL needs.
type ReplyView struct {
	Reply
	Container   Container
	Permissions Permissions
}

// TableCell names a cell of a table block: a record (row) and a definition (column).
type TableCell struct{ Record, Definition string }

// Post is the body of a new comment; Page, Node and TableCell are optional.
type Post struct {
	Page, Node string
	TableCell  *TableCell
	Body       string // markdown
}

// Update is the body of a comment or reply update; nil and empty fields are left alone.
type Update struct {
	Resolved         *bool
	Body             *string
	AddedReactions   []string
	RemovedReactions []string
}

// place is a resolved scope: the space as the caller sees it, the container, and the
// revision new comments target.
type place struct {
	space    space.View
	in       Container
	revision string
}

func (p place) commenter() bool { return p.space.Role.AtLeast(auth.Comment) }

func (p place) requireComment() error {
	if !p.commenter() {
		return apperr.Forbiddenf("this needs the comment role on space %s (you have %s)", p.space.ID, p.space.Role)
	}
	return nil
}

// permissions of caller on a comment or reply by author.
func (p place) permissions(c auth.Caller, author string) Permissions {
	own := author != "" && author == c.UserID
	return Permissions{View: true, Edit: own && p.commenter(), Reply: p.commenter(),
		Delete: own && p.commenter() || p.space.Role == auth.Admin}
}

// resolve checks read access (404 otherwise) and finds the change request, if any.
func (s *Service) resolve(ctx context.Context, c auth.Caller, sc Scope) (place, error) {
	v, err := s.spaces.RoleOn(ctx, c, sc.SpaceID)
	if err != nil {
		return place{}, err
	}
	p := place{space: v, in: Container{SpaceID: v.ID}, revision: v.Revision}
	if sc.ChangeRequest != "" {
		cr, err := s.changeRequests.Get(ctx, c, sc.SpaceID, sc.ChangeRequest)
		if err != nil {
			return place{}, err
		}
		p.in.ChangeRequestID, p.revision = cr.ID, cr.Revision
	}
	return p, nil
}

func (p place) notFound(id string) error {
	if p.in.ChangeRequestID != "" {
		return apperr.NotFoundf("comment %s not found in change request %s", id, p.in.ChangeRequestID)
	}
	return apperr.NotFoundf("comment %s not found in space %s", id, p.in.SpaceID)
}

func (s *Service) get(ctx context.Context, tx Tx, p place, id string) (Comment, error) {
	cm, err := tx.Get(ctx, p.in, id)
	if errors.Is(err, ErrNotFound) {
		return cm, p.notFound(id)
	}
	return cm, err
}

func (s *Service) view(c auth.Caller, p place, cm Comment) View {
	return View{Comment: cm, Permissions: p.permissions(c, cm.PostedBy.ID)}
}

// List lists a container's comments for a reader.
func (s *Service) List(ctx context.Context, c auth.Caller, sc Scope, f Filter, page paging.Request) (paging.Result[View], error) {
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return paging.Result[View]{}, err
	}
	res, err := s.store.Read().List(ctx, p.in, f, page)
	out := paging.Result[View]{Count: res.Count, Next: res.Next, Items: make([]View, 0, len(res.Items))}
	for _, cm := range res.Items {
		out.Items = append(out.Items, s.view(c, p, cm))
	}
	return out, err
}

// Get returns one comment for a reader.
func (s *Service) Get(ctx context.Context, c auth.Caller, sc Scope, id string) (View, error) {
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return View{}, err
	}
	cm, err := s.get(ctx, s.store.Read(), p, id)
	return s.view(c, p, cm), err
}

// Post adds a comment on the container, on one of its pages, on a block of a page, or on a
// cell of a table block, in the revision the container shows now.
func (s *Service) Post(ctx context.Context, c auth.Caller, sc Scope, in Post) (View, error) {
	if err := checkBody("body.markdown", in.Body); err != nil {
		return View{}, err
	}
	if err := checkTargetShape(in); err != nil {
		return View{}, err
	}
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return View{}, err
	}
	if err := p.requireComment(); err != nil {
		return View{}, err
	}
	target, err := s.target(ctx, p.revision, in)
	if err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	cm := Comment{ID: ids.New(), SpaceID: p.in.SpaceID, ChangeRequestID: p.in.ChangeRequestID, Target: target,
		Body: in.Body, PostedBy: User{ID: c.UserID}, PostedAt: now, Status: Open}
	err = s.store.Write(ctx, now, func(tx Tx) error { return tx.Insert(ctx, cm) })
	if errors.Is(err, ErrNotFound) {
		return View{}, apperr.NotFoundf("space %s or its change request %s is gone", sc.SpaceID, sc.ChangeRequest)
	}
	if err != nil {
		return View{}, err
	}
	return s.Get(ctx, c, sc, cm.ID)
}

// Update edits a comment's body (its author), resolves or reopens it, and adds or removes
// the caller's reactions (the comment role).
func (s *Service) Update(ctx context.Context, c auth.Caller, sc Scope, id string, u Update) (View, error) {
	if err := checkUpdate(&u); err != nil {
		return View{}, err
	}
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return View{}, err
	}
	now := s.clock.Now()
	err = s.store.Write(ctx, now, func(tx Tx) error {
		cm, err := s.get(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if err := checkAllowed(p, c, cm.PostedBy.ID, u); err != nil {
			return err
		}
		if u.Body != nil {
			if err := tx.SetBody(ctx, cm.ID, *u.Body, now); err != nil {
				return err
			}
		}
		if u.Resolved != nil {
			status := Open
			if *u.Resolved {
				status = Resolved
			}
			if err := tx.SetStatus(ctx, cm, status, c.UserID, now); err != nil {
				return err
			}
		}
		err = react(ctx, tx, c, cm.ID, "", cm.ID, u, now)
		if errors.Is(err, ErrNotFound) {
			return p.notFound(id) // deleted meanwhile
		}
		return err
	})
	if err != nil {
		return View{}, err
	}
	return s.Get(ctx, c, sc, id)
}

// Delete removes a comment with its replies (its author or a space admin). A comment that
// does not exist is no error.
func (s *Service) Delete(ctx context.Context, c auth.Caller, sc Scope, id string) error {
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return err
	}
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		cm, err := tx.Get(ctx, p.in, id)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !p.permissions(c, cm.PostedBy.ID).Delete {
			return apperr.Forbiddenf("only its author (with the comment role) or a space admin may delete comment %s", id)
		}
		return tx.Delete(ctx, p.in, id)
	})
}

// checkUpdate validates an update's body and reactions, putting the reactions' emoji in the
// form they are stored in.
func checkUpdate(u *Update) error {
	if u.Body != nil {
		if err := checkBody("body.markdown", *u.Body); err != nil {
			return err
		}
	}
	u.AddedReactions, u.RemovedReactions = slices.Clone(u.AddedReactions), slices.Clone(u.RemovedReactions)
	return normalizeReactions(u.AddedReactions, u.RemovedReactions)
}

// checkAllowed checks each part of an update against the caller's rights: the body is the
// author's, status and reactions need the comment role.
func checkAllowed(p place, c auth.Caller, author string, u Update) error {
	perm := p.permissions(c, author)
	if u.Body != nil && !perm.Edit {
		return apperr.Forbiddenf("body: only its author (with the comment role) may edit it")
	}
	if (u.Resolved != nil || len(u.AddedReactions) > 0 || len(u.RemovedReactions) > 0) && !perm.Reply {
		return p.requireComment()
	}
	return nil
}

// react applies an update's reactions by the caller to a comment or reply (subject).
func react(ctx context.Context, tx Tx, c auth.Caller, commentID, replyID, subject string, u Update, now time.Time) error {
	for _, e := range u.RemovedReactions {
		if err := tx.Unreact(ctx, subject, c.UserID, e); err != nil {
			return err
		}
	}
	for _, e := range u.AddedReactions {
		if err := tx.React(ctx, commentID, replyID, c.UserID, e, now); err != nil {
			return err
		}
	}
	return nil
}
