package httpapi

import (
	"bytes"
	"net/http"
	"strconv"

	"docsd/internal/auth"
	"docsd/internal/pdfexport"
	"docsd/internal/wire"
)

func (s *Server) changeRequestPDFRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf", s.changeRequestPDF)
	// The link works without a token: its signature is the authorization.
	s.register("GET /v1/pdf/{token}", http.HandlerFunc(s.downloadPDF))
}

// changeRequestPDF answers the URL of a PDF of the change request's content.
func (s *Server) changeRequestPDF(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	only, err := queryBool(r, "only")
	if err != nil {
		return err
	}
	page, err := queryString(r, "page", pdfexport.PageIDMax)
	if err != nil {
		return err
	}
	req := pdfexport.Request{Page: page, Only: only != nil && *only}
	token, err := s.PDF.Link(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"), req)
	if err != nil {
		return err
	}
	return ok(w, wire.PDFLink{URL: s.urls.API("/pdf/" + token)})
}

// downloadPDF draws the PDF a link names. It is drawn whole before the first byte is sent,
// so a failure is still answered with the API's error body.
func (s *Server) downloadPDF(w http.ResponseWriter, r *http.Request) {
	var buf bytes.Buffer
	if err := s.PDF.Render(r.Context(), r.PathValue("token"), &buf); err != nil {
		writeError(w, r, s.log, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/pdf")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	h.Set("Content-Disposition", `inline; filename="content.pdf"`)
	// The link is a credential for as long as it lives; shared caches must not keep it.
	h.Set("Cache-Control", "private, max-age=3600")
	w.WriteHeader(http.StatusOK)
	w.Write(buf.Bytes())
}
