package space

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// Delete moves a space to the trash, from which its admins can restore it for TrashRetention;
// a durable job removes it for good afterwards. Deleting a space that does not exist, is in
// the trash already, or that the caller cannot see succeeds without doing anything, so the
// answer reveals nothing; space members below admin get 403.
func (s *Service) Delete(ctx context.Context, c auth.Caller, id string) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		v, err := s.spaceView(ctx, tx, c, id, auth.Admin, false)
		if apperr.Is(err, apperr.NotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		sp := v.Space
		sp.DeletedAt, sp.UpdatedAt = &now, now
		if err := tx.UpdateSpace(ctx, v.Space, sp); err != nil {
			return err
		}
		return tx.SchedulePurge(ctx, sp.ID, now, now.Add(TrashRetention))
	})
}

// Restore takes a space out of the trash, back to its place, if it was deleted less than
// TrashRetention ago; later it is as good as gone (404). Only the space's admins may.
func (s *Service) Restore(ctx context.Context, c auth.Caller, id string) (View, error) {
	now := s.clock.Now()
	var v View
	err := s.store.Write(ctx, now, func(tx Tx) error {
		cur, err := s.spaceView(ctx, tx, c, id, auth.Admin, true)
		if err != nil {
			return err
		}
		if !now.Before(cur.DeletedAt.Add(TrashRetention)) {
			return apperr.NotFoundf("space %s not found: it was deleted more than 7 days ago", id)
		}
		t, err := loadTree(ctx, tx, cur.OrganizationID)
		if err != nil {
			return err
		}
		sp := cur.Space
		// The position may have been given to another node meanwhile: then go right after it.
		for _, n := range t.level(sp.Parent) {
			if n.position == sp.Position {
				sp.Position = t.after(sp.Parent, n.Pointer)
				break
			}
		}
		sp.DeletedAt, sp.UpdatedAt = nil, now
		if err := tx.UpdateSpace(ctx, cur.Space, sp); err != nil {
			return err
		}
		v, err = s.viewOf(ctx, tx, c, sp)
		return err
	})
	return v, err
}

// PurgeRequest is the payload of a PurgeJob.
type PurgeRequest struct {
	Space string `json:"space"`
}

// HandlePurge runs a PurgeJob.
func (s *Service) HandlePurge(ctx context.Context, payload json.RawMessage) error {
	var p PurgeRequest
	if err := json.Unmarshal(payload, &p); err != nil || p.Space == "" {
		return fmt.Errorf("space purge: malformed payload %s", payload)
	}
	return s.Purge(ctx, p.Space)
}

// Purge removes a space for good if it is still in the trash and was deleted at least
// TrashRetention ago; otherwise (restored, deleted again later, or gone) it does nothing.
// It is the handler of PurgeJob.
func (s *Service) Purge(ctx context.Context, spaceID string) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		_, err := tx.PurgeSpace(ctx, spaceID, now.Add(-TrashRetention))
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		return err
	})
}
