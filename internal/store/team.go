package store

import (
	"context"
	"errors"

	"docsd/internal/org"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

// teamColumns selects a team (alias t) with its member count. Only users who are still
// members of the organization count, so a membership that ended leaves no trace here.
const teamColumns = `t.id, t.organization_id, t.title, t.created_at,
	(SELECT COUNT(*) FROM team_members c JOIN members cm ON cm.organization_id = t.organization_id AND cm.user_id = c.user_id
		WHERE c.team_id = t.id)`

func scanTeam(scan func(...any) error, extra ...any) (org.Team, error) {
	var t org.Team
	var created int64
	if err := scan(append([]any{&t.ID, &t.OrganizationID, &t.Title, &created, &t.Members}, extra...)...); err != nil {
		return t, err
	}
	t.CreatedAt = FromMicros(created)
	return t, nil
}

func (t orgTx) InsertTeam(ctx context.Context, team org.Team) error {
	_, err := t.q.Exec(ctx, `INSERT INTO teams (id, organization_id, title, created_at) VALUES (?, ?, ?, ?)`,
		team.ID, team.OrganizationID, team.Title, Micros(team.CreatedAt))
	return t.q.emitAfter(err, outbox.TeamCreated, team.OrganizationID, "", team.ID, nil)
}

func (t orgTx) Team(ctx context.Context, orgID, teamID string) (org.Team, error) {
	team, err := scanTeam(t.q.QueryRow(ctx, `SELECT `+teamColumns+` FROM teams t WHERE t.organization_id = ? AND t.id = ?`,
		orgID, teamID).Scan)
	if errors.Is(err, ErrNotFound) {
		return team, org.ErrNotFound
	}
	return team, err
}

func (t orgTx) LockTeam(ctx context.Context, orgID, teamID string) error {
	var id string
	err := t.q.QueryRow(ctx, `SELECT id FROM teams WHERE organization_id = ? AND id = ?`+t.q.ForUpdate(), orgID, teamID).Scan(&id)
	if errors.Is(err, ErrNotFound) {
		return org.ErrNotFound
	}
	return err
}

func (t orgTx) UpdateTeamTitle(ctx context.Context, orgID, teamID, title string) error {
	_, err := t.q.Exec(ctx, `UPDATE teams SET title = ? WHERE organization_id = ? AND id = ?`, title, orgID, teamID)
	return t.q.emitAfter(err, outbox.TeamUpdated, orgID, "", teamID, nil)
}

func (t orgTx) DeleteTeam(ctx context.Context, orgID, teamID string) error {
	// team_members rows go with the team (ON DELETE CASCADE); SAML providers that defaulted
	// to it lose their default team (ON DELETE SET NULL).
	_, err := t.q.Exec(ctx, `DELETE FROM teams WHERE organization_id = ? AND id = ?`, orgID, teamID)
	return t.q.emitAfter(err, outbox.TeamDeleted, orgID, "", teamID, nil)
}

func (t orgTx) Teams(ctx context.Context, orgID string, f org.TeamFilter, page paging.Request) (paging.Result[org.Team], error) {
	l := List{
		Select: teamColumns,
		From:   `FROM teams t`,
		Where:  []string{`t.organization_id = ?`},
		Args:   []any{orgID},
		Order:  []string{`t.created_at`, `t.id`},
	}
	if f.Title != "" {
		l.Where = append(l.Where, `LOWER(t.title) LIKE ? ESCAPE '\'`)
		l.Args = append(l.Args, Like(f.Title))
	}
	if f.OwnerID != "" {
		l.Where = append(l.Where, `EXISTS (SELECT 1 FROM team_members o WHERE o.team_id = t.id AND o.user_id = ? AND o.role = ?)`)
		l.Args = append(l.Args, f.OwnerID, string(org.TeamOwner))
	}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (org.Team, []any, error) {
		team, err := scanTeam(scan)
		return team, []any{Micros(team.CreatedAt), team.ID}, err
	})
}
