package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/changereq"
	"docsd/internal/content"
	"docsd/internal/contenttree"
	"docsd/internal/evaluate"
	"docsd/internal/markdoc"
	"docsd/internal/opt"
	"docsd/internal/wire"
)

// Reusable contents are read at the head, at a revision and in a change request, as pages
// are; they are written through a change request (our extension, modelled on its page edits).
func (s *Server) reusableContentRoutes() {
	s.handle("GET /v1/spaces/{spaceId}/content/reusable-contents/{reusableContentId}", s.getReusableContent)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}", s.getReusableContent)
	s.handle("GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/content/reusable-contents/{reusableContentId}", s.getReusableContent)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/reusable-contents/{reusableContentId}/document", s.getReusableContentDocument)
	s.handle("GET /v1/spaces/{spaceId}/revisions/{revisionId}/page/{pageId}/document", s.getPageDocument)
	s.handle("GET /v1/spaces/{spaceId}/documents/{documentId}", s.getDocument)

	s.handle("POST /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reusable-contents", s.createChangeRequestReusableContent)
	s.handle("PATCH /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reusable-contents/{reusableContentId}", s.updateChangeRequestReusableContent)
	s.handle("DELETE /v1/spaces/{spaceId}/change-requests/{changeRequestId}/reusable-contents/{reusableContentId}", s.deleteChangeRequestReusableContent)
}

func (s *Server) getReusableContent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	id := r.PathValue("reusableContentId")
	rc, found := snap.Tree.ReusableContents[id]
	if !found {
		return apperr.NotFoundf("reusable content %s not found in revision %s", id, snap.Revision.ID)
	}
	out := wire.FromReusableContent(rc, snap.ReusableDocumentID(id))
	if !withGit(r) {
		out.Git = nil
	}
	return ok(w, out)
}

// documentOptions are how a document of snap is read: includes name its reusable contents.
func documentOptions(snap *content.Snapshot) markdoc.Options {
	return markdoc.Options{ReusableContent: snap.ReusableByPath}
}

// writeDocument answers markdown as a JSONDocument, evaluated as the request asks.
func (s *Server) writeDocument(w http.ResponseWriter, r *http.Request, snap *content.Snapshot, md string, page map[string]json.RawMessage) error {
	mode, err := queryEnum(r, "evaluated", evaluate.None, evaluate.Modes...)
	if err != nil {
		return err
	}
	md = evaluate.Markdown(md, evaluate.Vars{Space: snap.Tree.Variables, Page: page}, mode)
	return ok(w, documentOptions(snap).ToDocument(md))
}

func (s *Server) getReusableContentDocument(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	rc, err := s.Content.ReusableContent(r.Context(), snap, r.PathValue("reusableContentId"))
	if err != nil {
		return err
	}
	return s.writeDocument(w, r, snap, rc.Markdown, nil)
}

func (s *Server) getPageDocument(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, snap, err := s.snapshotOf(r, c)
	if err != nil {
		return err
	}
	id := r.PathValue("pageId")
	p, found := snap.Tree.Pages[id]
	if !found {
		return apperr.NotFoundf("page %s not found in revision %s", id, snap.Revision.ID)
	}
	if p.Kind != contenttree.KindDocument {
		return apperr.NotFoundf("page %s of revision %s is a %s and has no document", id, snap.Revision.ID, p.Kind)
	}
	md, err := s.Content.Markdown(r.Context(), snap, id)
	if err != nil {
		return err
	}
	return s.writeDocument(w, r, snap, md, p.Variables)
}

// getDocument answers a document by its id, which is the hash of its markdown: a document of
// any revision of the space (its pages' and reusable contents' documents in change requests
// and in past revisions too), read as in the revision it belongs to.
func (s *Server) getDocument(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if _, err := queryEnum(r, "schema", "current", "current", "next"); err != nil {
		return err
	}
	md, snap, err := s.Content.DocumentByID(r.Context(), c, r.PathValue("spaceId"), r.PathValue("documentId"))
	if err != nil {
		return err
	}
	return ok(w, documentOptions(snap).ToDocument(md))
}

type reusableEditBody struct {
	Title    opt.Field[string] `json:"title"`
	Markdown opt.Field[string] `json:"markdown"`
}

func (b reusableEditBody) edit() changereq.ReusableContentEdit {
	return changereq.ReusableContentEdit{Title: b.Title, Markdown: b.Markdown}
}

// reusableEditResult answers a reusable content edit: it and the change request's new revision.
type reusableEditResult struct {
	ReusableContent string `json:"reusableContent"`
	Revision        string `json:"revision"`
}

func (s *Server) createChangeRequestReusableContent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body reusableEditBody
	if err := decode(r, &body); err != nil {
		return err
	}
	spaceID := r.PathValue("spaceId")
	res, err := s.ChangeRequests.CreateReusableContent(r.Context(), c, spaceID, r.PathValue("changeRequestId"), body.edit())
	if err != nil {
		return err
	}
	return created(w, s.urls.API("/spaces/"+wire.Esc(spaceID)+"/revisions/"+wire.Esc(res.Revision)+"/reusable-contents/"+wire.Esc(res.PageID)),
		reusableEditResult{ReusableContent: res.PageID, Revision: res.Revision})
}

func (s *Server) updateChangeRequestReusableContent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body reusableEditBody
	if err := decode(r, &body); err != nil {
		return err
	}
	res, err := s.ChangeRequests.UpdateReusableContent(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("reusableContentId"), body.edit())
	if err != nil {
		return err
	}
	return ok(w, reusableEditResult{ReusableContent: res.PageID, Revision: res.Revision})
}

func (s *Server) deleteChangeRequestReusableContent(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	_, err := s.ChangeRequests.DeleteReusableContent(r.Context(), c, r.PathValue("spaceId"), r.PathValue("changeRequestId"),
		r.PathValue("reusableContentId"))
	if err != nil {
		return err
	}
	return noContent(w)
}
