package org

import (
	"context"
	"time"

	"docsd/internal/account"
	"docsd/internal/auth"
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
	Spaces         int  // spaces the member can access
	Teams          int  // teams the member belongs to
	OwnsTeam       bool // the member owns at least one team
}

// MemberTx stores memberships.
type MemberTx interface {
	// Member returns userID's membership of orgID, with its user and counts; ErrNotFound if none.
	Member(ctx context.Context, orgID, userID string) (Member, error)
	InsertMember(ctx context.Context, m Member) error
	// UpsertMember inserts a membership, or sets the role of an existing one.
	UpsertMember(ctx context.Context, m Member) error
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
