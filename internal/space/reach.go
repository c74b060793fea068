package space

import (
	"context"

	"docsd/internal/auth"
)

// everyone holds what the accesses of all members of one organization are built from, loaded
// once for lists and counts that concern many users.
type everyone struct {
	members     map[string]Member
	teams       map[string][]string // user id → team ids
	byPrincipal map[Principal][]Grant
	collections map[string]Collection
}

func loadEveryone(ctx context.Context, tx Tx, orgID string) (*everyone, error) {
	members, err := tx.Members(ctx, orgID)
	if err != nil {
		return nil, err
	}
	teams, err := tx.TeamsOfMembers(ctx, orgID)
	if err != nil {
		return nil, err
	}
	grants, err := tx.OrgGrants(ctx, orgID)
	if err != nil {
		return nil, err
	}
	cols, err := tx.Collections(ctx, orgID)
	if err != nil {
		return nil, err
	}
	e := &everyone{members: map[string]Member{}, teams: teams, byPrincipal: map[Principal][]Grant{},
		collections: collectionMap(cols)}
	for _, m := range members {
		e.members[m.User.ID] = m
	}
	for _, g := range grants {
		e.byPrincipal[g.Principal] = append(e.byPrincipal[g.Principal], g)
	}
	return e, nil
}

// of is one user's access (none for users who are not enabled members).
func (e *everyone) of(userID string) *Access {
	m, ok := e.members[userID]
	if !ok {
		return newAccess(auth.Guest, false, nil, e.collections)
	}
	grants := e.byPrincipal[Principal{UserPrincipal, userID}]
	for _, team := range e.teams[userID] {
		grants = append(grants, e.byPrincipal[Principal{TeamPrincipal, team}]...)
	}
	return newAccess(m.Role, true, grants, e.collections)
}

// ofTeam is the access a team's grants give: that of a guest holding exactly them.
func (e *everyone) ofTeam(teamID string) *Access {
	return newAccess(auth.Guest, true, e.byPrincipal[Principal{TeamPrincipal, teamID}], e.collections)
}

func countReadable(acc *Access, spaces []Space) int {
	n := 0
	for _, sp := range spaces {
		if acc.SpaceRole(sp).AtLeast(auth.Read) {
			n++
		}
	}
	return n
}

// MemberSpaceCounts counts, for each of userIDs, the live spaces of orgID they can access.
func (s *Service) MemberSpaceCounts(ctx context.Context, orgID string, userIDs []string) (map[string]int, error) {
	tx := s.store.Read()
	e, err := loadEveryone(ctx, tx, orgID)
	if err != nil {
		return nil, err
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for _, id := range userIDs {
		counts[id] = countReadable(e.of(id), spaces)
	}
	return counts, nil
}

// TeamSpaceCounts counts, for each team of orgID with grants, the live spaces its grants open
// (directly, or through a collection above them).
func (s *Service) TeamSpaceCounts(ctx context.Context, orgID string) (map[string]int, error) {
	return s.teamSpaceCounts(ctx, s.store.Read(), orgID)
}

func (s *Service) teamSpaceCounts(ctx context.Context, tx Tx, orgID string) (map[string]int, error) {
	e, err := loadEveryone(ctx, tx, orgID)
	if err != nil {
		return nil, err
	}
	spaces, err := tx.Spaces(ctx, orgID)
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	for p := range e.byPrincipal {
		if p.Kind == TeamPrincipal {
			counts[p.ID] = countReadable(e.ofTeam(p.ID), spaces)
		}
	}
	return counts, nil
}
