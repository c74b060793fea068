package store

import (
	"context"
	"database/sql"
	"errors"

	"docsd/internal/auth"
	"docsd/internal/org"
)

// memberColumns selects a membership with its user and counts; m is members, u is users.
const memberColumns = `m.organization_id, m.role, m.disabled, m.sso, m.joined_at, m.last_seen_at,
	u.id, u.email, u.email_verified, u.display_name, u.photo_url, u.created_at,
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id),
	(SELECT COUNT(*) FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE tm.user_id = m.user_id AND t.organization_id = m.organization_id AND tm.role = 'owner')`

func scanMember(scan func(...any) error) (org.Member, error) {
	var m org.Member
	var role sql.NullString
	var joined, userCreated int64
	var seen sql.NullInt64
	var owned int
	err := scan(&m.OrganizationID, &role, &m.Disabled, &m.SSO, &joined, &seen,
		&m.User.ID, &m.User.Email, &m.User.EmailVerified, &m.User.DisplayName, &m.User.PhotoURL, &userCreated,
		&m.Teams, &owned)
	if err != nil {
		return m, err
	}
	m.Role = auth.Role(role.String)
	m.JoinedAt, m.LastSeenAt = FromMicros(joined), TimePtr(seen)
	m.User.CreatedAt = FromMicros(userCreated)
	m.OwnsTeam = owned > 0
	return m, nil
}

func (t orgTx) Member(ctx context.Context, orgID, userID string) (org.Member, error) {
	m, err := scanMember(t.q.QueryRow(ctx, `SELECT `+memberColumns+` FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.organization_id = ? AND m.user_id = ?`, orgID, userID).Scan)
	if errors.Is(err, ErrNotFound) {
		return m, org.ErrNotFound
	}
	return m, err
}

func (t orgTx) InsertMember(ctx context.Context, m org.Member) error {
	_, err := t.q.Exec(ctx, `INSERT INTO members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, m.OrganizationID, m.User.ID, nullRole(m.Role), m.Disabled, m.SSO,
		Micros(m.JoinedAt), NullMicros(m.LastSeenAt))
	return err
}

func (t orgTx) UpsertMember(ctx context.Context, m org.Member) error {
	_, err := t.q.Exec(ctx, `INSERT INTO members (organization_id, user_id, role, disabled, sso, joined_at, last_seen_at)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role`,
		m.OrganizationID, m.User.ID, nullRole(m.Role), m.Disabled, m.SSO, Micros(m.JoinedAt), NullMicros(m.LastSeenAt))
	return err
}
