package httpapi

import (
	"net/http"
	"net/url"

	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/validate"
)

func (s *Server) teamRoutes() {
	s.handle("GET /v1/orgs/{organizationId}/teams", s.listTeams)
	s.handle("PUT /v1/orgs/{organizationId}/teams", s.createTeam)
	s.handle("GET /v1/orgs/{organizationId}/teams/{teamId}", s.getTeam)
	s.handle("PATCH /v1/orgs/{organizationId}/teams/{teamId}", s.patchTeam)
	s.handle("DELETE /v1/orgs/{organizationId}/teams/{teamId}", s.deleteTeam)
	s.handle("GET /v1/orgs/{organizationId}/teams/{teamId}/members", s.listTeamMembers)
	s.handle("PUT /v1/orgs/{organizationId}/teams/{teamId}/members", s.updateTeamMembers)
	s.handle("PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", s.addTeamMember)
	s.handle("DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}", s.removeTeamMember)
	s.handle("GET /v1/orgs/{organizationId}/members/{userId}/teams", s.listMemberTeams)
}

// teamTitleFilterMax bounds the title filter: no longer text can match a team title.
const teamTitleFilterMax = 64

func (s *Server) listTeams(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	title, err := queryString(r, "title", teamTitleFilterMax)
	if err != nil {
		return err
	}
	owner, err := queryString(r, "owner", 255)
	if err != nil {
		return err
	}
	list := "teams/" + url.PathEscape(orgID) + "/" + url.PathEscape(owner) + "/" + url.PathEscape(title)
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.ListTeams(r.Context(), c, orgID, org.TeamFilter{Title: title, OwnerID: owner}, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromTeam)
}

func (s *Server) createTeam(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title   *string  `json:"title"`
		Members []string `json:"members"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	v, err := s.Orgs.CreateTeam(r.Context(), c, orgID, body.Title, body.Members)
	if err != nil {
		return err
	}
	return created(w, s.urls.OrgLocation(orgID)+"/teams/"+url.PathEscape(v.ID), s.urls.FromTeam(v))
}

func (s *Server) getTeam(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Orgs.GetTeam(r.Context(), c, r.PathValue("organizationId"), r.PathValue("teamId"))
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromTeam(v))
}

func (s *Server) patchTeam(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Title *string `json:"title"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	v, err := s.Orgs.RenameTeam(r.Context(), c, r.PathValue("organizationId"), r.PathValue("teamId"), body.Title)
	if err != nil {
		return err
	}
	return ok(w, s.urls.FromTeam(v))
}

func (s *Server) deleteTeam(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Orgs.DeleteTeam(r.Context(), c, r.PathValue("organizationId"), r.PathValue("teamId")); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) listTeamMembers(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, teamID := r.PathValue("organizationId"), r.PathValue("teamId")
	list := "team-members/" + url.PathEscape(orgID) + "/" + url.PathEscape(teamID)
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.ListTeamMembers(r.Context(), c, orgID, teamID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromTeamMembership)
}

func (s *Server) updateTeamMembers(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Add         []string `json:"add"`
		Remove      []string `json:"remove"`
		Memberships map[string]struct {
			Role *string `json:"role"`
		} `json:"memberships"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	u := org.TeamMembersUpdate{Add: body.Add, Remove: body.Remove, Roles: map[string]string{}}
	for id, m := range body.Memberships {
		if m.Role == nil {
			return validate.Required("memberships." + id + ".role")
		}
		u.Roles[id] = *m.Role
	}
	if err := s.Orgs.UpdateTeamMembers(r.Context(), c, r.PathValue("organizationId"), r.PathValue("teamId"), u); err != nil {
		return err
	}
	return noContent(w)
}

func (s *Server) addTeamMember(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Role *string `json:"role"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	err := s.Orgs.AddTeamMember(r.Context(), c, r.PathValue("organizationId"), r.PathValue("teamId"), r.PathValue("userId"), body.Role)
	if err != nil {
		return err
	}
	return noContent(w)
}

// removeTeamMember answers as the public API does: 205 when the user was removed from the
// team, 204 when they were not on it.
func (s *Server) removeTeamMember(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	removed, err := s.Orgs.RemoveTeamMember(r.Context(), c, r.PathValue("organizationId"), r.PathValue("teamId"), r.PathValue("userId"))
	if err != nil {
		return err
	}
	if removed {
		w.WriteHeader(http.StatusResetContent)
		return nil
	}
	return noContent(w)
}

func (s *Server) listMemberTeams(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID, userID := r.PathValue("organizationId"), r.PathValue("userId")
	title, err := queryString(r, "title", teamTitleFilterMax)
	if err != nil {
		return err
	}
	list := "member-teams/" + url.PathEscape(orgID) + "/" + url.PathEscape(userID) + "/" + url.PathEscape(title)
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.TeamsOfMember(r.Context(), c, orgID, userID, title, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, s.urls.FromMemberTeam)
}
