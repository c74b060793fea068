package store

import (
	"context"
	"database/sql"
	"errors"

	"docsd/internal/auth"
)

// accessGenerationSQL reads the access generation (migration 00130): triggers add one to it
// in the transaction of any change to what decides a role. Reading it in the statement that
// reads the facts labels them with the generation they hold at.
const accessGenerationSQL = `SELECT n FROM access_generation WHERE id = 1`

// memberRoleSQL is the one statement that reads a member's role (access.Store); spaceAccessSQL
// joins the same row for the space's organization.
const memberRoleSQL = `SELECT role, disabled FROM members WHERE organization_id = ? AND user_id = ?`

func memberRole(ctx context.Context, q *Q, orgID, userID string) (auth.Role, bool, error) {
	var role sql.NullString
	var disabled bool
	err := q.QueryRow(ctx, memberRoleSQL, orgID, userID).Scan(&role, &disabled)
	if errors.Is(err, ErrNotFound) {
		return auth.Guest, false, nil
	}
	return auth.Role(role.String), err == nil && !disabled, err
}

func (t spaceTx) MemberRole(ctx context.Context, orgID, userID string) (auth.Role, bool, error) {
	return memberRole(ctx, t.q, orgID, userID)
}

func (t orgTx) MemberRole(ctx context.Context, orgID, userID string) (auth.Role, bool, error) {
	return memberRole(ctx, t.q, orgID, userID)
}

func (t siteTx) MemberRole(ctx context.Context, orgID, userID string) (auth.Role, bool, error) {
	return memberRole(ctx, t.q, orgID, userID)
}
