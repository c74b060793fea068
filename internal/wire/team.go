package wire

import "docsd/internal/org"

// Team is the `team` object (OrganizationTeam).
type Team struct {
	Object      string          `json:"object"`
	ID          string          `json:"id"`
	Title       string          `json:"title"`
	Members     int             `json:"members"`
	Spaces      int             `json:"spaces"`
	CreatedAt   Time            `json:"createdAt"`
	Permissions TeamPermissions `json:"permissions"`
}

type TeamPermissions struct {
	Admin bool `json:"admin"`
	View  bool `json:"view"`
}

// TeamMemberRole is a user's role in a team (TeamMember).
type TeamMemberRole struct {
	Role string `json:"role"`
}

// TeamMember is an item of a team's member list (OrganizationTeamMember).
type TeamMember struct {
	Organization Member               `json:"organization"`
	Team         TeamMemberRole       `json:"team"`
	Permissions  TeamMemberPermission `json:"permissions"`
}

type TeamMemberPermission struct {
	View bool `json:"view"`
}

// MemberTeam is an item of a member's team list.
type MemberTeam struct {
	Team   Team           `json:"team"`
	Member TeamMemberRole `json:"member"`
}

// FromTeam converts a team as seen by one caller.
func (u URLs) FromTeam(v org.TeamView) Team {
	return Team{Object: "team", ID: v.ID, Title: v.Title, Members: v.Members, Spaces: v.Spaces, CreatedAt: Time(v.CreatedAt),
		Permissions: TeamPermissions{Admin: v.Permissions.Admin, View: v.Permissions.View}}
}

// FromTeamMembership converts a team member. Whoever may list a team's members may see each
// of them.
func (u URLs) FromTeamMembership(m org.TeamMembership) TeamMember {
	return TeamMember{Organization: u.FromMember(m.Member), Team: TeamMemberRole{Role: string(m.Role)},
		Permissions: TeamMemberPermission{View: true}}
}

// FromMemberTeam converts a team of a member.
func (u URLs) FromMemberTeam(m org.MemberTeam) MemberTeam {
	return MemberTeam{Team: u.FromTeam(m.Team), Member: TeamMemberRole{Role: string(m.Role)}}
}
