package httpapi

import (
	"net/http"

	"docsd/internal/agentconv"
	"docsd/internal/auth"
	"docsd/internal/validate"
	"docsd/internal/wire"
)

// agentConversationRoutes: the organization agent's conversations (each private to the user
// who started it) and a change request's conversations. The public API has no operation that
// sends a message; the messages routes are docsd's.
func (s *Server) agentConversationRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/agent/conversations", s.listOrganizationAgentConversations)
	s.handle("PUT /v1/orgs/{organizationId}/agent/conversations/{conversationId}", s.provisionOrganizationAgentConversation)
	s.handle("PATCH /v1/orgs/{organizationId}/agent/conversations/{conversationId}", s.updateAgentConversation)
	s.handle("DELETE /v1/orgs/{organizationId}/agent/conversations/{conversationId}", s.deleteAgentConversation)
	s.handle("GET /v1/orgs/{organizationId}/agent/conversations/{conversationId}/messages", s.listAgentConversationMessages)
	s.handle("POST /v1/orgs/{organizationId}/agent/conversations/{conversationId}/messages", s.sendAgentConversationMessage)

	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations", s.listChangeRequestConversations)
	s.handle("PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}", s.updateAgentConversation)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}", s.deleteAgentConversation)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}/messages", s.listAgentConversationMessages)
	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/conversations/{conversationId}/messages", s.sendAgentConversationMessage)
}

// agentWhere is the context a request's path names: an organization, or a change request.
func agentWhere(r *http.Request) agentconv.Where {
	return agentconv.Where{OrgID: r.PathValue("organizationId"), SpaceID: r.PathValue("spaceId"),
		ChangeRequest: r.PathValue("changeRequestId")}
}

func (s *Server) listOrganizationAgentConversations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	return s.listAgentConversations(w, r, c, "agent-conversations/"+r.PathValue("organizationId"))
}

func (s *Server) listChangeRequestConversations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	return s.listAgentConversations(w, r, c, "change-request-conversations/"+r.PathValue("spaceId")+"/"+r.PathValue("changeRequestId"))
}

func (s *Server) listAgentConversations(w http.ResponseWriter, r *http.Request, c auth.Caller, list string) error {
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.AgentConversations.List(r.Context(), c, agentWhere(r), page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, wire.FromAgentConversation)
}

func (s *Server) provisionOrganizationAgentConversation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.AgentConversations.Provision(r.Context(), c, agentWhere(r), r.PathValue("conversationId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) updateAgentConversation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title *string `json:"title"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Title == nil {
		return validate.Required("title")
	}
	conv, err := s.AgentConversations.Rename(r.Context(), c, agentWhere(r), r.PathValue("conversationId"), *body.Title)
	if err != nil {
		return err
	}
	return ok(w, wire.FromAgentConversation(conv))
}

func (s *Server) deleteAgentConversation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.AgentConversations.Delete(r.Context(), c, agentWhere(r), r.PathValue("conversationId")); err != nil {
		return err
	}
	w.WriteHeader(http.StatusResetContent)
	return nil
}

func (s *Server) listAgentConversationMessages(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	list := "agent-conversation-messages/" + r.URL.Path
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	_, res, err := s.AgentConversations.Messages(r.Context(), c, agentWhere(r), r.PathValue("conversationId"), page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, wire.FromAgentMessage)
}

func (s *Server) sendAgentConversationMessage(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Markdown *string `json:"markdown"`
		Shared   *bool   `json:"shared"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Markdown == nil {
		return validate.Required("markdown")
	}
	conv, msgs, err := s.AgentConversations.Send(r.Context(), c, agentWhere(r), r.PathValue("conversationId"),
		agentconv.Send{Content: *body.Markdown, Shared: body.Shared})
	if err != nil {
		return err
	}
	return created(w, s.urls.Base+"/v1"+r.URL.Path, wire.FromAgentExchange(conv, msgs))
}
