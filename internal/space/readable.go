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
	acc, err := s.accessIn(ctx, tx, c, orgID)
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

// spaceRoleLookups is how many spaces RolesOn looks up one by one (each a cached access
// decision) before it computes the caller's access to the whole organization once instead.
const spaceRoleLookups = 4

// RolesOn is the caller's role on each of ids, spaces of orgID: Guest for those they cannot
// open, that are in the trash, or that are not the organization's.
func (s *Service) RolesOn(ctx context.Context, c auth.Caller, orgID string, ids []string) (map[string]auth.Role, error) {
	out := make(map[string]auth.Role, len(ids))
	if len(ids) <= spaceRoleLookups {
		for _, id := range ids {
			v, err := s.RoleOn(ctx, c, id)
			switch {
			case apperr.Is(err, apperr.NotFound):
				out[id] = auth.Guest
			case err != nil:
				return nil, err
			case v.OrganizationID != orgID:
				out[id] = auth.Guest
			default:
				out[id] = v.Role
			}
		}
		return out, nil
	}
	tx := s.store.Read()
	acc, err := s.accessIn(ctx, tx, c, orgID)
	if err != nil {
		return nil, err
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	for _, id := range ids {
		out[id] = auth.Guest
	}
	for _, sp := range spaces {
		if _, ok := out[sp.ID]; ok {
			out[sp.ID] = acc.SpaceRole(sp)
		}
	}
	return out, nil
}
