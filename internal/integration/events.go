package integration

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
)

// Event statuses. The public spec knows success and failed, the outcomes of a delivery;
// pending is an event whose delivery is not over (queued, between retries, replayed). The
// public event operations show only events with an outcome (EventFilter), so none claims an
// outcome it has not had; docsd's delivery extension shows every event with its status.
const (
	Pending = "pending"
	Success = "success"
	Failed  = "failed"
)

// TaskEvent is the type of the events queueIntegrationTask records. The reference public spec
// (0.146.0) has no task event in its Event schema, so the public event operations leave them
// out; they are delivered like the others, and docsd's delivery extension shows them.
const TaskEvent = "task"

// EventFilter leaves events out of a list.
type EventFilter struct {
	ExcludeStatuses []string
	ExcludeTypes    []string
	// ExcludeUninstalled leaves out the events of these types that have no installation.
	ExcludeUninstalled []string
}

// installedOnly are the types of events the public spec describes only with an installation:
// a ui_render sent to a development tunnel for a render of no installation (a developer's
// preview) is recorded, and shown by docsd's delivery extension alone.
var installedOnly = []string{"ui_render"}

// publicEvents is what the public event operations show: events with an outcome, of the
// types the public spec describes.
var publicEvents = EventFilter{ExcludeStatuses: []string{Pending}, ExcludeTypes: []string{TaskEvent}, ExcludeUninstalled: installedOnly}

// Public says whether the public event operations show ev.
func (ev Event) Public() bool {
	return ev.Status != Pending && ev.Type != TaskEvent && (ev.InstallationID != "" || !slices.Contains(installedOnly, ev.Type))
}

// DeliveryJob is the kind of the job that delivers one event.
const DeliveryJob = "integration.deliver"

// record writes an event for an installation in the caller's transaction, with the job that
// delivers it.
func (s *Service) record(ctx context.Context, tx Tx, it Integration, in Installation, payload map[string]any) error {
	return s.recordAt(ctx, tx, it, in, payload, tx.Now())
}

func (s *Service) recordAt(ctx context.Context, tx Tx, it Integration, in Installation, payload map[string]any, runAt time.Time) error {
	return s.recordWithID(ctx, tx, ids.New(), it, in, payload, runAt)
}

// recordWithID writes an event under id, once: an id already written is left as it is.
func (s *Service) recordWithID(ctx context.Context, tx Tx, id string, it Integration, in Installation, payload map[string]any, runAt time.Time) error {
	now := tx.Now()
	ev := Event{ID: id, Integration: it.Name, InstallationID: in.ID, OrgID: in.OrgID, Status: Pending, CreatedAt: now}
	payload["eventId"] = ev.ID
	if in.ID != "" {
		payload["installationId"] = in.ID
	}
	ev.Type, _ = payload["type"].(string)
	raw, err := json.Marshal(payload)
	if err != nil {
		return err
	}
	ev.Payload = raw
	ev.Trace = []LogEntry{{Message: "queued " + ev.Type, Timestamp: now, Level: "debug"}}
	if inserted, err := tx.InsertEvent(ctx, ev); err != nil || !inserted {
		return err
	}
	return tx.EnqueueDelivery(ctx, it.Name, ev.ID, runAt)
}

// Events lists an integration's events with an outcome, of the types the public spec
// describes, newest first, to its owner's admins.
func (s *Service) Events(ctx context.Context, c auth.Caller, name string, page paging.Request) (paging.Result[Event], error) {
	tx := s.store.Read()
	if _, err := s.owned(ctx, tx, c, name); err != nil {
		return paging.Result[Event]{}, err
	}
	return tx.Events(ctx, name, page, publicEvents)
}

// Event returns one of an integration's events with its trace, to its owner's admins, as the
// public operation shows it: an event still being delivered, or a task event, is 404 there
// (DeliveryState shows them).
func (s *Service) Event(ctx context.Context, c auth.Caller, name, id string) (Event, error) {
	ev, err := s.DeliveryState(ctx, c, name, id)
	switch {
	case err != nil:
		return ev, err
	case ev.Type == TaskEvent:
		return Event{}, apperr.NotFoundf("event %s of integration %s is a task event, which this API's events do not show; GET its /delivery", id, name)
	case !ev.Public() && ev.Status != Pending:
		return Event{}, apperr.NotFoundf("event %s of integration %s is a %s of no installation, which this API's events do not show; GET its /delivery", id, name, ev.Type)
	case ev.Status == Pending:
		return Event{}, apperr.NotFoundf("event %s of integration %s has no outcome yet: its delivery is under way; GET its /delivery to follow it", id, name)
	}
	return ev, nil
}

// DeliveryState returns any of an integration's events with its status (pending, success or
// failed) and trace, to its owner's admins (docsd's extension).
func (s *Service) DeliveryState(ctx context.Context, c auth.Caller, name, id string) (Event, error) {
	tx := s.store.Read()
	if _, err := s.owned(ctx, tx, c, name); err != nil {
		return Event{}, err
	}
	ev, err := tx.Event(ctx, name, id)
	if errors.Is(err, ErrNotFound) {
		return ev, apperr.NotFoundf("event %s of integration %s not found", id, name)
	}
	return ev, err
}

// Replay delivers an event again (docsd's extension) and notes it in its trace.
func (s *Service) Replay(ctx context.Context, c auth.Caller, name, id string) (Event, error) {
	var out Event
	err := s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.owned(ctx, tx, c, name); err != nil {
			return err
		}
		ev, err := tx.Event(ctx, name, id)
		if errors.Is(err, ErrNotFound) {
			return apperr.NotFoundf("event %s of integration %s not found", id, name)
		} else if err != nil {
			return err
		}
		ev.Status = Pending
		ev.Trace = append(ev.Trace, LogEntry{Message: "replay requested", Timestamp: tx.Now(), Level: "info"})
		if err := tx.UpdateEvent(ctx, ev); err != nil {
			return err
		}
		out = ev
		return tx.EnqueueDelivery(ctx, name, ev.ID, tx.Now())
	})
	return out, err
}

// QueueTask records a task event for each installation of the integration (or the calling
// token's installation alone), delivered after schedule seconds.
func (s *Service) QueueTask(ctx context.Context, c auth.Caller, name string, task json.RawMessage, schedule float64) error {
	var obj map[string]any
	if task == nil {
		return apperr.Invalidf("task: is required")
	}
	if err := json.Unmarshal(task, &obj); err != nil || obj == nil {
		return apperr.Invalidf("task: must be an object")
	}
	if schedule < 0 || schedule > 86400 {
		return apperr.Invalidf("schedule: must be between 0 and 86400 seconds")
	}
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		var it Integration
		var err error
		if c.Installation != nil {
			it, err = s.visible(ctx, tx, c, name)
			if err == nil && c.Installation.Integration != name {
				err = apperr.NotFoundf("integration %s not found", name)
			}
		} else {
			it, err = s.owned(ctx, tx, c, name)
		}
		if err != nil {
			return err
		}
		runAt := tx.Now().Add(time.Duration(schedule * float64(time.Second)))
		payload := map[string]any{"type": TaskEvent, "task": obj}
		in := Installation{}
		if c.Installation != nil {
			in = Installation{ID: c.Installation.ID, OrgID: c.Installation.OrgID}
		} else {
			in.OrgID = it.OrgID
		}
		return s.recordAt(ctx, tx, it, in, payload, runAt)
	})
}

// PruneJob is the periodic job that deletes events older than EventRetention.
const PruneJob = "integration.events.prune"

// PruneEvents deletes events older than EventRetention: an integration's event history is for
// following and debugging deliveries, not an archive.
func (s *Service) PruneEvents(ctx context.Context, _ json.RawMessage) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		_, err := tx.PruneEvents(ctx, tx.Now().Add(-EventRetention))
		return err
	})
}
