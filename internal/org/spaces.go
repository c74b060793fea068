package org

import (
	"context"

	"docsd/internal/auth"
)

// SpaceCounter counts the spaces that members and teams reach, by the space domain's access
// rule; the space service implements it. Without one, the counts stay 0.
type SpaceCounter interface {
	// MemberSpaceCounts counts, for each of userIDs, the live spaces of orgID they can access.
	MemberSpaceCounts(ctx context.Context, orgID string, userIDs []string) (map[string]int, error)
	// TeamSpaceCounts counts, for each team of orgID, the live spaces its grants open.
	TeamSpaceCounts(ctx context.Context, orgID string) (map[string]int, error)
}

// SetSpaceCounter gives the service the counter of members' and teams' spaces. The space
// service is built on organizations, so it is handed over once both exist.
func (s *Service) SetSpaceCounter(c SpaceCounter) { s.spaces = c }

// SiteCounter counts an organization's sites; the site service implements it. Every member
// who is not a guest can access every site of the organization (guests none), so that count
// is each member's Sites.
type SiteCounter interface {
	CountSites(ctx context.Context, orgID string) (int, error)
}

// SetSiteCounter gives the service the counter of sites, handed over as SetSpaceCounter is.
func (s *Service) SetSiteCounter(c SiteCounter) { s.sites = c }

// countMemberSpaces fills the Spaces and Sites counts of members of orgID.
func (s *Service) countMemberSpaces(ctx context.Context, orgID string, ms []Member) error {
	if len(ms) == 0 {
		return nil
	}
	if s.sites != nil {
		n, err := s.sites.CountSites(ctx, orgID)
		if err != nil {
			return err
		}
		for i := range ms {
			if ms[i].Role != auth.Guest {
				ms[i].Sites = n
			}
		}
	}
	if s.spaces == nil {
		return nil
	}
	ids := make([]string, len(ms))
	for i, m := range ms {
		ids[i] = m.User.ID
	}
	counts, err := s.spaces.MemberSpaceCounts(ctx, orgID, ids)
	for i := range ms {
		ms[i].Spaces = counts[ms[i].User.ID]
	}
	return err
}

// withSpaceCount returns m with its Spaces count.
func (s *Service) withSpaceCount(ctx context.Context, m Member) (Member, error) {
	ms := []Member{m}
	err := s.countMemberSpaces(ctx, m.OrganizationID, ms)
	return ms[0], err
}

// countTeamSpaces fills the Spaces count of teams of orgID.
func (s *Service) countTeamSpaces(ctx context.Context, orgID string, ts []*Team) error {
	if s.spaces == nil || len(ts) == 0 {
		return nil
	}
	counts, err := s.spaces.TeamSpaceCounts(ctx, orgID)
	for _, t := range ts {
		t.Spaces = counts[t.ID]
	}
	return err
}
