package store

import (
	"context"
	"errors"
	"time"

	"docsd/internal/org"
	"docsd/internal/outbox"
	"docsd/internal/paging"
)

func (t orgTx) TeamRole(ctx context.Context, teamID, userID string) (org.TeamRole, error) {
	var role string
	err := t.q.QueryRow(ctx, `SELECT role FROM team_members WHERE team_id = ? AND user_id = ?`, teamID, userID).Scan(&role)
	if errors.Is(err, ErrNotFound) {
		return "", org.ErrNotFound
	}
	return org.TeamRole(role), err
}

func (t orgTx) TeamRolesOf(ctx context.Context, orgID, userID string) (map[string]org.TeamRole, error) {
	rows, err := t.q.Query(ctx, `SELECT tm.team_id, tm.role FROM team_members tm JOIN teams t ON t.id = tm.team_id
		WHERE t.organization_id = ? AND tm.user_id = ?`, orgID, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	roles := map[string]org.TeamRole{}
	for rows.Next() {
		var id, role string
		if err := rows.Scan(&id, &role); err != nil {
			return nil, err
		}
		roles[id] = org.TeamRole(role)
	}
	return roles, mapErr(rows.Err())
}

func (t orgTx) SetTeamMember(ctx context.Context, teamID, userID string, role org.TeamRole, at time.Time) error {
	// A user already on the team keeps the time they joined it, so the member list's order
	// does not change when a role does.
	_, err := t.q.Exec(ctx, `INSERT INTO team_members (team_id, user_id, role, added_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (team_id, user_id) DO UPDATE SET role = excluded.role`, teamID, userID, string(role), Micros(at))
	if errors.Is(err, ErrForeignKeyViolation) {
		return org.ErrNotFound
	}
	return t.q.emitAfter(err, outbox.TeamMemberSet, "", "", userID, memberEvent{Role: string(role), Team: teamID})
}

func (t orgTx) RemoveTeamMember(ctx context.Context, teamID, userID string) (bool, error) {
	res, err := t.q.Exec(ctx, `DELETE FROM team_members WHERE team_id = ? AND user_id = ?`, teamID, userID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, err
	}
	return true, t.q.Emit(outbox.TeamMemberRemoved, "", "", userID, memberEvent{Team: teamID})
}

func (t orgTx) TeamMembers(ctx context.Context, teamID string, page paging.Request) (paging.Result[org.TeamMembership], error) {
	return Page(ctx, t.q, List{
		Select: memberColumns + `, tm.role, tm.added_at`,
		From: `FROM team_members tm JOIN teams t ON t.id = tm.team_id
			JOIN members m ON m.organization_id = t.organization_id AND m.user_id = tm.user_id
			JOIN users u ON u.id = m.user_id`,
		Where: []string{`tm.team_id = ?`},
		Args:  []any{teamID},
		Order: []string{`tm.added_at`, `tm.user_id`},
	}, page, func(scan func(...any) error) (org.TeamMembership, []any, error) {
		var tm org.TeamMembership
		var role string
		var added int64
		m, err := scanMember(func(dest ...any) error { return scan(append(dest, &role, &added)...) })
		tm.Member, tm.Role = m, org.TeamRole(role)
		return tm, []any{added, m.User.ID}, err
	})
}

func (t orgTx) TeamsOfMember(ctx context.Context, orgID, userID, title string, page paging.Request) (paging.Result[org.MemberTeam], error) {
	l := List{
		Select: teamColumns + `, tm.role`,
		From:   `FROM team_members tm JOIN teams t ON t.id = tm.team_id`,
		Where:  []string{`t.organization_id = ?`, `tm.user_id = ?`},
		Args:   []any{orgID, userID},
		Order:  []string{`t.created_at`, `t.id`},
	}
	if title != "" {
		l.Where = append(l.Where, `LOWER(t.title) LIKE ? ESCAPE '\'`)
		l.Args = append(l.Args, Like(title))
	}
	return Page(ctx, t.q, l, page, func(scan func(...any) error) (org.MemberTeam, []any, error) {
		var role string
		team, err := scanTeam(scan, &role)
		return org.MemberTeam{Team: org.TeamView{Team: team}, Role: org.TeamRole(role)}, []any{Micros(team.CreatedAt), team.ID}, err
	})
}

func (t orgTx) MemberIDByEmail(ctx context.Context, orgID, email string) (string, error) {
	var id string
	err := t.q.QueryRow(ctx, `SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id
		WHERE m.organization_id = ? AND u.email = ?`, orgID, email).Scan(&id)
	if errors.Is(err, ErrNotFound) {
		return "", org.ErrNotFound
	}
	return id, err
}
