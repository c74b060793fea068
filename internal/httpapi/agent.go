package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/auth"
)

func (s *Server) agentRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/agent-instructions", s.getAgentInstructions)
	s.handle("PUT /v1/orgs/{organizationId}/agent-instructions", s.putAgentInstructions)
}

func (s *Server) getAgentInstructions(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	a, err := s.Orgs.AgentInstructions(r.Context(), c, r.PathValue("organizationId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromAgentInstructions(a))
}

func (s *Server) putAgentInstructions(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Instructions json.RawMessage `json:"instructions"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	a, err := s.Orgs.SetAgentInstructions(r.Context(), c, r.PathValue("organizationId"), body.Instructions)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromAgentInstructions(a))
}
