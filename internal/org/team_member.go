package org

import (
	"context"
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/paging"
)

// TeamMembership is an organization member with their role in one team.
type TeamMembership struct {
	Member Member
	Role   TeamRole
}

// MemberTeam is a team with one member's role in it.
type MemberTeam struct {
	Team TeamView
	Role TeamRole
}

// TeamMemberTx stores who belongs to which team. Team lists and counts show only users who
// are still members of the team's organization.
type TeamMemberTx interface {
	// TeamRole returns userID's role in the team; ErrNotFound if they are not on it.
	TeamRole(ctx context.Context, teamID, userID string) (TeamRole, error)
	// TeamRolesOf maps each team of orgID that userID is on to their role in it.
	TeamRolesOf(ctx context.Context, orgID, userID string) (map[string]TeamRole, error)
	// SetTeamMember puts userID on the team with role, or changes the role of a team member.
	SetTeamMember(ctx context.Context, teamID, userID string, role TeamRole, at time.Time) error
	// RemoveTeamMember takes userID off the team and reports whether they were on it.
	RemoveTeamMember(ctx context.Context, teamID, userID string) (bool, error)
	// TeamMembers lists a team's members in the order they joined it.
	TeamMembers(ctx context.Context, teamID string, page paging.Request) (paging.Result[TeamMembership], error)
	// TeamsOfMember lists the teams of orgID that userID is on, oldest team first.
	TeamsOfMember(ctx context.Context, orgID, userID, title string, page paging.Request) (paging.Result[MemberTeam], error)
	// MemberIDByEmail returns the user id of the member of orgID with that (lower-case)
	// email; ErrNotFound if none.
	MemberIDByEmail(ctx context.Context, orgID, email string) (string, error)
}

func fieldIndex(field string, i int) string { return field + "[" + strconv.Itoa(i) + "]" }

// teamCandidate checks that userID may join a team of orgID: only enabled, non-guest members
// of the organization may, since team grants are member access.
func (s *Service) teamCandidate(ctx context.Context, tx Tx, orgID, field, userID string) (Member, error) {
	m, err := tx.Member(ctx, orgID, userID)
	switch {
	case errors.Is(err, ErrNotFound):
		return m, apperr.Invalidf("%s: user %q is not a member of the organization", field, userID)
	case err != nil:
		return m, err
	case m.Disabled:
		return m, apperr.Invalidf("%s: user %q has a disabled membership of the organization", field, userID)
	case m.Role == auth.Guest:
		return m, apperr.Invalidf("%s: user %q is a guest of the organization; only members can join teams", field, userID)
	}
	return m, nil
}

// resolveUser turns a user reference (a user id, or an email address when it holds an @) into
// a user id. ok is false for an email that belongs to no member of the organization.
func (s *Service) resolveUser(ctx context.Context, tx Tx, orgID, ref string) (string, bool, error) {
	if !strings.Contains(ref, "@") {
		return ref, true, nil
	}
	id, err := tx.MemberIDByEmail(ctx, orgID, strings.ToLower(strings.TrimSpace(ref)))
	if errors.Is(err, ErrNotFound) {
		return "", false, nil
	}
	return id, err == nil, err
}

// ListTeamMembers lists a team's members to members of its organization.
func (s *Service) ListTeamMembers(ctx context.Context, c auth.Caller, orgID, teamID string, page paging.Request) (paging.Result[TeamMembership], error) {
	tx := s.store.Read()
	if _, err := s.requireMember(ctx, tx, c, orgID); err != nil {
		return paging.Result[TeamMembership]{}, err
	}
	if _, err := s.team(ctx, tx, orgID, teamID); err != nil {
		return paging.Result[TeamMembership]{}, err
	}
	res, err := tx.TeamMembers(ctx, teamID, page)
	if err != nil {
		return res, err
	}
	ms := make([]Member, len(res.Items))
	for i, it := range res.Items {
		ms[i] = it.Member
	}
	err = s.countMemberSpaces(ctx, orgID, ms)
	for i := range res.Items {
		res.Items[i].Member = ms[i]
	}
	return res, err
}

// TeamsOfMember lists the teams a member of the organization is on. Members may ask about
// anyone; a guest only about themselves.
func (s *Service) TeamsOfMember(ctx context.Context, c auth.Caller, orgID, userID, title string, page paging.Request) (paging.Result[MemberTeam], error) {
	tx := s.store.Read()
	var caller Member
	var err error
	if userID == c.UserID {
		caller, err = s.access(ctx, tx, c, orgID)
	} else {
		caller, err = s.requireMember(ctx, tx, c, orgID)
	}
	if err != nil {
		return paging.Result[MemberTeam]{}, err
	}
	if _, err := tx.Member(ctx, orgID, userID); err != nil {
		if errors.Is(err, ErrNotFound) {
			return paging.Result[MemberTeam]{}, apperr.NotFoundf("member %s not found", userID)
		}
		return paging.Result[MemberTeam]{}, err
	}
	res, err := tx.TeamsOfMember(ctx, orgID, userID, title, page)
	if err != nil || len(res.Items) == 0 {
		return res, err
	}
	roles := map[string]TeamRole{}
	switch {
	case caller.Role == auth.Admin:
	case userID == c.UserID:
		for _, it := range res.Items {
			roles[it.Team.ID] = it.Role
		}
	default:
		if roles, err = tx.TeamRolesOf(ctx, orgID, c.UserID); err != nil {
			return res, err
		}
	}
	teams := make([]*Team, len(res.Items))
	for i := range res.Items {
		res.Items[i].Team.Permissions = teamPermissions(caller, roles[res.Items[i].Team.ID])
		teams[i] = &res.Items[i].Team.Team
	}
	return res, s.countTeamSpaces(ctx, orgID, teams)
}

// AddTeamMember puts a member of the organization on a team. Without a role, a new team
// member joins as a member and an existing one keeps their role.
func (s *Service) AddTeamMember(ctx context.Context, c auth.Caller, orgID, teamID, userID string, role *string) error {
	var want TeamRole
	if role != nil {
		r, err := ParseTeamRole("role", *role)
		if err != nil {
			return err
		}
		want = r
	}
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.requireTeamManager(ctx, tx, c, orgID, teamID); err != nil {
			return err
		}
		if _, err := s.teamCandidate(ctx, tx, orgID, "userId", userID); err != nil {
			return err
		}
		if want == "" {
			_, err := tx.TeamRole(ctx, teamID, userID)
			if err == nil {
				return nil // already on the team: keep their role
			}
			if !errors.Is(err, ErrNotFound) {
				return err
			}
			want = TeamMember
		}
		return tx.SetTeamMember(ctx, teamID, userID, want, now)
	})
}

// RemoveTeamMember takes a user off a team and reports whether they were on it.
func (s *Service) RemoveTeamMember(ctx context.Context, c auth.Caller, orgID, teamID, userID string) (bool, error) {
	removed := false
	err := s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		if _, err := s.requireTeamManager(ctx, tx, c, orgID, teamID); err != nil {
			return err
		}
		var err error
		removed, err = tx.RemoveTeamMember(ctx, teamID, userID)
		return err
	})
	return removed, err
}

// TeamMembersUpdate is a batch of changes to a team's members. Users are named by id or by
// email in Add and Remove, and by id in Roles.
type TeamMembersUpdate struct {
	Add    []string
	Remove []string
	Roles  map[string]string // user id → team role
}

func (u TeamMembersUpdate) validate() (map[string]TeamRole, error) {
	for _, f := range []struct {
		name string
		n    int
	}{{"add", len(u.Add)}, {"remove", len(u.Remove)}, {"memberships", len(u.Roles)}} {
		if f.n > MaxTeamBatch {
			return nil, apperr.Invalidf("%s: must hold at most %d users (got %d)", f.name, MaxTeamBatch, f.n)
		}
	}
	roles := make(map[string]TeamRole, len(u.Roles))
	for _, id := range sortedKeys(u.Roles) {
		r, err := ParseTeamRole("memberships."+id+".role", u.Roles[id])
		if err != nil {
			return nil, err
		}
		roles[id] = r
	}
	return roles, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// UpdateTeamMembers applies a batch of changes in one transaction: users in Add join (with
// their role from Roles, else as members; existing team members keep their role), Roles
// changes the role of users on the team, and Remove takes users off it. A user may not be
// both added (or given a role) and removed. Nothing is written unless the whole batch is valid.
func (s *Service) UpdateTeamMembers(ctx context.Context, c auth.Caller, orgID, teamID string, u TeamMembersUpdate) error {
	roles, err := u.validate()
	if err != nil {
		return err
	}
	now := s.clock.Now()
	return s.store.Write(ctx, now, func(tx Tx) error {
		if _, err := s.requireTeamManager(ctx, tx, c, orgID, teamID); err != nil {
			return err
		}
		set := map[string]TeamRole{} // final role of every user added or given a role
		var order []string           // the users of set, in the order they were named
		for i, ref := range u.Add {
			field := fieldIndex("add", i)
			id, found, err := s.resolveUser(ctx, tx, orgID, ref)
			if err != nil {
				return err
			}
			if !found {
				return apperr.Invalidf("%s: user %q is not a member of the organization", field, ref)
			}
			if _, err := s.teamCandidate(ctx, tx, orgID, field, id); err != nil {
				return err
			}
			if _, seen := set[id]; seen {
				continue
			}
			current, err := tx.TeamRole(ctx, teamID, id)
			switch {
			case err == nil:
				set[id] = current
			case errors.Is(err, ErrNotFound):
				set[id] = TeamMember
			default:
				return err
			}
			order = append(order, id)
		}
		for _, id := range sortedKeys(roles) {
			if _, adding := set[id]; !adding {
				if _, err := tx.TeamRole(ctx, teamID, id); err != nil {
					if errors.Is(err, ErrNotFound) {
						return apperr.Invalidf("memberships.%s: user %q is not on team %s; add them with add", id, id, teamID)
					}
					return err
				}
				order = append(order, id)
			}
			set[id] = roles[id]
		}
		var remove []string
		for i, ref := range u.Remove {
			id, found, err := s.resolveUser(ctx, tx, orgID, ref)
			if err != nil {
				return err
			}
			if !found {
				continue // nobody to remove
			}
			if _, conflict := set[id]; conflict {
				return apperr.Invalidf("%s: user %q cannot be both added or given a role and removed", fieldIndex("remove", i), ref)
			}
			remove = append(remove, id)
		}
		for _, id := range order {
			if err := tx.SetTeamMember(ctx, teamID, id, set[id], now); err != nil {
				return err
			}
		}
		for _, id := range remove {
			if _, err := tx.RemoveTeamMember(ctx, teamID, id); err != nil {
				return err
			}
		}
		return nil
	})
}
