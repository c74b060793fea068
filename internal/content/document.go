package content

import (
	"context"
	"errors"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// DocumentByID returns the document with id documentID of a space the caller can read, and
// the snapshot it is read in: the current content when a page or reusable content of it has
// the document, else the first revision of the space (change requests' included) that had it.
// A document is readable by who can read content that holds it.
func (s *Service) DocumentByID(ctx context.Context, c auth.Caller, spaceID, documentID string) (string, *Snapshot, error) {
	_, head, err := s.Head(ctx, c, spaceID)
	if err != nil {
		return "", nil, err
	}
	for _, h := range head.markdownHashes {
		if h == documentID {
			md, err := s.markdownText(ctx, s.store.Read(), h)
			return md, head, err
		}
	}
	revID, err := s.store.Read().DocumentRevision(ctx, spaceID, documentID)
	if errors.Is(err, ErrNotFound) {
		return "", nil, apperr.NotFoundf("document %s not found in space %s", documentID, spaceID)
	}
	if err != nil {
		return "", nil, err
	}
	_, snap, err := s.AtRevision(ctx, c, spaceID, revID)
	if err != nil {
		return "", nil, err
	}
	md, err := s.markdownText(ctx, s.store.Read(), documentID)
	return md, snap, err
}
