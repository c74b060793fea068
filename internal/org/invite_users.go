package org

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
)

// MaxInviteEmails is how many addresses one invitation request may list.
const MaxInviteEmails = 100

// emailMax is the longest address SMTP can carry (RFC 5321 path limit less the brackets).
const emailMax = 254

// EmailInvite is one address of an invitation, with its own role when given.
type EmailInvite struct {
	Email string
	Role  opt.Field[string] // unset: the request's role
}

// InviteUsers is an invitation of people by email.
type InviteUsers struct {
	Emails []EmailInvite
	Role   opt.Field[string] // unset: the organization's default role; null: guests
	SSO    bool              // make them SSO members
}

// InviteUsersResult says what an invitation did.
type InviteUsersResult struct {
	// Users are the ids of the invited users, one per address, in the order given.
	Users []string
	// Invited counts the users who were not members before.
	Invited int
	// FailedSSOEmails lists addresses that could not be made SSO members because the user
	// belongs to another organization; they were added as ordinary members. Nil unless SSO
	// was asked for.
	FailedSSOEmails []string
}

type resolvedInvite struct {
	email    string
	role     auth.Role
	fallback bool // the role is still to be taken from the organization's default
}

func (req InviteUsers) resolve() ([]resolvedInvite, error) {
	if n := len(req.Emails); n < 1 || n > MaxInviteEmails {
		return nil, apperr.Invalidf("emails: must list 1 to %d email addresses (got %d)", MaxInviteEmails, n)
	}
	var def auth.Role
	fallback := !req.Role.Set
	if req.Role.Set {
		r, err := roleField("role", req.Role)
		if err != nil {
			return nil, err
		}
		def = r
	}
	seen := map[string]int{}
	out := make([]resolvedInvite, 0, len(req.Emails))
	for i, e := range req.Emails {
		field := "emails[" + strconv.Itoa(i) + "]"
		email := strings.TrimSpace(e.Email)
		if len(email) > emailMax {
			return nil, apperr.Invalidf("%s: must be at most %d characters (got %d)", field, emailMax, len(email))
		}
		norm, err := account.NormalizeEmail(email)
		if err != nil {
			return nil, apperr.Invalidf("%s: must be an email address (got %q)", field, email)
		}
		if j, dup := seen[norm]; dup {
			return nil, apperr.Invalidf("%s: %s is already listed at emails[%d]", field, norm, j)
		}
		seen[norm] = i
		r := resolvedInvite{email: norm, role: def, fallback: fallback}
		if e.Role.Set {
			role, err := roleField(field+".role", e.Role)
			if err != nil {
				return nil, err
			}
			r.role, r.fallback = role, false
		}
		out = append(out, r)
	}
	return out, nil
}

// InviteUsers makes the people at the given addresses members of orgID; only admins may.
// Existing users join at once. For an address no user has, a user record is made with the
// email unverified and the address's local part as display name, and joins the organization;
// that person can use the API once an administrator of the server issues them a token
// (`docsd admin create-token --email ...`). A user who is already a member keeps the stronger
// of their role and the invited one. Either every address is handled or none is.
func (s *Service) InviteUsers(ctx context.Context, c auth.Caller, orgID string, req InviteUsers) (InviteUsersResult, error) {
	invites, err := req.resolve()
	if err != nil {
		return InviteUsersResult{}, err
	}
	now := s.clock.Now()
	var res InviteUsersResult
	err = s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		o, err := tx.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		res = InviteUsersResult{Users: make([]string, 0, len(invites))}
		if req.SSO {
			res.FailedSSOEmails = []string{}
		}
		for _, inv := range invites {
			role := inv.role
			if inv.fallback {
				role = o.DefaultRole
			}
			u, _, err := tx.EnsureUser(ctx, account.User{ID: ids.New(), Email: inv.email, DisplayName: nameFromEmail(inv.email), CreatedAt: now})
			if err != nil {
				return err
			}
			m := Member{OrganizationID: orgID, User: u, Role: role, JoinedAt: now}
			if req.SSO {
				elsewhere, err := tx.MemberElsewhere(ctx, u.ID, orgID)
				if err != nil {
					return err
				}
				if elsewhere {
					res.FailedSSOEmails = append(res.FailedSSOEmails, inv.email)
				} else {
					m.SSO = true
				}
			}
			added, err := tx.JoinMember(ctx, m)
			if err != nil {
				return err
			}
			res.Users = append(res.Users, u.ID)
			if added {
				res.Invited++
			}
		}
		return nil
	})
	return res, err
}

// JoinByEmailDomain lets the caller join orgID with the organization's default role when
// their verified email's domain is one the organization accepts. To anyone else the
// organization stays private (404). A caller who is already a member gets nothing new: the
// call succeeds and changes nothing (unless an administrator disabled the membership: 403).
func (s *Service) JoinByEmailDomain(ctx context.Context, c auth.Caller, me account.User, orgID string) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		m, member, err := s.membership(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		if member {
			if m.Disabled {
				return membershipDisabled(orgID)
			}
			return nil
		}
		o, err := tx.Organization(ctx, orgID)
		notFound := errors.Is(err, ErrNotFound)
		if err != nil && !notFound {
			return err
		}
		if notFound || !me.EmailVerified || !containsString(o.EmailDomains, me.EmailDomain()) {
			return apperr.NotFoundf("organization %s not found", orgID)
		}
		_, err = tx.JoinMember(ctx, Member{OrganizationID: orgID, User: account.User{ID: c.UserID}, Role: o.DefaultRole, JoinedAt: now})
		return err
	})
}

// nameFromEmail is the display name of a user made by an invitation: the address's local part,
// cut to the longest display name a user may set.
func nameFromEmail(email string) string {
	local, _, _ := strings.Cut(email, "@")
	if r := []rune(local); len(r) > account.DisplayNameMax {
		local = string(r[:account.DisplayNameMax])
	}
	return local
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
