package httpapi

import (
	"net/http"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
)

func (s *Server) userRoutes() {
	s.handle("GET /v1/user", s.getMe)
	s.handle("GET /v1/users/{userId}", s.getUser)
	s.handle("PATCH /v1/users/{userId}", s.patchUser)
}

func (s *Server) getMe(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	u, err := s.Accounts.Me(r.Context(), c)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromUser(u))
}

func (s *Server) getUser(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	u, err := s.Accounts.Get(r.Context(), c, r.PathValue("userId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromUser(u))
}

func (s *Server) patchUser(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		DisplayName *string `json:"displayName"`
		PhotoURL    *string `json:"photoURL"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.DisplayName == nil && body.PhotoURL == nil {
		// The public API requires at least one property in this body.
		return apperr.Invalidf("request body: must set displayName or photoURL")
	}
	u, err := s.Accounts.UpdateSelf(r.Context(), c, r.PathValue("userId"), account.Update{DisplayName: body.DisplayName, PhotoURL: body.PhotoURL})
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromUser(u))
}
