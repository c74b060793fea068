package content

import (
	"context"
	"errors"

	"golang.org/x/sync/singleflight"

	"docsd/internal/apperr"
)

// Values derived from a revision (its link index, for one) never go stale, since a revision
// never changes: they are computed once per process and kept in a bounded cache beside the
// snapshots. Requests that miss at the same time wait for one computation.

const maxDerived = 64

// derivedValues holds the cache and the computations in flight.
type derivedValues struct {
	cache  *cache[any]
	flight singleflight.Group
}

// Derive returns the value kind derived from revisionID, computing it with build on a miss.
// Callers use one kind per type of value.
func Derive[T any](s *Service, revisionID, kind string, build func() (T, error)) (T, error) {
	key := kind + "\x00" + revisionID
	if v, ok := s.derived.cache.get(key); ok {
		if t, ok := v.(T); ok {
			return t, nil
		}
	}
	v, err, _ := s.derived.flight.Do(key, func() (any, error) {
		t, err := build()
		if err == nil {
			s.derived.cache.put(key, t)
		}
		return t, err
	})
	t, _ := v.(T)
	return t, err
}

// Snapshot returns a revision's content for a caller whose access was checked through a
// revision it reached this one from (a change request's merge base, which may have been made
// in the space a duplicate came from).
func (s *Service) Snapshot(ctx context.Context, revisionID string) (*Snapshot, error) {
	snap, err := s.snapshot(ctx, s.store.Read(), revisionID)
	if errors.Is(err, ErrNotFound) {
		return nil, apperr.NotFoundf("revision %s not found", revisionID)
	}
	return snap, err
}
