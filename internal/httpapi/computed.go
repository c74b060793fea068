package httpapi

import (
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/computed"
)

func (s *Server) computedContentRoutes() {
	s.handle("POST /v1/spaces/{spaceId}/content/computed/document", s.getComputedDocument)
	s.handle("POST /v1/spaces/{spaceId}/content/computed/revision", s.getComputedRevision)
}

// computedBody is the request of both operations: the source and the seed of generated ids.
type computedBody struct {
	Source *computed.Source `json:"source"`
	Seed   *string          `json:"seed"`
}

// computedRequest reads the request of a computed-content operation, after checking that the
// caller can read the space (a 404 otherwise).
func (s *Server) computedRequest(r *http.Request, c auth.Caller) (computed.Request, error) {
	spaceID := r.PathValue("spaceId")
	sp, err := s.Spaces.Get(r.Context(), c, spaceID)
	if err != nil {
		return computed.Request{}, err
	}
	var body computedBody
	if err := decode(r, &body); err != nil {
		return computed.Request{}, err
	}
	switch {
	case body.Source == nil:
		return computed.Request{}, apperr.Invalidf("source: is required (an object with a type)")
	case body.Seed == nil:
		return computed.Request{}, apperr.Invalidf("seed: is required (a string from which generated ids derive)")
	}
	return computed.Request{Caller: c, SpaceID: spaceID, OrgID: sp.OrganizationID, Source: *body.Source, Seed: *body.Seed}, nil
}

func (s *Server) registry() *computed.Registry {
	if s.Computed == nil {
		return &computed.Registry{}
	}
	return s.Computed
}

func (s *Server) getComputedDocument(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if _, err := queryEnum(r, "schema", "current", "current", "next"); err != nil {
		return err
	}
	req, err := s.computedRequest(r, c)
	if err != nil {
		return err
	}
	doc, err := s.registry().Document(r.Context(), req)
	if err != nil {
		return err
	}
	return ok(w, doc)
}

func (s *Server) getComputedRevision(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	req, err := s.computedRequest(r, c)
	if err != nil {
		return err
	}
	rev, err := s.registry().Revision(r.Context(), req)
	if err != nil {
		return err
	}
	for _, list := range []*[]json.RawMessage{&rev.Pages, &rev.Files, &rev.ReusableContents} {
		if *list == nil {
			*list = []json.RawMessage{}
		}
	}
	return ok(w, rev)
}
