package httpapi

import (
	"context"
	"encoding/json"
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/mergerules"
	"docsd/internal/opt"
	"docsd/internal/site"
	"docsd/internal/space"
)

func (s *Server) spaceRoutes() {
	s.handle("POST /v1/orgs/{organizationId}/spaces", s.createSpace)
	s.handle("GET /v1/orgs/{organizationId}/spaces", s.listSpaces)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}/spaces", s.listMemberSpaces)
	s.handle("GET /v1/spaces/{spaceId}", s.getSpace)
	s.handle("PATCH /v1/spaces/{spaceId}", s.patchSpace)
	s.handle("DELETE /v1/spaces/{spaceId}", s.deleteSpace)
	s.handle("POST /v1/spaces/{spaceId}/duplicate", s.duplicateSpace)
	s.handle("POST /v1/spaces/{spaceId}/restore", s.restoreSpace)
	s.handle("POST /v1/spaces/{spaceId}/move", s.moveSpace)
	s.handle("POST /v1/spaces/{spaceId}/transfer", s.transferSpace)
}

func (s *Server) createSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title      *string `json:"title"`
		Emoji      *string `json:"emoji"`
		Parent     *string `json:"parent"`
		Language   *string `json:"language"`
		EditMode   *string `json:"editMode"`
		Visibility *string `json:"visibility"` // our extension: the public API sets it elsewhere
		// A new space is empty; templates and computed sources fill a space with content,
		// which is the content feature's and not available here.
		Empty          *bool           `json:"empty"`
		Template       json.RawMessage `json:"template"`
		ComputedSource json.RawMessage `json:"computedSource"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	switch {
	case body.Empty != nil && !*body.Empty:
		return apperr.Invalidf("empty: must be true when given")
	case body.Template != nil:
		return apperr.Invalidf("template: space templates are not supported; create an empty space")
	case body.ComputedSource != nil:
		return apperr.Invalidf("computedSource: computed content is not supported; create an empty space")
	}
	v, err := s.Spaces.Create(r.Context(), c, r.PathValue("organizationId"), space.NewSpace{Title: body.Title,
		Emoji: body.Emoji, Parent: body.Parent, Language: body.Language, EditMode: body.EditMode, Visibility: body.Visibility})
	if err != nil {
		return err
	}
	return created(w, s.urls.SpaceLocation(v.ID), s.urls.FromSpace(v))
}

func (s *Server) listSpaces(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	list := "spaces/" + orgID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Spaces.ListInOrganization(r.Context(), c, orgID, page)
	if err != nil {
		return err
	}
	return s.writeSpaceList(r.Context(), w, list, res)
}

func (s *Server) listMemberSpaces(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, userID := r.PathValue("organizationId"), r.PathValue("userId")
	order, err := queryEnum(r, "order", "desc", "asc", "desc")
	if err != nil {
		return err
	}
	list := "member-spaces/" + orgID + "/" + userID + "/" + order
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Spaces.ListForMember(r.Context(), c, orgID, userID, order == "asc", page)
	if err != nil {
		return err
	}
	return s.writeMemberSpaceList(r.Context(), w, list, res)
}

// shareKeyMax bounds the shareKey parameter; share keys are made by sites (Document 3).
const shareKeyMax = 256

func (s *Server) getSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	// shareKey only changes published URLs (of share-link sites), which a space shows once
	// it is published through a site; it grants nothing to an authenticated caller.
	shareKey, err := queryString(r, "shareKey", shareKeyMax)
	if err != nil {
		return err
	}
	v, err := s.Spaces.Get(r.Context(), c, r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	return s.writeSpace(w, r, v, shareKey)
}

func (s *Server) patchSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title        *string            `json:"title"`
		Emoji        opt.Field[string]  `json:"emoji"`
		Icon         opt.Field[string]  `json:"icon"`
		Visibility   *string            `json:"visibility"`
		EditMode     *string            `json:"editMode"`
		Language     *string            `json:"language"`
		DefaultLevel opt.Field[*string] `json:"defaultLevel"`
		MergeRules   *mergerules.Config `json:"mergeRules"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	// The answer's published addresses are read in the write's own transaction, asked for
	// first so that they come with the space's read (see space.Update.First): a read on
	// another connection right after the write cost a fifth of a title PATCH on SQLite, its
	// cache emptied by the write, and on PostgreSQL a round trip of its own.
	var pubs map[string][]site.Publication
	read := false
	id := r.PathValue("spaceId")
	v, err := s.Spaces.Patch(r.Context(), c, id, space.Update{Title: body.Title, Emoji: body.Emoji,
		Icon: body.Icon, Visibility: body.Visibility, EditMode: body.EditMode, Language: body.Language,
		DefaultLevel: body.DefaultLevel, MergeRules: body.MergeRules,
		First: func(ctx context.Context, tx space.Tx) error {
			st, ok := tx.(interface{ SiteTx() site.Tx })
			if !ok {
				return nil
			}
			return s.Sites.PublicationsLater(ctx, st.SiteTx(), []string{id}, func(p map[string][]site.Publication) {
				pubs, read = p, true
			})
		}})
	if err != nil {
		return err
	}
	if !read {
		return s.writeSpace(w, r, v, "")
	}
	addrs, err := s.publishedAddresses(r.Context(), pubs, "")
	if err != nil {
		return err
	}
	out := s.urls.FromSpace(v)
	out.SetPublished(addrs[v.ID])
	return ok(w, out)
}

func (s *Server) deleteSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Spaces.Delete(r.Context(), c, r.PathValue("spaceId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) duplicateSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Spaces.Duplicate(r.Context(), c, r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	return created(w, s.urls.SpaceLocation(v.ID), s.urls.FromSpace(v))
}

func (s *Server) restoreSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Spaces.Restore(r.Context(), c, r.PathValue("spaceId"))
	if err != nil {
		return err
	}
	return s.writeSpace(w, r, v, "")
}

func (s *Server) moveSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	m, err := decodeMove(r)
	if err != nil {
		return err
	}
	v, err := s.Spaces.Move(r.Context(), c, r.PathValue("spaceId"), m)
	if err != nil {
		return err
	}
	return s.writeSpace(w, r, v, "")
}

func (s *Server) transferSpace(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	body, err := decodeTransfer(r)
	if err != nil {
		return err
	}
	v, err := s.Spaces.Transfer(r.Context(), c, r.PathValue("spaceId"), body.Organization, body.Parent)
	if err != nil {
		return err
	}
	return s.writeSpace(w, r, v, "")
}
