package httpapi

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sort"
	"strconv"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/org"
	"docsd/internal/wire"
)

func (s *Server) inviteRoutes() {
	s.handle("POST /v1/orgs/{organizationId}/link-invites", s.createInviteLink)
	s.handle("GET /v1/orgs/{organizationId}/link-invites", s.listInviteLinks)
	s.handle("GET /v1/orgs/{organizationId}/link-invites/{inviteId}", s.getInviteLink)
	s.handle("PATCH /v1/orgs/{organizationId}/link-invites/{inviteId}", s.patchInviteLink)
	s.handle("DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}", s.deleteInviteLink)
	s.handle("POST /v1/orgs/{organizationId}/invites/{inviteId}", s.joinWithInvite)
	s.handle("POST /v1/orgs/{organizationId}/invites", s.inviteUsers)
	s.handle("POST /v1/orgs/{organizationId}/join", s.joinOrganization)
}

// inviteBody is the body of creating or updating an invite link. The public API also has
// space and collection invites (`level` with `space` or `collection`); docsd invites to
// organizations only, and says so rather than ignoring the fields.
type inviteBody struct {
	Role       opt.Field[string] `json:"role"`
	Level      opt.Field[string] `json:"level"`
	Space      *string           `json:"space"`
	Collection *string           `json:"collection"`
}

func (b inviteBody) organizationOnly() error {
	switch {
	case b.Space != nil:
		return apperr.Invalidf("space: invites to a space are not supported; invite to the organization with role")
	case b.Collection != nil:
		return apperr.Invalidf("collection: invites to a collection are not supported; invite to the organization with role")
	case b.Level.Set:
		return apperr.Invalidf("level: applies to space and collection invites; an organization invite takes role")
	}
	return nil
}

func (s *Server) createInviteLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body inviteBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.organizationOnly(); err != nil {
		return err
	}
	orgID := r.PathValue("organizationId")
	v, err := s.Orgs.CreateInviteLink(r.Context(), c, orgID, body.Role)
	if err != nil {
		return err
	}
	return created(w, s.urls.InviteLinkLocation(orgID, v.ID), wire.FromInviteLink(v))
}

func (s *Server) listInviteLinks(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	orgID := r.PathValue("organizationId")
	list := "link-invites/" + orgID
	page, err := s.pageRequest(r, list)
	if err != nil {
		return err
	}
	res, err := s.Orgs.InviteLinks(r.Context(), c, orgID, page)
	if err != nil {
		return err
	}
	return writeList(s, w, list, res, wire.FromInviteLink)
}

func (s *Server) getInviteLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	v, err := s.Orgs.InviteLink(r.Context(), c, r.PathValue("organizationId"), r.PathValue("inviteId"))
	if err != nil {
		return err
	}
	return ok(w, wire.FromInviteLink(v))
}

func (s *Server) patchInviteLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body inviteBody
	if err := decode(r, &body); err != nil {
		return err
	}
	if err := body.organizationOnly(); err != nil {
		return err
	}
	v, err := s.Orgs.SetInviteLinkRole(r.Context(), c, r.PathValue("organizationId"), r.PathValue("inviteId"), body.Role)
	if err != nil {
		return err
	}
	return ok(w, wire.FromInviteLink(v))
}

func (s *Server) deleteInviteLink(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Orgs.DeleteInviteLink(r.Context(), c, r.PathValue("organizationId"), r.PathValue("inviteId")); err != nil {
		return err
	}
	return noContent(w)
}

// joinWithInvite answers an empty object, as the public API does.
func (s *Server) joinWithInvite(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	if err := s.Orgs.JoinWithInvite(r.Context(), c, r.PathValue("organizationId"), r.PathValue("inviteId")); err != nil {
		return err
	}
	return ok(w, struct{}{})
}

func (s *Server) inviteUsers(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	var body struct {
		Emails []json.RawMessage `json:"emails"`
		Role   opt.Field[string] `json:"role"`
		SSO    *bool             `json:"sso"`
	}
	if err := decode(r, &body); err != nil {
		return err
	}
	if body.Emails == nil {
		return apperr.Invalidf("emails: is required (an array of email addresses)")
	}
	emails, err := parseEmailInvites(body.Emails)
	if err != nil {
		return err
	}
	req := org.InviteUsers{Emails: emails, Role: body.Role, SSO: body.SSO != nil && *body.SSO}
	res, err := s.Orgs.InviteUsers(r.Context(), c, r.PathValue("organizationId"), req)
	if err != nil {
		return err
	}
	return ok(w, wire.FromInviteUsersResult(res))
}

// parseEmailInvites reads the items of `emails`: each an address, or {email, role}.
func parseEmailInvites(items []json.RawMessage) ([]org.EmailInvite, error) {
	out := make([]org.EmailInvite, 0, len(items))
	for i, item := range items {
		field := "emails[" + strconv.Itoa(i) + "]"
		item = bytes.TrimSpace(item)
		var inv org.EmailInvite
		switch {
		case len(item) > 0 && item[0] == '"':
			if err := json.Unmarshal(item, &inv.Email); err != nil {
				return nil, apperr.Invalidf("%s: %v", field, err)
			}
		case len(item) > 0 && item[0] == '{':
			var fields map[string]json.RawMessage
			if err := json.Unmarshal(item, &fields); err != nil {
				return nil, apperr.Invalidf("%s: %v", field, err)
			}
			var err error
			if inv, err = emailInviteObject(field, fields); err != nil {
				return nil, err
			}
		default:
			return nil, apperr.Invalidf("%s: must be an email address or an object with email and role", field)
		}
		out = append(out, inv)
	}
	return out, nil
}

func emailInviteObject(field string, fields map[string]json.RawMessage) (org.EmailInvite, error) {
	var inv org.EmailInvite
	var unknown []string
	for k := range fields {
		if k != "email" && k != "role" {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return inv, apperr.Invalidf("%s.%s: unknown field", field, unknown[0])
	}
	email, ok := fields["email"]
	if !ok {
		return inv, apperr.Invalidf("%s.email: is required", field)
	}
	if err := json.Unmarshal(email, &inv.Email); err != nil {
		return inv, apperr.Invalidf("%s.email: must be a string", field)
	}
	role, ok := fields["role"]
	if !ok {
		return inv, apperr.Invalidf("%s.role: is required (a role, or null for guests)", field)
	}
	if err := json.Unmarshal(role, &inv.Role); err != nil {
		return inv, apperr.Invalidf("%s.role: must be a string or null", field)
	}
	return inv, nil
}

func (s *Server) joinOrganization(w http.ResponseWriter, r *http.Request, c auth.Caller) error {
	me, err := s.Accounts.Me(r.Context(), c)
	if err != nil {
		return err
	}
	if err := s.Orgs.JoinByEmailDomain(r.Context(), c, me, r.PathValue("organizationId")); err != nil {
		return err
	}
	return noContent(w)
}
