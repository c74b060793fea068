package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/integration"
	"docsd/internal/jsrun"
	"docsd/internal/wire"
)

// Integration events, tasks and UI rendering.
func (s *Server) integrationEventRoutes() {
	s.handle("GET /v1/integrations/{integrationName}/events", s.listIntegrationEvents)
	s.handle("GET /v1/integrations/{integrationName}/events/{eventId}", s.getIntegrationEvent)
	s.handle("GET /v1/integrations/{integrationName}/events/{eventId}/delivery", s.getIntegrationEventDelivery)
	s.handle("POST /v1/integrations/{integrationName}/events/{eventId}/replay", s.replayIntegrationEvent)
	s.handle("POST /v1/integrations/{integrationName}/tasks", s.queueIntegrationTask)
	s.handle("GET /v1/integrations/{integrationName}/render", s.renderIntegrationUIWithGet)
	s.handle("POST /v1/integrations/{integrationName}/render", s.renderIntegrationUIWithPost)
}

func (s *Server) listIntegrationEvents(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	name := r.PathValue("integrationName")
	list := "integration-events/" + name
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Integrations.Events(r.Context(), c, name, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, wire.FromIntegrationEvent)
}

func eventAnswer(ev integration.Event) map[string]any {
	return map[string]any{"event": wire.FromIntegrationEvent(ev), "trace": wire.FromEventTrace(ev)}
}

func (s *Server) getIntegrationEvent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	ev, err := s.Integrations.Event(r.Context(), c, r.PathValue("integrationName"), r.PathValue("eventId"))
	if err != nil {
		return err
	}
	return ok(w, eventAnswer(ev))
}

// getIntegrationEventDelivery answers any event, in flight or a task, with its status and
// trace (docsd's extension).
func (s *Server) getIntegrationEventDelivery(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	ev, err := s.Integrations.DeliveryState(r.Context(), c, r.PathValue("integrationName"), r.PathValue("eventId"))
	if err != nil {
		return err
	}
	return ok(w, eventAnswer(ev))
}

func (s *Server) replayIntegrationEvent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	ev, err := s.Integrations.Replay(r.Context(), c, r.PathValue("integrationName"), r.PathValue("eventId"))
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusAccepted, eventAnswer(ev))
}

func (s *Server) queueIntegrationTask(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Task     json.RawMessage `json:"task"`
		Schedule *float64        `json:"schedule"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	schedule := 0.0
	if body.Schedule != nil {
		schedule = *body.Schedule
	}
	if err := s.Integrations.QueueTask(r.Context(), c, r.PathValue("integrationName"), body.Task, schedule); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) renderIntegrationUIWithGet(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	req, err := integration.DecompressLZString(r.URL.Query().Get("request"))
	if err != nil {
		return err
	}
	return s.renderIntegrationUI(w, r, c, req)
}

func (s *Server) renderIntegrationUIWithPost(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		ComponentID *string         `json:"componentId"`
		Props       json.RawMessage `json:"props"`
		State       json.RawMessage `json:"state"`
		Context     json.RawMessage `json:"context"`
		Action      json.RawMessage `json:"action"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	b, _ := json.Marshal(body)
	return s.renderIntegrationUI(w, r, c, b)
}

// IntegrationScripts runs a ui_render event through an integration's script (delivery.Deliverer).
type IntegrationScripts interface {
	Render(ctx context.Context, d integration.Delivery) (*jsrun.Response, error)
	Fetch(ctx context.Context, d integration.Delivery, body []byte) (*jsrun.Response, error)
}

// renderIntegrationUI answers the script's ContentKit output with its Cache-Control and the
// integration's Content-Security-Policy.
func (s *Server) renderIntegrationUI(w http.ResponseWriter, r *http.Request, c auth.Caller, req json.RawMessage) error {
	d, err := s.Integrations.RenderEvent(r.Context(), c, r.PathValue("integrationName"), req)
	if err != nil {
		return err
	}
	if s.IntegrationScripts == nil {
		return apperr.New(apperr.Unavailable, "integration scripts do not run on this server")
	}
	res, err := s.IntegrationScripts.Render(r.Context(), d)
	if err != nil {
		return err
	}
	if cc := res.Headers.Get("Cache-Control"); cc != "" {
		w.Header().Set("Cache-Control", cc)
	}
	// The integration's contentSecurityPolicy (Document 3, 6 rule 2) goes with what it renders,
	// so the frame a block's webframe opens is held to what the integration declared.
	if csp := integration.CSPHeader(d.Integration.Manifest.CSP); csp != "" {
		w.Header().Set("Content-Security-Policy", csp)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err = w.Write(res.Body)
	return err
}
