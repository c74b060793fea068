package org

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/paging"
	"docsd/internal/richtext"
)

// AgentInstructions are an organization's instructions to its docs agent.
type AgentInstructions struct {
	OrganizationID string
	Instructions   richtext.Document
	UpdatedAt      *time.Time // the last change; the organization's creation until an admin sets them
	UpdatedBy      string     // user id of the member who last set them; the owner until then
}

// AgentTx stores docs-agent instructions.
type AgentTx interface {
	// AgentInstructions returns orgID's instructions; ErrNotFound if none were ever set.
	AgentInstructions(ctx context.Context, orgID string) (AgentInstructions, error)
	// PutAgentInstructions inserts or replaces an organization's instructions.
	PutAgentInstructions(ctx context.Context, a AgentInstructions) error
}

// AgentInstructions returns orgID's docs-agent instructions to a member (guests: 403). Before
// an admin first sets them they are the empty document the organization was made with: last
// set when it was created, by its owner (see initialInstructions).
func (s *Service) AgentInstructions(ctx context.Context, c auth.Caller, orgID string) (AgentInstructions, error) {
	tx := s.store.Read()
	if _, err := s.requireMember(ctx, tx, c, orgID); err != nil {
		return AgentInstructions{}, err
	}
	a, err := tx.AgentInstructions(ctx, orgID)
	if errors.Is(err, ErrNotFound) {
		return initialInstructions(ctx, tx, orgID)
	}
	return a, err
}

// initialInstructions are the instructions an organization has before any are set: empty,
// dated from the organization's creation and attributed to its owner. The API requires
// updatedAt and updatedBy. Organizations do not record their creator apart from membership:
// Create makes the owner the first admin, so the owner is the admin who joined first (the
// next one, should the owner have left; the earliest member when there is no admin at all).
func initialInstructions(ctx context.Context, tx Tx, orgID string) (AgentInstructions, error) {
	o, err := tx.Organization(ctx, orgID)
	if err != nil {
		return AgentInstructions{}, err
	}
	created := o.CreatedAt
	a := AgentInstructions{OrganizationID: orgID, Instructions: richtext.Empty(), UpdatedAt: &created}
	admin := auth.Admin
	for _, f := range []MemberFilter{{Role: &admin, Sort: SortJoinedAt}, {Sort: SortJoinedAt}} {
		first, err := tx.Members(ctx, orgID, f, paging.Request{Limit: 1})
		if err != nil {
			return AgentInstructions{}, err
		}
		if len(first.Items) > 0 {
			a.UpdatedBy = first.Items[0].User.ID
			break
		}
	}
	return a, nil
}

// SetAgentInstructions replaces orgID's docs-agent instructions; only admins may. raw is the
// rich-text document of the request's `instructions` field (nil when the field was absent).
func (s *Service) SetAgentInstructions(ctx context.Context, c auth.Caller, orgID string, raw json.RawMessage) (AgentInstructions, error) {
	if len(raw) == 0 {
		return AgentInstructions{}, apperr.Invalidf("instructions: is required (a rich-text document)")
	}
	doc, err := richtext.Validate("instructions", raw)
	if err != nil {
		return AgentInstructions{}, err
	}
	now := s.clock.Now()
	a := AgentInstructions{OrganizationID: orgID, Instructions: doc, UpdatedAt: &now, UpdatedBy: c.UserID}
	err = s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		return tx.PutAgentInstructions(ctx, a)
	})
	if err != nil {
		return AgentInstructions{}, err
	}
	return a, nil
}
