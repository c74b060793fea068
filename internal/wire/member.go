package wire

import "docsd/internal/org"

// Member is the `member` object.
type Member struct {
	Object     string  `json:"object"`
	ID         string  `json:"id"`
	Role       *string `json:"role"`
	User       User    `json:"user"`
	Disabled   bool    `json:"disabled"`
	JoinedAt   Time    `json:"joinedAt"`
	LastSeenAt *Time   `json:"lastSeenAt,omitempty"`
	SSO        bool    `json:"sso"`
	Spaces     int     `json:"spaces"`
	Sites      int     `json:"sites"`
	Teams      int     `json:"teams"`
}

// FromMember converts a membership.
func (u URLs) FromMember(m org.Member) Member {
	return Member{Object: "member", ID: m.User.ID, Role: RolePtr(m.Role), User: u.FromUser(m.User), Disabled: m.Disabled,
		JoinedAt: Time(m.JoinedAt), LastSeenAt: TimePtr(m.LastSeenAt), SSO: m.SSO, Spaces: m.Spaces, Sites: m.Sites, Teams: m.Teams}
}
