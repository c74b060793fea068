package store

import (
	"context"
	"database/sql"
	"errors"

	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/paging"
)

const samlColumns = `p.id, p.organization_id, p.label, p.entity_id, p.certificate, p.sso_url, p.default_team_id,
	p.default_role, p.status, p.created_at, p.updated_at`

func scanSAML(scan func(...any) error) (org.SAMLProvider, error) {
	var p org.SAMLProvider
	var team, role sql.NullString
	var created, updated int64
	err := scan(&p.ID, &p.OrganizationID, &p.Label, &p.EntityID, &p.Certificate, &p.SSOURL, &team, &role, &p.Status,
		&created, &updated)
	if err != nil {
		return p, err
	}
	p.DefaultTeamID, p.DefaultRole = StrPtr(team), auth.Role(role.String)
	p.CreatedAt, p.UpdatedAt = FromMicros(created), FromMicros(updated)
	return p, nil
}

func scanSAMLKeyed(scan func(...any) error) (org.SAMLProvider, []any, error) {
	p, err := scanSAML(scan)
	return p, []any{Micros(p.CreatedAt), p.ID}, err
}

func (t orgTx) InsertSAMLProvider(ctx context.Context, p org.SAMLProvider) error {
	_, err := t.q.Exec(ctx, `INSERT INTO saml_providers (id, organization_id, label, entity_id, certificate, sso_url,
		default_team_id, default_role, status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		p.ID, p.OrganizationID, p.Label, p.EntityID, p.Certificate, p.SSOURL, NullStr(p.DefaultTeamID),
		nullRole(p.DefaultRole), p.Status, Micros(p.CreatedAt), Micros(p.UpdatedAt))
	return err
}

func (t orgTx) SAMLProvider(ctx context.Context, orgID, id string) (org.SAMLProvider, error) {
	p, err := scanSAML(t.q.QueryRow(ctx, `SELECT `+samlColumns+` FROM saml_providers p
		WHERE p.organization_id = ? AND p.id = ?`, orgID, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return p, org.ErrNotFound
	}
	return p, err
}

func (t orgTx) UpdateSAMLProvider(ctx context.Context, p org.SAMLProvider) error {
	_, err := t.q.Exec(ctx, `UPDATE saml_providers SET label = ?, entity_id = ?, certificate = ?, sso_url = ?,
		default_team_id = ?, default_role = ?, status = ?, updated_at = ? WHERE organization_id = ? AND id = ?`,
		p.Label, p.EntityID, p.Certificate, p.SSOURL, NullStr(p.DefaultTeamID), nullRole(p.DefaultRole), p.Status,
		Micros(p.UpdatedAt), p.OrganizationID, p.ID)
	return err
}

func (t orgTx) DeleteSAMLProvider(ctx context.Context, orgID, id string) error {
	_, err := t.q.Exec(ctx, `DELETE FROM saml_providers WHERE organization_id = ? AND id = ?`, orgID, id)
	return err
}

func (t orgTx) SAMLProviders(ctx context.Context, orgID string, page paging.Request) (paging.Result[org.SAMLProvider], error) {
	return Page(ctx, t.q, List{
		Select: samlColumns,
		From:   `FROM saml_providers p`,
		Where:  []string{`p.organization_id = ?`},
		Args:   []any{orgID},
		Order:  []string{`p.created_at`, `p.id`},
	}, page, scanSAMLKeyed)
}

func (t orgTx) ActiveSAMLProviders(ctx context.Context, orgID string) ([]org.SAMLProvider, error) {
	rows, err := t.q.Query(ctx, `SELECT `+samlColumns+` FROM saml_providers p WHERE p.organization_id = ? AND p.status = ?
		ORDER BY p.created_at, p.id`, orgID, org.SAMLActive)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []org.SAMLProvider{}
	for rows.Next() {
		p, err := scanSAML(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, mapErr(rows.Err())
}
