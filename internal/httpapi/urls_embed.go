package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/embed"
)

func (s *Server) embedRoutes() {
	s.handle("GET /v1/urls/embed", s.getEmbedByURL)
	s.handle("GET /v1/spaces/{spaceId}/embed", s.getEmbedByURLInSpace)
}

func (s *Server) getEmbedByURL(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	raw, err := queryString(r, "url", embed.URLMax)
	if err != nil {
		return err
	}
	e, err := s.Embeds.Unfurl(r.Context(), raw)
	if err != nil {
		return err
	}
	return ok(w, e)
}

// getEmbedByURLInSpace is getEmbedByURL for a caller who can read the space (404 otherwise):
// docsd has no integrations that render embeds for a space, so the answer is the same.
func (s *Server) getEmbedByURLInSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if _, err := s.Spaces.Get(r.Context(), c, r.PathValue("spaceId")); err != nil {
		return err
	}
	return s.getEmbedByURL(w, r, c)
}
