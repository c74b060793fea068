package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/pdfexport"
	"docsd/internal/wire"
)

func (s *Server) spacePDFRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/pdf", s.spacePDF)
}

// spacePDF answers the URL of a PDF of the space's current content, drawn by the same
// renderer and served by the same signed link as a change request's PDF.
func (s *Server) spacePDF(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	only, err := queryBool(r, "only")
	if err != nil {
		return err
	}
	page, err := queryString(r, "page", pdfexport.PageIDMax)
	if err != nil {
		return err
	}
	token, err := s.PDF.SpaceLink(r.Context(), c, r.PathValue("spaceId"), pdfexport.Request{Page: page, Only: only != nil && *only})
	if err != nil {
		return err
	}
	return ok(w, wire.PDFLink{URL: s.urls.API("/pdf/" + token)})
}
