package integration

import (
	"context"
	"encoding/json"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
)

// RenderEvent checks a render request for an integration the caller can see and returns the
// ui_render event for its script, with what the script's environment needs (the integration's
// secrets and signing secret). The event is answered synchronously and not kept in the
// integration's events. The request's fields (componentId, props, state, context, action)
// pass to the script as they came.
func (s *Service) RenderEvent(ctx context.Context, c auth.Caller, name string, req json.RawMessage) (Delivery, error) {
	var body map[string]json.RawMessage
	if err := json.Unmarshal(req, &body); err != nil || body == nil {
		return Delivery{}, apperr.Invalidf("request: must be a JSON object")
	}
	var componentID string
	switch {
	case json.Unmarshal(body["componentId"], &componentID) != nil || componentID == "":
		return Delivery{}, apperr.Invalidf("componentId: is required")
	case len(body["props"]) == 0 || body["props"][0] != '{':
		return Delivery{}, apperr.Invalidf("props: is required (an object)")
	case len(body["context"]) == 0 || body["context"][0] != '{':
		return Delivery{}, apperr.Invalidf("context: is required (an object)")
	}
	it, err := s.visible(ctx, s.store.Read(), c, name)
	if err != nil {
		return Delivery{}, err
	}
	now := s.clock.Now()
	// In development mode the event goes to the tunnel, as every event does.
	tunnel := it.tunnel(it.OrgID, now)
	if tunnel == "" && it.Script == "" {
		return Delivery{}, apperr.New(apperr.Unavailable, "integration %s has no script to render with", name)
	}
	ev := Event{ID: ids.New(), Integration: it.Name, OrgID: it.OrgID, Type: "ui_render", CreatedAt: now}
	payload := map[string]any{"type": ev.Type, "eventId": ev.ID}
	for k, v := range body {
		if k != "type" && k != "eventId" && string(v) != "null" {
			payload[k] = v
		}
	}
	if ev.Payload, err = json.Marshal(payload); err != nil {
		return Delivery{}, err
	}
	d := Delivery{Integration: it, Event: ev, Attempt: 1, Tunnel: tunnel}
	if err := s.openSecrets(&d); err != nil {
		return Delivery{}, err
	}
	return d, nil
}
