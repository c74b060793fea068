package httpapi

import (
	"net/http"

	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/org"
	"docsd/internal/wire"
)

func (s *Server) memberRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/members", s.listMembers)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}", s.getMember)
	s.handle("PATCH /v1/orgs/{organizationId}/members/{userId}", s.patchMember)
	s.handle("DELETE /v1/orgs/{organizationId}/members/{userId}", s.deleteMember)
	s.handle("POST /v1/orgs/{organizationId}/members/{userId}/sso", s.setMemberSSO)
	s.handle("POST /v1/orgs/{organizationId}/ping", s.pingOrg)
}

// memberRoleFilters are the values of the list's `role` filter: a role, or guest.
var memberRoleFilters = func() []string {
	out := make([]string, 0, len(auth.Roles)+1)
	for _, r := range auth.Roles {
		out = append(out, string(r))
	}
	return append(out, "guest")
}()

// memberSearchMax bounds the `search` filter; the API documents no limit, so it follows the
// other search parameters' 512 characters.
const memberSearchMax = 512

func (s *Server) listMembers(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	order, err := queryEnum(r, "order", "desc", "asc", "desc")
	if err != nil {
		return err
	}
	sort, err := queryEnum(r, "sort", string(org.SortJoinedAt), string(org.SortJoinedAt), string(org.SortLastSeenAt))
	if err != nil {
		return err
	}
	role, err := queryEnum(r, "role", "", memberRoleFilters...)
	if err != nil {
		return err
	}
	search, err := queryString(r, "search", memberSearchMax)
	if err != nil {
		return err
	}
	f := org.MemberFilter{Search: search, Sort: org.MemberSort(sort), Desc: order == "desc"}
	if role != "" {
		ro := auth.Role(role)
		if role == "guest" {
			ro = auth.Guest
		}
		f.Role = &ro
	}
	list := "members/" + orgID + "/" + sort + "/" + order + "/" + role + "/" + search
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.Members(r.Context(), c, orgID, f, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromMember)
}

func (s *Server) getMember(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	m, err := s.Orgs.Member(r.Context(), c, r.PathValue("organizationId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromMember(m))
}

func (s *Server) patchMember(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Role opt.Field[string] `json:"role"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	m, err := s.Orgs.PatchMember(r.Context(), c, r.PathValue("organizationId"), r.PathValue("userId"), org.MemberUpdate{Role: body.Role})
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromMember(m))
}

func (s *Server) deleteMember(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Orgs.RemoveMember(r.Context(), c, r.PathValue("organizationId"), r.PathValue("userId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) setMemberSSO(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	m, err := s.Orgs.SetMemberSSO(r.Context(), c, r.PathValue("organizationId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromMember(m))
}

func (s *Server) pingOrg(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Orgs.Ping(r.Context(), c, r.PathValue("organizationId")); err != nil {
		return err
	}
	return ok(w, wire.Ping{})
}
