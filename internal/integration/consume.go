package integration

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"docsd/internal/outbox"
)

// Consumer is the outbox consumer that turns changes into integration events.
const Consumer = "integrations"

// HandleEvents turns the outbox's changes into events for every installation they concern:
// space_content_updated for each new head of a space, space_visibility_updated for each change
// of its visibility. An installation is concerned when it is installed on the space, or selects
// every space of the space's organization. Event ids derive from the change and the
// installation, so a batch handled twice writes each event once.
func (s *Service) HandleEvents(ctx context.Context, events []outbox.Event) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		for _, e := range events {
			var payload map[string]any
			switch e.Kind {
			case outbox.HeadMoved:
				var m outbox.HeadMove
				if err := json.Unmarshal(e.Data, &m); err != nil {
					return err
				}
				// updatedBy (newer specs) is left empty: the head move does not say who made it.
				payload = map[string]any{"type": "space_content_updated", "spaceId": e.SpaceID, "revisionId": m.To, "updatedBy": []any{}}
			case outbox.SpaceUpdated:
				var v outbox.VisibilityChange
				if len(e.Data) == 0 || json.Unmarshal(e.Data, &v) != nil || v.Visibility == "" {
					continue
				}
				payload = map[string]any{"type": "space_visibility_updated", "spaceId": e.SpaceID,
					"previousVisibility": v.PreviousVisibility, "visibility": v.Visibility}
			default:
				continue
			}
			if err := s.spaceEvent(ctx, tx, e, payload); err != nil {
				return err
			}
		}
		return nil
	})
}

func (s *Service) spaceEvent(ctx context.Context, tx Tx, e outbox.Event, payload map[string]any) error {
	orgID, err := tx.SpaceOrg(ctx, e.SpaceID)
	if errors.Is(err, ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	ins, err := tx.Installations(ctx, "", orgID)
	if err != nil {
		return err
	}
	for _, in := range ins {
		if in.SpaceSelection != "all" {
			if _, err := tx.ContentInstallation(ctx, in.ID, SpaceKind, e.SpaceID); errors.Is(err, ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
		}
		it, err := tx.Integration(ctx, in.Integration)
		if err != nil {
			return err
		}
		p := map[string]any{}
		for k, v := range payload {
			p[k] = v
		}
		id := contentID([]byte(fmt.Sprintf("outbox/%d/%s", e.Seq, in.ID)))
		if err := s.recordWithID(ctx, tx, id, it, in, p, tx.Now()); err != nil {
			return err
		}
	}
	return nil
}
