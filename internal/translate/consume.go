package translate

import (
	"context"

	"docsd/internal/outbox"
)

// HandleEvents is the translations' outbox consumer: when a space's head moves (a merge, an
// import, an edit), each translation of it that runs automatically and has run before is
// queued to run again. Queueing is idempotent while a run is pending, so an event seen twice
// queues one run.
func (s *Service) HandleEvents(ctx context.Context, events []outbox.Event) error {
	seen := map[string]bool{}
	for _, e := range events {
		if e.Kind != outbox.HeadMoved || seen[e.SpaceID] {
			continue
		}
		seen[e.SpaceID] = true
		ts, err := s.store.BySource(ctx, e.SpaceID)
		if err != nil {
			return err
		}
		for _, t := range ts {
			if !t.AutoRun || t.ResultSpace == "" {
				continue
			}
			if _, err := s.providers.For(t.SourceLanguage, t.Language); err != nil {
				continue // the pair lost its provider: a manual run says so
			}
			if _, err := s.store.QueueRun(ctx, t.ID, s.clock.Now(), JobKind); err != nil {
				return err
			}
		}
	}
	return nil
}
