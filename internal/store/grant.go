package store

import (
	"context"
	"errors"
	"time"

	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/paging"
	"docsd/internal/space"
)

// Grants live in four tables, one per kind of target and principal, so that each keeps its
// foreign keys (a grant disappears with its space, collection, user or team).
type grantTable struct{ name, target, principal string }

func grantTableOf(k space.Kind, p space.PrincipalKind) grantTable {
	if k == space.CollectionKind {
		if p == space.TeamPrincipal {
			return grantTable{"collection_team_grants", "collection_id", "team_id"}
		}
		return grantTable{"collection_user_grants", "collection_id", "user_id"}
	}
	if p == space.TeamPrincipal {
		return grantTable{"space_team_grants", "space_id", "team_id"}
	}
	return grantTable{"space_user_grants", "space_id", "user_id"}
}

// grantsSQL selects the grants on one organization's content as (kind, target, principal
// kind, principal, role); forUser restricts them to one user and the teams they belong to.
func grantsSQL(forUser bool) string {
	part := func(kind, owner string, p space.PrincipalKind) string {
		t := grantTableOf(space.Kind(kind), p)
		q := `SELECT '` + kind + `', g.` + t.target + `, '` + string(p) + `', g.` + t.principal + `, g.role FROM ` + t.name +
			` g JOIN ` + owner + ` o ON o.id = g.` + t.target
		switch {
		case forUser && p == space.TeamPrincipal:
			return q + ` JOIN team_members tm ON tm.team_id = g.team_id WHERE o.organization_id = ? AND tm.user_id = ?`
		case forUser:
			return q + ` WHERE o.organization_id = ? AND g.user_id = ?`
		}
		return q + ` WHERE o.organization_id = ?`
	}
	return part("space", "spaces", space.UserPrincipal) + ` UNION ALL ` + part("space", "spaces", space.TeamPrincipal) +
		` UNION ALL ` + part("collection", "collections", space.UserPrincipal) +
		` UNION ALL ` + part("collection", "collections", space.TeamPrincipal)
}

var (
	grantsForUserSQL = grantsSQL(true)
	grantsOfOrgSQL   = grantsSQL(false)
)

func (t spaceTx) queryGrants(ctx context.Context, query string, args ...any) ([]space.Grant, error) {
	rows, err := t.q.Query(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []space.Grant
	for rows.Next() {
		var g space.Grant
		if err := rows.Scan(&g.Target.Kind, &g.Target.ID, &g.Principal.Kind, &g.Principal.ID, &g.Role); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, mapErr(rows.Err())
}

func (t spaceTx) GrantsFor(ctx context.Context, orgID, userID string) ([]space.Grant, error) {
	return t.queryGrants(ctx, grantsForUserSQL, orgID, userID, orgID, userID, orgID, userID, orgID, userID)
}

func (t spaceTx) OrgGrants(ctx context.Context, orgID string) ([]space.Grant, error) {
	return t.queryGrants(ctx, grantsOfOrgSQL, orgID, orgID, orgID, orgID)
}

func (t spaceTx) TeamsOfMembers(ctx context.Context, orgID string) (map[string][]string, error) {
	rows, err := t.q.Query(ctx, `SELECT tm.user_id, tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id
		WHERE t.organization_id = ?`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var user, team string
		if err := rows.Scan(&user, &team); err != nil {
			return nil, err
		}
		out[user] = append(out[user], team)
	}
	return out, mapErr(rows.Err())
}

func (t spaceTx) PutGrant(ctx context.Context, g space.Grant, at time.Time) error {
	tb := grantTableOf(g.Target.Kind, g.Principal.Kind)
	_, err := t.q.Exec(ctx, `INSERT INTO `+tb.name+` (`+tb.target+`, `+tb.principal+`, role, created_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (`+tb.target+`, `+tb.principal+`) DO UPDATE SET role = excluded.role`,
		g.Target.ID, g.Principal.ID, string(g.Role), Micros(at))
	if errors.Is(err, ErrForeignKeyViolation) {
		// The user, team or target went away meanwhile.
		return space.ErrNotFound
	}
	return err
}

func (t spaceTx) DeleteGrant(ctx context.Context, target space.Target, p space.Principal) (bool, error) {
	tb := grantTableOf(target.Kind, p.Kind)
	res, err := t.q.Exec(ctx, `DELETE FROM `+tb.name+` WHERE `+tb.target+` = ? AND `+tb.principal+` = ?`, target.ID, p.ID)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	return n > 0, err
}

func (t spaceTx) CopyGrants(ctx context.Context, from, to space.Target, at time.Time) error {
	for _, p := range []space.PrincipalKind{space.UserPrincipal, space.TeamPrincipal} {
		src, dst := grantTableOf(from.Kind, p), grantTableOf(to.Kind, p)
		if _, err := t.q.Exec(ctx, `INSERT INTO `+dst.name+` (`+dst.target+`, `+dst.principal+`, role, created_at)
			SELECT ?, `+src.principal+`, role, ? FROM `+src.name+` WHERE `+src.target+` = ?`, to.ID, Micros(at), from.ID); err != nil {
			return err
		}
	}
	return nil
}

func (t spaceTx) DropForeignGrants(ctx context.Context, orgID string, targets []space.Target) error {
	for _, k := range []space.Kind{space.SpaceKind, space.CollectionKind} {
		var ids []string
		for _, tg := range targets {
			if tg.Kind == k {
				ids = append(ids, tg.ID)
			}
		}
		if len(ids) == 0 {
			continue
		}
		in := `(` + placeholders(len(ids)) + `)`
		teams, users := grantTableOf(k, space.TeamPrincipal), grantTableOf(k, space.UserPrincipal)
		if _, err := t.q.Exec(ctx, `DELETE FROM `+teams.name+` WHERE `+teams.target+` IN `+in, stringArgs(ids)...); err != nil {
			return err
		}
		if _, err := t.q.Exec(ctx, `DELETE FROM `+users.name+` WHERE `+users.target+` IN `+in+`
			AND user_id NOT IN (SELECT user_id FROM members WHERE organization_id = ?)`, append(stringArgs(ids), orgID)...); err != nil {
			return err
		}
	}
	return nil
}

func (t spaceTx) UserGrants(ctx context.Context, target space.Target, page paging.Request) (paging.Result[space.UserGrant], error) {
	tb := grantTableOf(target.Kind, space.UserPrincipal)
	return Page(ctx, t.q, List{
		Select: `g.role, g.created_at, u.id, u.email, u.email_verified, u.display_name, u.photo_url, u.created_at`,
		From:   `FROM ` + tb.name + ` g JOIN users u ON u.id = g.user_id`,
		Where:  []string{`g.` + tb.target + ` = ?`},
		Args:   []any{target.ID},
		Order:  []string{`g.created_at`, `g.user_id`},
	}, page, func(scan func(...any) error) (space.UserGrant, []any, error) {
		var g space.UserGrant
		var granted, created int64
		err := scan(&g.Role, &granted, &g.User.ID, &g.User.Email, &g.User.EmailVerified, &g.User.DisplayName,
			&g.User.PhotoURL, &created)
		g.User.CreatedAt = FromMicros(created)
		return g, []any{granted, g.User.ID}, err
	})
}

func (t spaceTx) TeamGrants(ctx context.Context, target space.Target, page paging.Request) (paging.Result[space.TeamGrant], error) {
	tb := grantTableOf(target.Kind, space.TeamPrincipal)
	return Page(ctx, t.q, List{
		Select: teamColumns + `, g.role, g.created_at`,
		From:   `FROM ` + tb.name + ` g JOIN teams t ON t.id = g.team_id`,
		Where:  []string{`g.` + tb.target + ` = ?`},
		Args:   []any{target.ID},
		Order:  []string{`g.created_at`, `g.team_id`},
	}, page, func(scan func(...any) error) (space.TeamGrant, []any, error) {
		var role auth.Role
		var granted int64
		team, err := scanTeam(scan, &role, &granted)
		return space.TeamGrant{Team: org.TeamView{Team: team}, Role: role}, []any{granted, team.ID}, err
	})
}

func (t spaceTx) TeamOrganization(ctx context.Context, teamID string) (string, error) {
	var orgID string
	err := t.q.QueryRow(ctx, `SELECT organization_id FROM teams WHERE id = ?`, teamID).Scan(&orgID)
	if errors.Is(err, ErrNotFound) {
		return "", space.ErrNotFound
	}
	return orgID, err
}

func (t spaceTx) TeamRolesOf(ctx context.Context, orgID, userID string) (map[string]org.TeamRole, error) {
	return orgTx(t).TeamRolesOf(ctx, orgID, userID)
}
