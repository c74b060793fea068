package store

import (
	"context"
	"database/sql"
	"errors"

	"docsd/internal/auth"
	"docsd/internal/space"
)

// spaceAccessSQL reads a space with everything that decides one user's role on it, in one
// statement, since every request on a space starts with it (on PostgreSQL each statement is a
// round trip). Every row carries the space's columns, the user's membership and whether the
// token asked about exists (so that a read can confirm its token on the way); beside them,
// one row per collection above the space and per grant to the user or their teams on the
// space or on those collections, or a single row whose kind is NULL when there is none.
//
// The collections above the space are climbed by a recursive query that stays within the
// space's organization, as a walk over the organization's collections would; UNION rather
// than UNION ALL ends the climb on a cycle.
const spaceAccessSQL = `WITH RECURSIVE up (id, parent, level, org) AS (
	SELECT c.id, c.parent_id, c.default_level, c.organization_id
	FROM spaces s JOIN collections c ON c.id = s.parent_id AND c.organization_id = s.organization_id
	WHERE s.id = ?
	UNION
	SELECT c.id, c.parent_id, c.default_level, c.organization_id
	FROM up JOIN collections c ON c.id = up.parent AND c.organization_id = up.org
)
SELECT ` + spaceColumns + `, m.role, m.disabled, t.id, x.kind, x.target, x.parent, x.principal, x.role,
	(` + accessGenerationSQL + `)
FROM spaces s
LEFT JOIN members m ON m.organization_id = s.organization_id AND m.user_id = ?
LEFT JOIN api_tokens t ON t.id = ? AND t.user_id = ?
LEFT JOIN (
	SELECT 'collection' AS kind, up.id AS target, up.parent AS parent, NULL AS principal, up.level AS role FROM up
	UNION ALL
	SELECT 'space-user', g.space_id, NULL, g.user_id, g.role FROM space_user_grants g
	WHERE g.space_id = ? AND g.user_id = ?
	UNION ALL
	SELECT 'space-team', g.space_id, NULL, g.team_id, g.role FROM space_team_grants g
	JOIN team_members tm ON tm.team_id = g.team_id WHERE g.space_id = ? AND tm.user_id = ?
	UNION ALL
	SELECT 'collection-user', g.collection_id, NULL, g.user_id, g.role FROM collection_user_grants g
	JOIN up ON up.id = g.collection_id WHERE g.user_id = ?
	UNION ALL
	SELECT 'collection-team', g.collection_id, NULL, g.team_id, g.role FROM collection_team_grants g
	JOIN up ON up.id = g.collection_id JOIN team_members tm ON tm.team_id = g.team_id WHERE tm.user_id = ?
) x ON TRUE
WHERE s.id = ?`

// spaceAccessGrants maps a row kind of spaceAccessSQL to the grant it holds.
var spaceAccessGrants = map[string]struct {
	target    space.Kind
	principal space.PrincipalKind
}{
	"space-user":      {space.SpaceKind, space.UserPrincipal},
	"space-team":      {space.SpaceKind, space.TeamPrincipal},
	"collection-user": {space.CollectionKind, space.UserPrincipal},
	"collection-team": {space.CollectionKind, space.TeamPrincipal},
}

func (t spaceTx) SpaceAccess(ctx context.Context, id, userID, tokenID string) (space.SpaceAccess, error) {
	rows, err := t.q.Query(ctx, spaceAccessSQL, id, userID, tokenID, userID, id, userID, id, userID, userID, userID, id)
	if err != nil {
		return space.SpaceAccess{}, err
	}
	defer rows.Close()
	var sa space.SpaceAccess
	found := false
	for rows.Next() {
		var role, token, kind, target, parent, principal, value sql.NullString
		var disabled sql.NullBool
		var gen int64
		sp, err := scanSpace(func(dest ...any) error {
			return rows.Scan(append(dest, &role, &disabled, &token, &kind, &target, &parent, &principal, &value, &gen)...)
		})
		if err != nil {
			return space.SpaceAccess{}, mapErr(err)
		}
		if !found {
			found = true
			sa.Space = sp
			sa.Member = disabled.Valid && !disabled.Bool // disabled is NULL without a membership; a guest's role is NULL
			sa.Role = auth.Role(role.String)
			sa.TokenLive = token.Valid
			sa.Generation = uint64(gen)
		}
		if kind.String == "collection" {
			sa.Ancestors = append(sa.Ancestors, space.Collection{ID: target.String, OrganizationID: sp.OrganizationID,
				Parent: parent.String, DefaultLevel: space.Level(value.String)})
		} else if g, ok := spaceAccessGrants[kind.String]; ok {
			sa.Grants = append(sa.Grants, space.Grant{Target: space.Target{Kind: g.target, ID: target.String},
				Principal: space.Principal{Kind: g.principal, ID: principal.String}, Role: auth.Role(value.String)})
		}
	}
	if err := rows.Err(); err != nil {
		return space.SpaceAccess{}, mapErr(err)
	}
	if !found {
		return space.SpaceAccess{}, space.ErrNotFound
	}
	return sa, nil
}

// spaceRowSQL is a space with the access generation and the token check, for a caller whose
// access facts on it are cached: a primary-key read instead of the climb above.
const spaceRowSQL = `SELECT ` + spaceColumns + `, t.id, (` + accessGenerationSQL + `)
FROM spaces s LEFT JOIN api_tokens t ON t.id = ? AND t.user_id = ?
WHERE s.id = ?`

func (t spaceTx) AfterCommit(f func()) { t.q.AfterCommit(f) }

func (t spaceTx) SpaceRow(ctx context.Context, id, userID, tokenID string) (space.SpaceRow, error) {
	var token sql.NullString
	var gen int64
	sp, err := scanSpace(func(dest ...any) error {
		return t.q.QueryRow(ctx, spaceRowSQL, tokenID, userID, id).Scan(append(dest, &token, &gen)...)
	})
	if errors.Is(err, ErrNotFound) {
		return space.SpaceRow{}, space.ErrNotFound
	}
	if err != nil {
		return space.SpaceRow{}, err
	}
	return space.SpaceRow{Space: sp, TokenLive: token.Valid, Generation: uint64(gen)}, nil
}
