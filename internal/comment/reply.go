package comment

import (
	"context"
	"errors"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
)

// ListReplies lists a comment's replies, oldest first, for a reader.
func (s *Service) ListReplies(ctx context.Context, c auth.Caller, sc Scope, commentID string, page paging.Request) (paging.Result[ReplyView], error) {
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return paging.Result[ReplyView]{}, err
	}
	tx := s.store.Read()
	if _, err := s.get(ctx, tx, p, commentID); err != nil {
		return paging.Result[ReplyView]{}, err
	}
	res, err := tx.ListReplies(ctx, commentID, page)
	out := paging.Result[ReplyView]{Count: res.Count, Next: res.Next, Items: make([]ReplyView, 0, len(res.Items))}
	for _, r := range res.Items {
		out.Items = append(out.Items, s.replyView(c, p, r))
	}
	return out, err
}

func (s *Service) replyView(c auth.Caller, p place, r Reply) ReplyView {
	return ReplyView{Reply: r, Container: p.in, Permissions: p.permissions(c, r.PostedBy.ID)}
}

func (s *Service) getReply(ctx context.Context, tx Tx, p place, commentID, id string) (Reply, error) {
	if _, err := s.get(ctx, tx, p, commentID); err != nil {
		return Reply{}, err
	}
	r, err := tx.GetReply(ctx, commentID, id)
	if errors.Is(err, ErrNotFound) {
		return r, apperr.NotFoundf("reply %s not found in comment %s", id, commentID)
	}
	return r, err
}

// GetReply returns one reply for a reader.
func (s *Service) GetReply(ctx context.Context, c auth.Caller, sc Scope, commentID, id string) (ReplyView, error) {
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return ReplyView{}, err
	}
	r, err := s.getReply(ctx, s.store.Read(), p, commentID, id)
	return s.replyView(c, p, r), err
}

// PostReply adds a reply to a comment (the comment role), resolved or not.
func (s *Service) PostReply(ctx context.Context, c auth.Caller, sc Scope, commentID, body string) (ReplyView, error) {
	if err := checkBody("body.markdown", body); err != nil {
		return ReplyView{}, err
	}
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return ReplyView{}, err
	}
	if err := p.requireComment(); err != nil {
		return ReplyView{}, err
	}
	now := s.clock.Now()
	r := Reply{ID: ids.New(), CommentID: commentID, Body: body, PostedBy: User{ID: c.UserID}, PostedAt: now}
	err = s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.get(ctx, tx, p, commentID); err != nil {
			return err
		}
		return s.insertReply(ctx, tx, p, r)
	})
	if err != nil {
		return ReplyView{}, err
	}
	return s.GetReply(ctx, c, sc, commentID, r.ID)
}

// insertReply stores r; a comment deleted meanwhile is a 404.
func (s *Service) insertReply(ctx context.Context, tx Tx, p place, r Reply) error {
	err := tx.InsertReply(ctx, r)
	if errors.Is(err, ErrNotFound) {
		return p.notFound(r.CommentID)
	}
	return err
}

// UpdateReply edits a reply's body (its author) and the caller's reactions to it (the
// comment role). Replies have no status.
func (s *Service) UpdateReply(ctx context.Context, c auth.Caller, sc Scope, commentID, id string, u Update) (ReplyView, error) {
	if u.Resolved != nil {
		return ReplyView{}, apperr.Invalidf("resolved: a reply has no status; resolve or reopen its comment %s instead", commentID)
	}
	if err := checkUpdate(&u); err != nil {
		return ReplyView{}, err
	}
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return ReplyView{}, err
	}
	now := s.clock.Now()
	err = s.store.Write(ctx, now, func(tx Tx) error {
		r, err := s.getReply(ctx, tx, p, commentID, id)
		if err != nil {
			return err
		}
		if err := checkAllowed(p, c, r.PostedBy.ID, u); err != nil {
			return err
		}
		if u.Body != nil {
			if err := tx.SetReplyBody(ctx, r.ID, *u.Body, now); err != nil {
				return err
			}
		}
		err = react(ctx, tx, c, commentID, r.ID, r.ID, u, now)
		if errors.Is(err, ErrNotFound) {
			return apperr.NotFoundf("reply %s not found in comment %s", id, commentID) // deleted meanwhile
		}
		return err
	})
	if err != nil {
		return ReplyView{}, err
	}
	return s.GetReply(ctx, c, sc, commentID, id)
}

// DeleteReply removes a reply (its author or a space admin). A reply that does not exist is
// no error; a comment that does not exist is a 404, since the address names it.
func (s *Service) DeleteReply(ctx context.Context, c auth.Caller, sc Scope, commentID, id string) error {
	p, err := s.resolve(ctx, c, sc)
	if err != nil {
		return err
	}
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.get(ctx, tx, p, commentID); err != nil {
			return err
		}
		r, err := tx.GetReply(ctx, commentID, id)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if !p.permissions(c, r.PostedBy.ID).Delete {
			return apperr.Forbiddenf("only its author (with the comment role) or a space admin may delete reply %s", id)
		}
		return tx.DeleteReply(ctx, commentID, id)
	})
}
