package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/templates"
	"docsd/internal/wire"
)

func (s *Server) contentTemplateRoutes() {
	s.handle("POST /v1/spaces/{spaceId}/content/template", s.applyTemplate)
}

// applyTemplateBody is the spec's ApplySpaceTemplate. params.contentRefs is accepted and has
// no effect: the built-in templates reference only their own pages and files.
type applyTemplateBody struct {
	ID     string          `json:"id"`
	Params json.RawMessage `json:"params"`
	newerTemplateApply
}

// applyTemplate makes a built-in template the content of a space without pages. The spec's
// answer is 201 with no content, so there is no body; the Location header names the new
// revision for callers that want it.
func (s *Server) applyTemplate(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body applyTemplateBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.ChangeRequestID != nil {
		// Applying to the main content instead would do what the caller did not ask.
		return apperr.Invalidf("changeRequestId: docsd applies templates to a space's main content only; omit it")
	}
	if len(body.Params) > 0 && string(body.Params) != "null" {
		var params map[string]json.RawMessage
		if err := json.Unmarshal(body.Params, &params); err != nil {
			return apperr.Invalidf("params: must be an object")
		}
		for k := range params {
			if k != "contentRefs" {
				return apperr.Invalidf("params.%s: unknown field (params holds contentRefs)", k)
			}
		}
	}
	spaceID := r.PathValue("spaceId")
	// Permission first, so a caller who cannot see the space learns nothing about templates.
	if _, err := s.Content.CanEdit(r.Context(), c, spaceID); err != nil {
		return err
	}
	res, err := templates.Get(body.ID)
	if err != nil {
		return err
	}
	rev, _, err := s.Content.ImportIntoEmpty(r.Context(), c, spaceID, res, s.Blobs)
	if err != nil {
		return err
	}
	w.Header().Set("Location", s.urls.API("/spaces/"+wire.Esc(spaceID)+"/revisions/"+wire.Esc(rev.ID)))
	w.WriteHeader(http.StatusCreated)
	return nil
}
