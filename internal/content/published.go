package content

import (
	"context"

	"docsd/internal/space"
)

// PublishedHead returns the current content of a space for the readers of a site that
// publishes it (see space.Service.Published): the site decided they may read it, so no
// caller's role is checked here.
func (s *Service) PublishedHead(ctx context.Context, spaceID string) (space.Space, *Snapshot, error) {
	sp, err := s.spaces.Published(ctx, spaceID)
	if err != nil {
		return sp, nil, err
	}
	snap, err := s.snapshot(ctx, s.store.Read(), sp.Revision)
	return sp, snap, err
}

// PublishedSpace is the space of PublishedHead without its content: for a reader that needs
// only a few pages of a revision it names itself (see RevisionView).
func (s *Service) PublishedSpace(ctx context.Context, spaceID string) (space.Space, error) {
	return s.spaces.Published(ctx, spaceID)
}
