package wire

import "docsd/internal/org"

// InviteLink is the organization variant of `OrganizationInviteLink` (object `invite`).
type InviteLink struct {
	Object    string  `json:"object"`
	ID        string  `json:"id"`
	Role      *string `json:"role"`
	Redundant bool    `json:"redundant"`
}

// InviteLinkLocation is the API URL of an invite link.
func (u URLs) InviteLinkLocation(orgID, id string) string {
	return u.OrgLocation(orgID) + "/link-invites/" + Esc(id)
}

// FromInviteLink converts an invite link as seen by one caller.
func FromInviteLink(v org.InviteView) InviteLink {
	return InviteLink{Object: "invite", ID: v.ID, Role: RolePtr(v.Role), Redundant: v.Redundant}
}

// InviteUsersResult is the answer to an invitation by email.
type InviteUsersResult struct {
	Users   []string `json:"users"`
	Invited int      `json:"invited"`
	// FailedSSOEmails is present (possibly empty) only when SSO membership was asked for.
	FailedSSOEmails []string `json:"failedSSOEmails,omitzero"`
}

// FromInviteUsersResult converts the result of an invitation by email.
func FromInviteUsersResult(r org.InviteUsersResult) InviteUsersResult {
	return InviteUsersResult{Users: r.Users, Invited: r.Invited, FailedSSOEmails: r.FailedSSOEmails}
}
