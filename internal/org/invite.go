package org

import (
	"context"
	"errors"
	"time"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/opt"
	"docsd/internal/paging"
)

// InviteLink is a reusable link that lets whoever holds its id join an organization with a
// role. The id is the secret, so it is long and random (ids.Secret), never sequential.
type InviteLink struct {
	ID             string
	OrganizationID string
	Role           auth.Role // Guest: joiners become guests
	CreatedBy      string
	CreatedAt      time.Time
}

// InviteView is an invite link as one caller sees it.
type InviteView struct {
	InviteLink
	// Redundant: the caller's membership already includes everything the invite grants.
	Redundant bool
}

// InviteTx stores invite links, and the membership and user writes that joining needs.
type InviteTx interface {
	InsertInviteLink(ctx context.Context, l InviteLink) error
	// InviteLink returns the invite id of orgID; ErrNotFound if none.
	InviteLink(ctx context.Context, orgID, id string) (InviteLink, error)
	// InviteLinks lists orgID's invites, oldest first.
	InviteLinks(ctx context.Context, orgID string, page paging.Request) (paging.Result[InviteLink], error)
	// SetInviteLinkRole changes an invite's role; ErrNotFound if there is no such invite.
	SetInviteLinkRole(ctx context.Context, orgID, id string, role auth.Role) error
	// DeleteInviteLink removes an invite; removing an absent one is not an error.
	DeleteInviteLink(ctx context.Context, orgID, id string) error
	// JoinMember makes m.User a member with m.Role, or, for an existing member, raises the
	// role to m.Role when that is stronger and sets the SSO flag when m.SSO is set. It never
	// lowers a role. added reports whether a new membership was made.
	JoinMember(ctx context.Context, m Member) (added bool, err error)
	// EnsureUser returns the user with u.Email, inserting u when there is none.
	EnsureUser(ctx context.Context, u account.User) (user account.User, created bool, err error)
	// MemberElsewhere reports whether userID belongs to an organization other than orgID.
	MemberElsewhere(ctx context.Context, userID, orgID string) (bool, error)
}

// roleField reads a required role-or-guest field of a request: a role name, or null for guests.
func roleField(field string, f opt.Field[string]) (auth.Role, error) {
	if !f.Set {
		return auth.Guest, apperr.Invalidf("%s: is required (a role, or null for guests)", field)
	}
	if f.Null {
		return auth.Guest, nil
	}
	r, ok := auth.ParseRole(f.Value)
	if !ok {
		return auth.Guest, apperr.Invalidf("%s: must be one of %s, or null (got %q)", field, auth.RoleNames(), f.Value)
	}
	return r, nil
}

// includes reports whether a membership already grants role: any enabled membership includes
// the guest role; otherwise the member's role must be at least role.
func includes(m Member, member bool, role auth.Role) bool {
	if !member || m.Disabled {
		return false
	}
	return role == auth.Guest || m.Role.AtLeast(role)
}

func inviteLinksDisabled(orgID string) error {
	return apperr.Forbiddenf("invite links are disabled in organization %s (see its inviteLinks setting)", orgID)
}

func inviteNotFound(id string) error { return apperr.NotFoundf("invite %s not found", id) }

// CreateInviteLink makes an invite link to orgID. Only admins may, and only while the
// organization has invite links enabled (403 otherwise).
func (s *Service) CreateInviteLink(ctx context.Context, c auth.Caller, orgID string, roleIn opt.Field[string]) (InviteView, error) {
	role, err := roleField("role", roleIn)
	if err != nil {
		return InviteView{}, err
	}
	now := s.clock.Now()
	var v InviteView
	err = s.store.Write(ctx, now, func(tx Tx) error {
		m, err := s.requireAdmin(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		o, err := tx.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		if !o.InviteLinks {
			return inviteLinksDisabled(orgID)
		}
		l := InviteLink{ID: ids.Secret(), OrganizationID: orgID, Role: role, CreatedBy: c.UserID, CreatedAt: now}
		if err := tx.InsertInviteLink(ctx, l); err != nil {
			return err
		}
		v = InviteView{InviteLink: l, Redundant: includes(m, true, role)}
		return nil
	})
	return v, err
}

// InviteLinks lists an organization's invite links; only admins may.
func (s *Service) InviteLinks(ctx context.Context, c auth.Caller, orgID string, page paging.Request) (paging.Result[InviteView], error) {
	tx := s.store.Read()
	m, err := s.requireAdmin(ctx, tx, c, orgID)
	if err != nil {
		return paging.Result[InviteView]{}, err
	}
	res, err := tx.InviteLinks(ctx, orgID, page)
	if err != nil {
		return paging.Result[InviteView]{}, err
	}
	out := paging.Result[InviteView]{Count: res.Count, Next: res.Next, Items: make([]InviteView, 0, len(res.Items))}
	for _, l := range res.Items {
		out.Items = append(out.Items, InviteView{InviteLink: l, Redundant: includes(m, true, l.Role)})
	}
	return out, nil
}

// InviteLink returns one invite link. Its id is the secret that lets one join, so anyone who
// holds it may look at it (to see the role it grants and whether it would change anything for
// them), member of the organization or not; admins see every invite of their organization.
func (s *Service) InviteLink(ctx context.Context, c auth.Caller, orgID, id string) (InviteView, error) {
	tx := s.store.Read()
	l, err := tx.InviteLink(ctx, orgID, id)
	if errors.Is(err, ErrNotFound) {
		return InviteView{}, inviteNotFound(id)
	}
	if err != nil {
		return InviteView{}, err
	}
	m, member, err := s.membership(ctx, tx, c, orgID)
	if err != nil {
		return InviteView{}, err
	}
	return InviteView{InviteLink: l, Redundant: includes(m, member, l.Role)}, nil
}

// SetInviteLinkRole changes the role an invite link grants; only admins may.
func (s *Service) SetInviteLinkRole(ctx context.Context, c auth.Caller, orgID, id string, roleIn opt.Field[string]) (InviteView, error) {
	role, err := roleField("role", roleIn)
	if err != nil {
		return InviteView{}, err
	}
	var v InviteView
	err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		m, err := s.requireAdmin(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		err = tx.SetInviteLinkRole(ctx, orgID, id, role)
		if errors.Is(err, ErrNotFound) {
			return inviteNotFound(id)
		}
		if err != nil {
			return err
		}
		l, err := tx.InviteLink(ctx, orgID, id)
		if err != nil {
			return err
		}
		v = InviteView{InviteLink: l, Redundant: includes(m, true, l.Role)}
		return nil
	})
	return v, err
}

// DeleteInviteLink removes an invite link; only admins may. An absent invite is not an error.
func (s *Service) DeleteInviteLink(ctx context.Context, c auth.Caller, orgID, id string) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		return tx.DeleteInviteLink(ctx, orgID, id)
	})
}

// JoinWithInvite makes the caller a member of orgID with the invite's role. A caller who is
// already a member keeps the stronger of their role and the invite's: an invite never demotes.
// It is refused (403) while the organization has invite links disabled, and for a caller
// whose membership an administrator disabled.
func (s *Service) JoinWithInvite(ctx context.Context, c auth.Caller, orgID, id string) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		l, err := tx.InviteLink(ctx, orgID, id)
		if errors.Is(err, ErrNotFound) {
			return inviteNotFound(id)
		}
		if err != nil {
			return err
		}
		o, err := tx.Organization(ctx, orgID)
		if err != nil {
			return err
		}
		if !o.InviteLinks {
			return inviteLinksDisabled(orgID)
		}
		m, member, err := s.membership(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		if member && m.Disabled {
			return membershipDisabled(orgID)
		}
		_, err = tx.JoinMember(ctx, Member{OrganizationID: orgID, User: account.User{ID: c.UserID}, Role: l.Role, JoinedAt: now})
		return err
	})
}

// membership returns the caller's membership of orgID, if any, without deciding access.
func (s *Service) membership(ctx context.Context, tx Tx, c auth.Caller, orgID string) (Member, bool, error) {
	m, err := tx.Member(ctx, orgID, c.UserID)
	if errors.Is(err, ErrNotFound) {
		return Member{}, false, nil
	}
	return m, err == nil, err
}

func membershipDisabled(orgID string) error {
	return apperr.Forbiddenf("your membership of organization %s is disabled; an administrator must enable it", orgID)
}
