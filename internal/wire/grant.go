package wire

import "docsd/internal/space"

// UserContentPermission is a user with their role on a space or collection.
type UserContentPermission struct {
	Permission string `json:"permission"`
	User       User   `json:"user"`
}

// FromUserGrant converts a user's grant (or effective role, in aggregate lists).
func (u URLs) FromUserGrant(g space.UserGrant) UserContentPermission {
	return UserContentPermission{Permission: string(g.Role), User: u.FromUser(g.User)}
}

// TeamContentPermission is a team with its role on a space or collection.
type TeamContentPermission struct {
	Permission string `json:"permission"`
	Team       Team   `json:"team"`
}

// FromTeamGrant converts a team's grant.
func (u URLs) FromTeamGrant(g space.TeamGrant) TeamContentPermission {
	return TeamContentPermission{Permission: string(g.Role), Team: u.FromTeam(g.Team)}
}
