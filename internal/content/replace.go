package content

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/contenttree"
	"docsd/internal/space"
)

// Replace makes tree the space's content: a new revision on top of the current head, which
// then becomes the head. It needs the edit role (403 below it, 404 without read access) and
// a space that is not locked (423). Pages and files equal to the head's keep their records,
// so only what differs is written. Files' bytes must already be in the blob store. When the
// head moves meanwhile, nothing is written and the answer is a 409.
func (s *Service) Replace(ctx context.Context, c auth.Caller, spaceID string, tree *contenttree.Tree) (Revision, Stats, error) {
	v, err := s.spaces.RoleOn(ctx, c, spaceID)
	if err != nil {
		return Revision{}, Stats{}, err
	}
	if !v.Role.AtLeast(auth.Edit) {
		return Revision{}, Stats{}, apperr.Forbiddenf("this needs the edit role on space %s (you have %s)", spaceID, v.Role)
	}
	if err := space.RequireEditable(v.Space); err != nil {
		return Revision{}, Stats{}, err
	}
	now := s.clock.Now()
	var rev Revision
	var st Stats
	err = s.store.Write(ctx, now, func(tx Tx) error {
		base, err := s.snapshot(ctx, tx, v.Revision)
		if err != nil {
			return err
		}
		rev, st, err = s.Commit(ctx, tx, v.Revision, ChangesTo(base, tree), Meta{SpaceID: spaceID, AuthorID: c.UserID}, now)
		if err != nil {
			return err
		}
		return MoveHead(ctx, tx, spaceID, v.Revision, rev.ID)
	})
	return rev, st, err
}
