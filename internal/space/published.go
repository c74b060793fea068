package space

import "context"

// Published returns a live space for the readers of a docs site that publishes it: they hold
// no role of their own, the site is what lets them read. A space that is absent or in the
// trash is a 404, so a deleted space disappears from its sites at once.
func (s *Service) Published(ctx context.Context, id string) (Space, error) {
	sp, err := s.store.Read().Space(ctx, id)
	if err != nil {
		return Space{}, notFound(err, "space %s not found", id)
	}
	if sp.DeletedAt != nil {
		return Space{}, notFound(ErrNotFound, "space %s not found", id)
	}
	return sp, nil
}
