package httpapi

import (
	"net/http"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/space"
)

// The permission routes of spaces and of collections are the same operations on two kinds
// of target; each route names its target's kind and path parameter.
func (s *Server) permissionRoutes() {
	targetOf := func(kind space.Kind, param string) func(*http.Request) space.Target {
		return func(r *http.Request) space.Target { return space.Target{Kind: kind, ID: r.PathValue(param)} }
	}
	spaceTarget, collectionTarget := targetOf(space.SpaceKind, "spaceId"), targetOf(space.CollectionKind, "collectionId")

	s.handle("POST /v1/spaces/{spaceId}/permissions", s.invite(spaceTarget))
	s.handle("GET /v1/spaces/{spaceId}/permissions/users", s.listUserPermissions(spaceTarget))
	s.handle("GET /v1/spaces/{spaceId}/permissions/teams", s.listTeamPermissions(spaceTarget))
	s.handle("GET /v1/spaces/{spaceId}/permissions/aggregate", s.listAggregatePermissions(spaceTarget))
	s.handle("PATCH /v1/spaces/{spaceId}/permissions/users/{userId}", s.patchPermission(spaceTarget, space.UserPrincipal, "userId"))
	s.handle("PATCH /v1/spaces/{spaceId}/permissions/teams/{teamId}", s.patchPermission(spaceTarget, space.TeamPrincipal, "teamId"))
	s.handle("DELETE /v1/spaces/{spaceId}/permissions/users/{userId}", s.removePermission(spaceTarget, space.UserPrincipal, "userId"))
	s.handle("DELETE /v1/spaces/{spaceId}/permissions/teams/{teamId}", s.removePermission(spaceTarget, space.TeamPrincipal, "teamId"))

	s.handle("POST /v1/collections/{collectionId}/permissions", s.invite(collectionTarget))
	s.handle("GET /v1/collections/{collectionId}/permissions/users", s.listUserPermissions(collectionTarget))
	s.handle("GET /v1/collections/{collectionId}/permissions/teams", s.listTeamPermissions(collectionTarget))
	s.handle("GET /v1/collections/{collectionId}/permissions/aggregate", s.listAggregatePermissions(collectionTarget))
	s.handle("PATCH /v1/collections/{collectionId}/permissions/users/{userId}", s.patchPermission(collectionTarget, space.UserPrincipal, "userId"))
	s.handle("PATCH /v1/collections/{collectionId}/permissions/teams/{teamId}", s.patchPermission(collectionTarget, space.TeamPrincipal, "teamId"))
	s.handle("DELETE /v1/collections/{collectionId}/permissions/users/{userId}", s.removePermission(collectionTarget, space.UserPrincipal, "userId"))
	s.handle("DELETE /v1/collections/{collectionId}/permissions/teams/{teamId}", s.removePermission(collectionTarget, space.TeamPrincipal, "teamId"))
}

type targetOf func(r *http.Request) space.Target

// roleNames are the values of a role filter.
var roleNames = func() []string {
	out := make([]string, len(auth.Roles))
	for i, r := range auth.Roles {
		out[i] = string(r)
	}
	return out
}()

// grantRole reads a grant's role: a role name, or null to remove the grant.
func grantRole(f opt.Field[*string]) (*auth.Role, error) {
	if !f.Set {
		return nil, apperr.Invalidf("role: is required (a role, or null to remove the grant)")
	}
	if f.Null || f.Value == nil {
		return nil, nil
	}
	r, ok := auth.ParseRole(*f.Value)
	if !ok {
		return nil, apperr.Invalidf("role: must be one of %s, or null (got %q)", auth.RoleNames(), *f.Value)
	}
	return &r, nil
}

func (s *Server) invite(target targetOf) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		var body struct {
			Role  opt.Field[*string] `json:"role"`
			Users []string           `json:"users"`
			Teams []string           `json:"teams"`
		}
		if err := decode(r, &body); err != nil {
			return err
		}
		role, err := grantRole(body.Role)
		if err != nil {
			return err
		}
		if err := s.Spaces.Invite(r.Context(), c, target(r), body.Users, body.Teams, role); err != nil {
			return err
		}
		return noContent(w)
	}
}

func (s *Server) patchPermission(target targetOf, kind space.PrincipalKind, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		var body struct {
			Role opt.Field[*string] `json:"role"`
		}
		if err := decode(r, &body); err != nil {
			return err
		}
		role, err := grantRole(body.Role)
		if err != nil {
			return err
		}
		p := space.Principal{Kind: kind, ID: r.PathValue(param)}
		if err := s.Spaces.SetGrant(r.Context(), c, target(r), p, role); err != nil {
			return err
		}
		return noContent(w)
	}
}

func (s *Server) removePermission(target targetOf, kind space.PrincipalKind, param string) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		p := space.Principal{Kind: kind, ID: r.PathValue(param)}
		if err := s.Spaces.RemoveGrant(r.Context(), c, target(r), p); err != nil {
			return err
		}
		return noContent(w)
	}
}

func listKey(t space.Target, what string) string {
	return string(t.Kind) + "-permissions/" + t.ID + "/" + what
}

func (s *Server) listUserPermissions(target targetOf) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		t := target(r)
		list := listKey(t, "users")
		page, err := s.pageRequest(r, list)
		if err != nil {
			return err
		}
		res, err := s.Spaces.UserGrants(r.Context(), c, t, page)
		if err != nil {
			return err
		}
		return writeList(s, w, list, res, s.urls.FromUserGrant)
	}
}

func (s *Server) listTeamPermissions(target targetOf) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		t := target(r)
		list := listKey(t, "teams")
		page, err := s.pageRequest(r, list)
		if err != nil {
			return err
		}
		res, err := s.Spaces.TeamGrants(r.Context(), c, t, page)
		if err != nil {
			return err
		}
		return writeList(s, w, list, res, s.urls.FromTeamGrant)
	}
}

func (s *Server) listAggregatePermissions(target targetOf) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
		t := target(r)
		roleName, err := queryEnum(r, "role", "", roleNames...)
		if err != nil {
			return err
		}
		var role *auth.Role
		if roleName != "" {
			rr := auth.Role(roleName)
			role = &rr
		}
		list := listKey(t, "aggregate/"+roleName)
		page, err := s.pageRequest(r, list)
		if err != nil {
			return err
		}
		res, err := s.Spaces.Aggregate(r.Context(), c, t, role, page)
		if err != nil {
			return err
		}
		return writeList(s, w, list, res, s.urls.FromUserGrant)
	}
}
