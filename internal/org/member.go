package org

import (
	"context"
	"errors"
	"time"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/opt"
	"docsd/internal/paging"
)

// Member is a user's membership of an organization.
type Member struct {
	OrganizationID string
	User           account.User
	Role           auth.Role // Guest for guests
	Disabled       bool
	SSO            bool
	JoinedAt       time.Time
	LastSeenAt     *time.Time
	Spaces         int  // live spaces the member can access (see SpaceCounter)
	Sites          int  // sites the member can access (see SiteCounter)
	Teams          int  // teams the member belongs to
	OwnsTeam       bool // the member owns at least one team
}

// MemberSort names the property a member list is ordered by.
type MemberSort string

const (
	SortJoinedAt   MemberSort = "joinedAt"
	SortLastSeenAt MemberSort = "lastSeenAt" // lists only members who have been seen
)

// MemberFilter selects and orders the members of a list.
type MemberFilter struct {
	Role   *auth.Role // nil: every role; a pointer to Guest: guests only
	Search string     // case-insensitive contains on display name and email; "" matches all
	Sort   MemberSort
	Desc   bool
	// Commented, when set, keeps the members who wrote a comment or a reply there.
	Commented *CommentScope
}

// CommentScope is where comments are looked for: a space's own comments (ChangeRequestID
// "") or one change request's.
type CommentScope struct {
	SpaceID, ChangeRequestID string
}

// MemberTx stores memberships.
type MemberTx interface {
	// Member returns userID's membership of orgID, with its user and counts; ErrNotFound if none.
	Member(ctx context.Context, orgID, userID string) (Member, error)
	// Members lists orgID's memberships (disabled ones too), ordered by f.Sort then user id.
	Members(ctx context.Context, orgID string, f MemberFilter, page paging.Request) (paging.Result[Member], error)
	InsertMember(ctx context.Context, m Member) error
	// UpsertMember inserts a membership, or sets the role of an existing one.
	UpsertMember(ctx context.Context, m Member) error
	// The setters change one column each, so concurrent requests touching different
	// properties of a membership cannot undo one another.
	SetMemberRole(ctx context.Context, orgID, userID string, role auth.Role) error
	SetMemberSSO(ctx context.Context, orgID, userID string, sso bool) error
	SetMemberLastSeen(ctx context.Context, orgID, userID string, at time.Time) error
	// DeleteMember removes a membership and the user's memberships of the organization's
	// teams. Removing an absent membership is not an error.
	DeleteMember(ctx context.Context, orgID, userID string) error
	// OtherActiveAdmins counts orgID's enabled admins other than userID. Inside a write
	// transaction it first locks the organization, so two transactions that each remove a
	// different admin are serialized and the second one counts after the first one's change.
	OtherActiveAdmins(ctx context.Context, orgID, userID string) (int, error)
}

// AddMember makes userID a member of orgID with role, or changes the role of an existing
// membership. It checks no permissions: it serves administration commands and flows (invites,
// domain joins, SAML logins) that have already decided the user may join.
func (s *Service) AddMember(ctx context.Context, orgID, userID string, role auth.Role) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		return tx.UpsertMember(ctx, Member{OrganizationID: orgID, User: account.User{ID: userID}, Role: role, JoinedAt: now})
	})
}

// Members lists an organization's members. Guests may not (403); outsiders get 404.
func (s *Service) Members(ctx context.Context, c auth.Caller, orgID string, f MemberFilter, page paging.Request) (paging.Result[Member], error) {
	tx := s.store.Read()
	if _, err := s.requireMember(ctx, tx, c, orgID); err != nil {
		return paging.Result[Member]{}, err
	}
	if f.Sort == "" {
		f.Sort = SortJoinedAt
	}
	res, err := tx.Members(ctx, orgID, f, page)
	if err != nil {
		return res, err
	}
	return res, s.countMemberSpaces(ctx, orgID, res.Items)
}

// Commenters lists the members of orgID who commented in the scope, in the order they
// joined. The caller's right to read the space or change request is checked by whoever asks
// (the lists are answered to those who can read the comments themselves).
func (s *Service) Commenters(ctx context.Context, orgID string, scope CommentScope, page paging.Request) (paging.Result[Member], error) {
	res, err := s.store.Read().Members(ctx, orgID, MemberFilter{Sort: SortJoinedAt, Commented: &scope}, page)
	if err != nil {
		return res, err
	}
	return res, s.countMemberSpaces(ctx, orgID, res.Items)
}

// Member returns one membership. Members read anyone's; a guest reads only their own (403
// for others). Outsiders get 404, and so does a user who is not a member.
func (s *Service) Member(ctx context.Context, c auth.Caller, orgID, userID string) (Member, error) {
	tx := s.store.Read()
	m, err := s.access(ctx, tx, c, orgID)
	if err != nil {
		return Member{}, err
	}
	if userID != c.UserID {
		if m.Role == auth.Guest {
			return Member{}, apperr.Forbiddenf("guests may read only their own membership")
		}
		if m, err = s.target(ctx, tx, orgID, userID); err != nil {
			return Member{}, err
		}
	}
	return s.withSpaceCount(ctx, m)
}

// target loads the member an operation applies to, as a 404 when absent.
func (s *Service) target(ctx context.Context, tx Tx, orgID, userID string) (Member, error) {
	m, err := tx.Member(ctx, orgID, userID)
	if errors.Is(err, ErrNotFound) {
		return Member{}, apperr.NotFoundf("member %s not found in organization %s", userID, orgID)
	}
	return m, err
}

// MemberUpdate holds what a PATCH of a member may change.
type MemberUpdate struct {
	Role opt.Field[string] // a role name, or null for guest; absent leaves the role as is
}

func (u MemberUpdate) role() (auth.Role, error) {
	if u.Role.Null {
		return auth.Guest, nil
	}
	r, ok := auth.ParseRole(u.Role.Value)
	if !ok {
		return auth.Guest, apperr.Invalidf("role: must be one of %s, or null for guest (got %q)", auth.RoleNames(), u.Role.Value)
	}
	return r, nil
}

// PatchMember changes a member's role; only admins may (403). The organization keeps at
// least one admin: demoting the last one is a conflict (409, see keepAnAdmin).
func (s *Service) PatchMember(ctx context.Context, c auth.Caller, orgID, userID string, u MemberUpdate) (Member, error) {
	var role auth.Role
	if u.Role.Set {
		var err error
		if role, err = u.role(); err != nil {
			return Member{}, err
		}
	}
	var out Member
	err := s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		m, err := s.target(ctx, tx, orgID, userID)
		if err != nil {
			return err
		}
		if u.Role.Set && role != m.Role {
			if role != auth.Admin {
				if err := s.keepAnAdmin(ctx, tx, m, "demote"); err != nil {
					return err
				}
			}
			if err := tx.SetMemberRole(ctx, orgID, userID, role); err != nil {
				return err
			}
			m.Role = role
		}
		out = m
		return nil
	})
	if err != nil {
		return out, err
	}
	return s.withSpaceCount(ctx, out)
}

// keepAnAdmin refuses a change that would take away the organization's last enabled admin.
// It answers 409 Conflict rather than 400: the request is well formed and would be accepted
// in another state of the organization (once another admin exists).
func (s *Service) keepAnAdmin(ctx context.Context, tx Tx, m Member, action string) error {
	if m.Role != auth.Admin || m.Disabled {
		return nil
	}
	n, err := tx.OtherActiveAdmins(ctx, m.OrganizationID, m.User.ID)
	if err != nil {
		return err
	}
	if n == 0 {
		return apperr.Conflictf("cannot %s the last admin of organization %s: make another member admin first", action, m.OrganizationID)
	}
	return nil
}

// RemoveMember takes userID out of the organization and out of its teams. Admins may remove
// anyone and members may remove themselves (403 otherwise); removing the last admin is a
// conflict (409). Removing a user who is not a member succeeds and changes nothing.
func (s *Service) RemoveMember(ctx context.Context, c auth.Caller, orgID, userID string) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		me, err := s.access(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		if userID != c.UserID && me.Role != auth.Admin {
			return apperr.Forbiddenf("only organization admins may remove other members")
		}
		m, err := tx.Member(ctx, orgID, userID)
		if errors.Is(err, ErrNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		if err := s.keepAnAdmin(ctx, tx, m, "remove"); err != nil {
			return err
		}
		return tx.DeleteMember(ctx, orgID, userID)
	})
}

// SetMemberSSO marks a member as one who signs in with SSO; only admins may.
func (s *Service) SetMemberSSO(ctx context.Context, c auth.Caller, orgID, userID string) (Member, error) {
	var out Member
	err := s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		m, err := s.target(ctx, tx, orgID, userID)
		if err != nil {
			return err
		}
		if err := tx.SetMemberSSO(ctx, orgID, userID, true); err != nil {
			return err
		}
		m.SSO = true
		out = m
		return nil
	})
	if err != nil {
		return out, err
	}
	return s.withSpaceCount(ctx, out)
}

// Ping records that the caller was seen in the organization now. Any member may, guests
// included: it is their own record.
func (s *Service) Ping(ctx context.Context, c auth.Caller, orgID string) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.access(ctx, tx, c, orgID); err != nil {
			return err
		}
		return tx.SetMemberLastSeen(ctx, orgID, c.UserID, now)
	})
}
