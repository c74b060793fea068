package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/translate"
	"docsd/internal/validate"
)

func (s *Server) translationRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/translations", s.listTranslations)
	s.handle("POST /v1/orgs/{organizationId}/translations", s.createTranslation)
	s.handle("GET /v1/orgs/{organizationId}/translations/{translationId}", s.getTranslation)
	s.handle("PUT /v1/orgs/{organizationId}/translations/{translationId}", s.updateTranslation)
	s.handle("DELETE /v1/orgs/{organizationId}/translations/{translationId}", s.deleteTranslation)
	s.handle("POST /v1/orgs/{organizationId}/translations/{translationId}/run", s.runTranslation)
	s.handle("GET /v1/orgs/{organizationId}/translations-glossary", s.listGlossaryEntries)
	s.handle("PUT /v1/orgs/{organizationId}/translations-glossary", s.updateGlossaryEntries)
	s.handle("GET /v1/orgs/{organizationId}/translations-glossary/{glossaryEntryId}", s.getGlossaryEntry)
}

// translationBody is createTranslation's and updateTranslation's body; autoRun is docsd's
// extension (default true: a translation that has run runs again when its source changes).
type translationBody struct {
	Source *struct {
		Space    *string `json:"space"`
		Language *string `json:"language"`
	} `json:"source"`
	Language     *string         `json:"language"`
	Instructions json.RawMessage `json:"instructions"`
	AutoRun      *bool           `json:"autoRun"`
}

func (b translationBody) input() translate.Input {
	in := translate.Input{Language: b.Language, Instructions: b.Instructions, AutoRun: b.AutoRun}
	if b.Source != nil {
		in.SourceSpace, in.SourceLanguage = b.Source.Space, b.Source.Language
	}
	return in
}

func (s *Server) listTranslations(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	list := "translations/" + orgID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Translations.List(r.Context(), c, orgID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromTranslation)
}

func (s *Server) createTranslation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body translationBody
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Translations.Create(r.Context(), c, r.PathValue("organizationId"), body.input())
	if err != nil {
		return err
	}
	out := s.urls.FromTranslation(v)
	return created(w, out.URLs.Location, out)
}

func (s *Server) getTranslation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Translations.Get(r.Context(), c, r.PathValue("organizationId"), r.PathValue("translationId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromTranslation(v))
}

func (s *Server) updateTranslation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body translationBody
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Translations.Update(r.Context(), c, r.PathValue("organizationId"), r.PathValue("translationId"), body.input())
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromTranslation(v))
}

// deleteTranslation answers as the public spec does: 205 when the translation was deleted,
// 204 when there was none. The result space stays.
func (s *Server) deleteTranslation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	deleted, err := s.Translations.Delete(r.Context(), c, r.PathValue("organizationId"), r.PathValue("translationId"))
	if err != nil {
		return err
	}
	if deleted {
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
	return noContent(w)
}

// runTranslation queues a run (204); the job does the work, and the translation's status
// and stats show how it goes.
func (s *Server) runTranslation(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Translations.Run(r.Context(), c, r.PathValue("organizationId"), r.PathValue("translationId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listGlossaryEntries(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	list := "glossary/" + orgID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Translations.Glossary(r.Context(), c, orgID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromGlossaryEntry)
}

func (s *Server) getGlossaryEntry(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	e, err := s.Translations.GlossaryEntry(r.Context(), c, r.PathValue("organizationId"), r.PathValue("glossaryEntryId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromGlossaryEntry(e))
}

// updateGlossaryEntries applies a batch of operations (at most translate.MaxGlossaryOps),
// all or nothing.
func (s *Server) updateGlossaryEntries(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Operations *[]struct {
			Type         string            `json:"type"`
			ID           string            `json:"id"`
			Translations map[string]string `json:"translations"`
		} `json:"operations"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Operations == nil {
		return validate.Required("operations")
	}
	ops := make([]translate.GlossaryOp, 0, len(*body.Operations))
	for _, o := range *body.Operations {
		ops = append(ops, translate.GlossaryOp{Type: o.Type, ID: o.ID, Translations: o.Translations})
	}
	if err := s.Translations.UpdateGlossary(r.Context(), c, r.PathValue("organizationId"), ops); err != nil {
		return err
	}
	return noContent(w)
}
