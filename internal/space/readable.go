package space

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// Readable lists the live spaces of an organization the caller may read, in tree order, for
// searching them. Like listing the organization's spaces, it answers 404 to a caller who is
// not a member.
func (s *Service) Readable(ctx context.Context, c auth.Caller, orgID string) ([]View, error) {
	tx := s.store.Read()
	acc, err := s.accessIn(ctx, tx, c.UserID, orgID)
	if err != nil {
		return nil, err
	}
	if !acc.Member() {
		return nil, apperr.NotFoundf("organization %s not found", orgID)
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	return visibleSpaces(acc, spaces, func(Space) bool { return true }), nil
}
