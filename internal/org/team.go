package org

import (
	"context"
	"errors"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ids"
	"docsd/internal/paging"
	"docsd/internal/validate"
)

// Team groups members of an organization, so content can be shared with all of them at once.
type Team struct {
	ID             string
	OrganizationID string
	Title          string
	CreatedAt      time.Time
	Members        int // members of the team who are still members of the organization
	Spaces         int // live spaces the team's grants open (see SpaceCounter)
}

// TeamRole is a user's role in a team.
type TeamRole string

const (
	TeamOwner  TeamRole = "owner"  // manages the team's members and title
	TeamMember TeamRole = "member" // belongs to the team
)

// ParseTeamRole checks a team role name.
func ParseTeamRole(field, s string) (TeamRole, error) {
	if err := validate.OneOf(field, s, string(TeamOwner), string(TeamMember)); err != nil {
		return "", err
	}
	return TeamRole(s), nil
}

const (
	teamTitleMin = 1
	teamTitleMax = 64
	// MaxTeamBatch bounds the users one request may add or remove, so that a single request
	// cannot hold the write transaction for long.
	MaxTeamBatch = 1000
)

// TeamFilter narrows a list of teams; zero values do not filter.
type TeamFilter struct {
	Title   string // case-insensitive "contains"
	OwnerID string // only teams this user owns
}

// TeamTx stores teams and their members.
type TeamTx interface {
	InsertTeam(ctx context.Context, t Team) error
	// Team returns a team of orgID with its member count; ErrNotFound if none.
	Team(ctx context.Context, orgID, teamID string) (Team, error)
	// LockTeam holds the team's row until the transaction ends, so it cannot be deleted
	// under a write that refers to it; ErrNotFound if none.
	LockTeam(ctx context.Context, orgID, teamID string) error
	UpdateTeamTitle(ctx context.Context, orgID, teamID, title string) error
	// DeleteTeam removes a team and its memberships; deleting an absent team is no error.
	DeleteTeam(ctx context.Context, orgID, teamID string) error
	// Teams lists the teams of orgID, oldest first.
	Teams(ctx context.Context, orgID string, f TeamFilter, page paging.Request) (paging.Result[Team], error)
	TeamMemberTx
}

// TeamView is a team as one caller sees it.
type TeamView struct {
	Team
	Permissions TeamPermissions
}

// TeamPermissions are what the caller may do with a team.
type TeamPermissions struct {
	Admin bool // manage the team's title and members
	View  bool // see the team and list its members
}

// teamPermissions: a member who became a guest while owning a team keeps the team role on
// record but, like every guest, may neither see nor manage teams.
func teamPermissions(caller Member, callerRole TeamRole) TeamPermissions {
	member := caller.Role != auth.Guest
	return TeamPermissions{
		Admin: caller.Role == auth.Admin || (member && callerRole == TeamOwner),
		View:  member,
	}
}

// TeamViewFor is a team as seen by a caller holding orgRole in its organization and teamRole
// in the team ("" when not on it). Other domains that show teams (grants on spaces) use it.
func TeamViewFor(t Team, orgRole auth.Role, teamRole TeamRole) TeamView {
	return TeamView{Team: t, Permissions: teamPermissions(Member{Role: orgRole}, teamRole)}
}

func validateTeamTitle(title string) (string, error) {
	title = strings.TrimSpace(title)
	return title, validate.Length("title", title, teamTitleMin, teamTitleMax)
}

func teamNotFound(teamID string) error { return apperr.NotFoundf("team %s not found", teamID) }

// team reads a team of orgID, answering 404 when it is absent.
func (s *Service) team(ctx context.Context, tx Tx, orgID, teamID string) (Team, error) {
	t, err := tx.Team(ctx, orgID, teamID)
	if errors.Is(err, ErrNotFound) {
		return t, teamNotFound(teamID)
	}
	return t, err
}

// viewTeam adds the caller's permissions to a team.
func (s *Service) viewTeam(ctx context.Context, tx Tx, caller Member, t Team) (TeamView, error) {
	role := TeamRole("")
	if caller.Role != auth.Admin {
		r, err := tx.TeamRole(ctx, t.ID, caller.User.ID)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return TeamView{}, err
		}
		role = r
	}
	err := s.countTeamSpaces(ctx, t.OrganizationID, []*Team{&t})
	return TeamView{Team: t, Permissions: teamPermissions(caller, role)}, err
}

// CreateTeam makes a team; only organization admins may. The creator becomes an owner of the
// team, so that the team has someone who manages it from the start; memberIDs join as
// members and must be (non-guest) members of the organization.
func (s *Service) CreateTeam(ctx context.Context, c auth.Caller, orgID string, title *string, memberIDs []string) (TeamView, error) {
	if title == nil {
		return TeamView{}, validate.Required("title")
	}
	clean, err := validateTeamTitle(*title)
	if err != nil {
		return TeamView{}, err
	}
	if len(memberIDs) > MaxTeamBatch {
		return TeamView{}, apperr.Invalidf("members: must hold at most %d users (got %d)", MaxTeamBatch, len(memberIDs))
	}
	now := s.clock.Now()
	var v TeamView
	err = s.store.Write(ctx, now, func(tx Tx) error {
		caller, err := s.requireAdmin(ctx, tx, c, orgID)
		if err != nil {
			return err
		}
		for i, id := range memberIDs {
			if _, err := s.teamCandidate(ctx, tx, orgID, fieldIndex("members", i), id); err != nil {
				return err
			}
		}
		t := Team{ID: ids.New(), OrganizationID: orgID, Title: clean, CreatedAt: now}
		if err := tx.InsertTeam(ctx, t); err != nil {
			return err
		}
		if err := tx.SetTeamMember(ctx, t.ID, c.UserID, TeamOwner, now); err != nil {
			return err
		}
		for _, id := range memberIDs {
			// The creator listed among the members stays an owner.
			if id != c.UserID {
				if err := tx.SetTeamMember(ctx, t.ID, id, TeamMember, now); err != nil {
					return err
				}
			}
		}
		if t, err = tx.Team(ctx, orgID, t.ID); err != nil {
			return err
		}
		v = TeamView{Team: t, Permissions: teamPermissions(caller, TeamOwner)}
		return nil
	})
	return v, err
}

// GetTeam returns a team to a member of its organization.
func (s *Service) GetTeam(ctx context.Context, c auth.Caller, orgID, teamID string) (TeamView, error) {
	tx := s.store.Read()
	caller, err := s.requireMember(ctx, tx, c, orgID)
	if err != nil {
		return TeamView{}, err
	}
	t, err := s.team(ctx, tx, orgID, teamID)
	if err != nil {
		return TeamView{}, err
	}
	return s.viewTeam(ctx, tx, caller, t)
}

// ListTeams lists an organization's teams to its members. A filter on OwnerID keeps the teams
// that user can manage: every team for an organization admin, the teams they own otherwise,
// and none for someone who is not a (non-guest) member.
func (s *Service) ListTeams(ctx context.Context, c auth.Caller, orgID string, f TeamFilter, page paging.Request) (paging.Result[TeamView], error) {
	tx := s.store.Read()
	caller, err := s.requireMember(ctx, tx, c, orgID)
	if err != nil {
		return paging.Result[TeamView]{}, err
	}
	if f.OwnerID != "" {
		owner, err := tx.Member(ctx, orgID, f.OwnerID)
		switch {
		case errors.Is(err, ErrNotFound) || (err == nil && (owner.Disabled || owner.Role == auth.Guest)):
			return paging.Result[TeamView]{Items: []TeamView{}}, nil
		case err != nil:
			return paging.Result[TeamView]{}, err
		case owner.Role == auth.Admin:
			f.OwnerID = ""
		}
	}
	res, err := tx.Teams(ctx, orgID, f, page)
	if err != nil {
		return paging.Result[TeamView]{}, err
	}
	return s.viewTeams(ctx, tx, caller, res)
}

// viewTeams adds the caller's permissions to a page of teams with one query for their roles.
func (s *Service) viewTeams(ctx context.Context, tx Tx, caller Member, res paging.Result[Team]) (paging.Result[TeamView], error) {
	out := paging.Result[TeamView]{Count: res.Count, Next: res.Next, Items: make([]TeamView, 0, len(res.Items))}
	roles := map[string]TeamRole{}
	if caller.Role != auth.Admin && len(res.Items) > 0 {
		var err error
		if roles, err = tx.TeamRolesOf(ctx, caller.OrganizationID, caller.User.ID); err != nil {
			return out, err
		}
	}
	for _, t := range res.Items {
		out.Items = append(out.Items, TeamView{Team: t, Permissions: teamPermissions(caller, roles[t.ID])})
	}
	teams := make([]*Team, len(out.Items))
	for i := range out.Items {
		teams[i] = &out.Items[i].Team
	}
	return out, s.countTeamSpaces(ctx, caller.OrganizationID, teams)
}

// RenameTeam changes a team's title; organization admins and the team's owners may.
func (s *Service) RenameTeam(ctx context.Context, c auth.Caller, orgID, teamID string, title *string) (TeamView, error) {
	if title == nil {
		return TeamView{}, validate.Required("title")
	}
	clean, err := validateTeamTitle(*title)
	if err != nil {
		return TeamView{}, err
	}
	var v TeamView
	err = s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		caller, err := s.requireTeamManager(ctx, tx, c, orgID, teamID)
		if err != nil {
			return err
		}
		if err := tx.UpdateTeamTitle(ctx, orgID, teamID, clean); err != nil {
			return err
		}
		t, err := s.team(ctx, tx, orgID, teamID)
		if err != nil {
			return err
		}
		v, err = s.viewTeam(ctx, tx, caller, t)
		return err
	})
	return v, err
}

// DeleteTeam removes a team; only organization admins may. An absent team is no error.
func (s *Service) DeleteTeam(ctx context.Context, c auth.Caller, orgID, teamID string) error {
	return s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.requireAdmin(ctx, tx, c, orgID); err != nil {
			return err
		}
		return tx.DeleteTeam(ctx, orgID, teamID)
	})
}

// requireTeamManager checks that the caller may manage the team (organization admin or team
// owner) and locks the team for the rest of the transaction. Guests get 403, as for every
// team operation; members who do not manage the team get 403 too, since they can see it.
func (s *Service) requireTeamManager(ctx context.Context, tx Tx, c auth.Caller, orgID, teamID string) (Member, error) {
	caller, err := s.requireMember(ctx, tx, c, orgID)
	if err != nil {
		return caller, err
	}
	if err := tx.LockTeam(ctx, orgID, teamID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return caller, teamNotFound(teamID)
		}
		return caller, err
	}
	if caller.Role == auth.Admin {
		return caller, nil
	}
	role, err := tx.TeamRole(ctx, teamID, c.UserID)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return caller, err
	}
	if role != TeamOwner {
		return caller, apperr.Forbiddenf("only organization admins and owners of team %s may manage it", teamID)
	}
	return caller, nil
}
