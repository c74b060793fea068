package httpapi

import (
	"net/http"
	"strconv"

	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/space"
)

func (s *Server) collectionRoutes() {
	s.handle("POST /v1/orgs/{organizationId}/collections", s.createCollection)
	s.handle("GET /v1/orgs/{organizationId}/collections", s.listCollections)
	s.handle("GET /v1/collections/{collectionId}", s.getCollection)
	s.handle("PATCH /v1/collections/{collectionId}", s.patchCollection)
	s.handle("DELETE /v1/collections/{collectionId}", s.deleteCollection)
	s.handle("GET /v1/collections/{collectionId}/spaces", s.listCollectionSpaces)
	s.handle("POST /v1/collections/{collectionId}/move", s.moveCollection)
	s.handle("POST /v1/collections/{collectionId}/transfer", s.transferCollection)
}

func (s *Server) createCollection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title  *string `json:"title"`
		Parent *string `json:"parent"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Spaces.CreateCollection(r.Context(), c, r.PathValue("organizationId"), body.Title, body.Parent)
	if err != nil {
		return err
	}
	return created(w, s.urls.CollectionLocation(v.ID), s.urls.FromCollection(v))
}

func (s *Server) listCollections(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	nested, err := queryBool(r, "nested")
	if err != nil {
		return err
	}
	all := nested == nil || *nested
	list := "collections/" + orgID + "/" + strconv.FormatBool(all)
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Spaces.ListCollections(r.Context(), c, orgID, all, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromCollection)
}

func (s *Server) getCollection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Spaces.GetCollection(r.Context(), c, r.PathValue("collectionId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCollection(v))
}

func (s *Server) patchCollection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title        *string            `json:"title"`
		Description  opt.Field[string]  `json:"description"`
		DefaultLevel opt.Field[*string] `json:"defaultLevel"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Spaces.PatchCollection(r.Context(), c, r.PathValue("collectionId"), space.CollectionUpdate{
		Title: body.Title, Description: body.Description, DefaultLevel: body.DefaultLevel})
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCollection(v))
}

func (s *Server) deleteCollection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Spaces.DeleteCollection(r.Context(), c, r.PathValue("collectionId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listCollectionSpaces(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	id := r.PathValue("collectionId")
	list := "collection-spaces/" + id
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Spaces.ListInCollection(r.Context(), c, id, page)
	if err != nil {
		return err
	}
	return s.writeSpaceList(r.Context(), w, list, res)
}

func (s *Server) moveCollection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	m, err := decodeMove(r)
	if err != nil {
		return err
	}
	v, err := s.Spaces.MoveCollection(r.Context(), c, r.PathValue("collectionId"), m)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCollection(v))
}

func (s *Server) transferCollection(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	body, err := decodeTransfer(r)
	if err != nil {
		return err
	}
	v, err := s.Spaces.TransferCollection(r.Context(), c, r.PathValue("collectionId"), body.Organization, body.Parent)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromCollection(v))
}
