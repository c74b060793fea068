package store

import (
	"context"
	"errors"

	"docsd/internal/org"
	"docsd/internal/richtext"
)

func (t orgTx) AgentInstructions(ctx context.Context, orgID string) (org.AgentInstructions, error) {
	a := org.AgentInstructions{OrganizationID: orgID}
	var doc string
	var updated int64
	err := t.q.QueryRow(ctx, `SELECT document, updated_at, updated_by FROM agent_instructions WHERE organization_id = ?`, orgID).
		Scan(&doc, &updated, &a.UpdatedBy)
	if errors.Is(err, ErrNotFound) {
		return a, org.ErrNotFound
	}
	if err != nil {
		return a, err
	}
	at := FromMicros(updated)
	a.Instructions, a.UpdatedAt = richtext.FromStore([]byte(doc)), &at
	return a, nil
}

func (t orgTx) PutAgentInstructions(ctx context.Context, a org.AgentInstructions) error {
	if a.UpdatedAt == nil {
		return errors.New("store: agent instructions without an update time")
	}
	_, err := t.q.Exec(ctx, `INSERT INTO agent_instructions (organization_id, document, updated_at, updated_by) VALUES (?, ?, ?, ?)
		ON CONFLICT (organization_id) DO UPDATE SET document = excluded.document, updated_at = excluded.updated_at,
		updated_by = excluded.updated_by`,
		a.OrganizationID, string(a.Instructions.JSON()), Micros(*a.UpdatedAt), a.UpdatedBy)
	return err
}
