package search

import (
	"context"

	"docsd/internal/outbox"
)

// Consumer names the search indexer's cursor in the event outbox.
const Consumer = "search"

// HandleEvents is the indexer's outbox consumer: it brings the index of each space whose
// head moved up to that space's head, whatever the size of the change. Refresh compares the
// indexed revision with the current head, so an event seen twice (after a crash before the
// cursor moved) or late (the head has moved on since) costs a read and changes nothing.
// Small changes are usually indexed already by the time the event comes: a search that finds
// a space's index behind its head catches it up first (see catchUp), so a merge's words are
// searchable as soon as the merge answers.
func (s *Service) HandleEvents(ctx context.Context, events []outbox.Event) error {
	seen := map[string]bool{}
	for _, e := range events {
		if e.Kind != outbox.HeadMoved || seen[e.SpaceID] {
			continue
		}
		seen[e.SpaceID] = true
		if err := s.Refresh(ctx, e.SpaceID, 0); err != nil {
			return err
		}
	}
	if len(seen) == 0 {
		return nil
	}
	return s.MaintainRanking(ctx)
}
