package space

import (
	"context"
	"errors"
	"time"

	"docsd/internal/account"
	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/org"
	"docsd/internal/paging"
)

// Kind names what a grant is on.
type Kind string

const (
	SpaceKind      Kind = "space"
	CollectionKind Kind = "collection"
)

// Target is a space or a collection.
type Target struct {
	Kind Kind
	ID   string
}

// PrincipalKind names who a grant is to.
type PrincipalKind string

const (
	UserPrincipal PrincipalKind = "user"
	TeamPrincipal PrincipalKind = "team"
)

// Principal is a user or a team.
type Principal struct {
	Kind PrincipalKind
	ID   string
}

// Grant gives a principal a role on a target (and, for a collection, on all it contains).
type Grant struct {
	Target    Target
	Principal Principal
	Role      auth.Role
}

// UserGrant is a grant to a user, with the user.
type UserGrant struct {
	User account.User
	Role auth.Role
}

// TeamGrant is a grant to a team, with the team as the caller sees it.
type TeamGrant struct {
	Team org.TeamView
	Role auth.Role
}

// MaxInvitees is how many users plus teams one invite may name.
const MaxInvitees = 100

// GrantTx stores grants.
type GrantTx interface {
	// GrantsFor lists the grants on orgID's content to userID and to the teams they belong to.
	GrantsFor(ctx context.Context, orgID, userID string) ([]Grant, error)
	// OrgGrants lists every grant on orgID's content.
	OrgGrants(ctx context.Context, orgID string) ([]Grant, error)
	// TeamsOfMembers maps each member of orgID who belongs to teams to their team ids.
	TeamsOfMembers(ctx context.Context, orgID string) (map[string][]string, error)
	// PutGrant creates a grant or changes its role.
	PutGrant(ctx context.Context, g Grant, at time.Time) error
	// DeleteGrant removes a grant; false when there was none.
	DeleteGrant(ctx context.Context, t Target, p Principal) (bool, error)
	// CopyGrants gives to the target `to` every grant of `from`.
	CopyGrants(ctx context.Context, from, to Target, at time.Time) error
	// DropForeignGrants removes, on the targets, every team grant and the grants of users
	// who are not members of orgID: what cannot follow content into another organization.
	DropForeignGrants(ctx context.Context, orgID string, targets []Target) error
	UserGrants(ctx context.Context, t Target, page paging.Request) (paging.Result[UserGrant], error)
	TeamGrants(ctx context.Context, t Target, page paging.Request) (paging.Result[TeamGrant], error)
	// TeamOrganization returns the organization of a team; ErrNotFound if there is no team.
	TeamOrganization(ctx context.Context, teamID string) (string, error)
	// TeamRolesOf maps the teams of orgID that userID belongs to to their role there.
	TeamRolesOf(ctx context.Context, orgID, userID string) (map[string]org.TeamRole, error)
}

// targetOrg checks that the caller holds min on a target and returns its organization.
func (s *Service) targetOrg(ctx context.Context, tx Tx, c auth.Caller, t Target, min auth.Role) (string, error) {
	if t.Kind == CollectionKind {
		v, _, err := s.collectionView(ctx, tx, c, t.ID, min)
		return v.OrganizationID, err
	}
	v, err := s.spaceView(ctx, tx, c, t.ID, min, false)
	return v.OrganizationID, err
}

// requireListable is what listing a target's grants needs: read access, and not being a
// guest (guests do not see who else belongs to the organization).
func (s *Service) requireListable(ctx context.Context, tx Tx, c auth.Caller, t Target) (string, error) {
	orgID, err := s.targetOrg(ctx, tx, c, t, auth.Read)
	if err != nil {
		return "", err
	}
	role, _, err := s.access.OrgRole(ctx, tx, c, orgID)
	if err == nil && role == auth.Guest {
		err = apperr.Forbiddenf("guests may not list who has access")
	}
	return orgID, err
}

// Invite grants role on a target to users and teams of its organization; nil role removes
// their grants instead. Only the target's admins may.
func (s *Service) Invite(ctx context.Context, c auth.Caller, t Target, users, teams []string, role *auth.Role) error {
	if len(users) == 0 && len(teams) == 0 {
		return apperr.Invalidf("users, teams: give at least one user or team")
	}
	if len(users)+len(teams) > MaxInvitees {
		return apperr.Invalidf("users, teams: must name at most %d users and teams together", MaxInvitees)
	}
	var principals []Principal
	for _, u := range users {
		principals = append(principals, Principal{UserPrincipal, u})
	}
	for _, tm := range teams {
		principals = append(principals, Principal{TeamPrincipal, tm})
	}
	return s.setGrants(ctx, c, t, principals, role, true)
}

// SetGrant sets (or, with a nil role, removes) one principal's grant on a target.
func (s *Service) SetGrant(ctx context.Context, c auth.Caller, t Target, p Principal, role *auth.Role) error {
	return s.setGrants(ctx, c, t, []Principal{p}, role, true)
}

// setGrants gives each principal role on t, or removes its grant when role is nil. With
// known, a principal outside the target's organization is not found (404), also for a
// removal: a change names someone to change. A plain deletion does not ask.
func (s *Service) setGrants(ctx context.Context, c auth.Caller, t Target, ps []Principal, role *auth.Role, known bool) error {
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		orgID, err := s.targetOrg(ctx, tx, c, t, auth.Admin)
		if err != nil {
			return err
		}
		for _, p := range ps {
			if known {
				if err := s.checkPrincipal(ctx, tx, orgID, p); err != nil {
					return err
				}
			}
			if role == nil {
				// Removing a grant is a deletion: one that does not exist is gone already.
				if _, err := tx.DeleteGrant(ctx, t, p); err != nil {
					return err
				}
				continue
			}
			if err := tx.PutGrant(ctx, Grant{Target: t, Principal: p, Role: *role}, now); err != nil {
				return notFound(err, "%s %s not found in the organization", p.Kind, p.ID)
			}
		}
		return nil
	})
}

// checkPrincipal makes sure a user is an enabled member (guests included) and a team belongs
// to orgID: grants go to those who can use them.
func (s *Service) checkPrincipal(ctx context.Context, tx Tx, orgID string, p Principal) error {
	if p.Kind == TeamPrincipal {
		teamOrg, err := tx.TeamOrganization(ctx, p.ID)
		if errors.Is(err, ErrNotFound) || (err == nil && teamOrg != orgID) {
			return apperr.NotFoundf("team %s not found in the organization", p.ID)
		}
		return err
	}
	_, member, err := s.access.OrgRole(ctx, tx, auth.Caller{UserID: p.ID}, orgID)
	if err == nil && !member {
		return apperr.NotFoundf("user %s is not a member of the organization", p.ID)
	}
	return err
}

// RemoveGrant removes a principal's grant on a target. Removing a grant that does not exist
// succeeds, as deletions do.
func (s *Service) RemoveGrant(ctx context.Context, c auth.Caller, t Target, p Principal) error {
	return s.setGrants(ctx, c, t, []Principal{p}, nil, false)
}

// UserGrants lists the users granted a role on a target (not those who reach it otherwise).
func (s *Service) UserGrants(ctx context.Context, c auth.Caller, t Target, page paging.Request) (paging.Result[UserGrant], error) {
	tx := s.store.Read()
	if _, err := s.requireListable(ctx, tx, c, t); err != nil {
		return paging.Result[UserGrant]{}, err
	}
	return tx.UserGrants(ctx, t, page)
}

// TeamGrants lists the teams granted a role on a target.
func (s *Service) TeamGrants(ctx context.Context, c auth.Caller, t Target, page paging.Request) (paging.Result[TeamGrant], error) {
	tx := s.store.Read()
	orgID, err := s.requireListable(ctx, tx, c, t)
	if err != nil {
		return paging.Result[TeamGrant]{}, err
	}
	res, err := tx.TeamGrants(ctx, t, page)
	if err != nil || len(res.Items) == 0 {
		return res, err
	}
	counts, err := s.teamSpaceCounts(ctx, tx, orgID)
	if err != nil {
		return res, err
	}
	role, _, err := s.access.OrgRole(ctx, tx, c, orgID)
	if err != nil {
		return res, err
	}
	mine, err := tx.TeamRolesOf(ctx, orgID, c.UserID)
	if err != nil {
		return res, err
	}
	for i := range res.Items {
		team := res.Items[i].Team.Team
		team.Spaces = counts[team.ID]
		res.Items[i].Team = org.TeamViewFor(team, role, mine[team.ID])
	}
	return res, nil
}
