package access

import (
	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// OrgNeed is what an action on an organization needs of its caller.
type OrgNeed int

const (
	AnyMember OrgNeed = iota // any enabled member, guests included
	NonGuest                 // a member with a role (guests see only what they were granted)
	OrgAdmin                 // an admin of the organization
)

// RequireOrg decides an action on an organization for a caller with role there (member is
// false for non-members and disabled members): an organization's existence is private, so
// non-members get 404; members short of need get 403.
func RequireOrg(role auth.Role, member bool, need OrgNeed, orgID string) error {
	switch {
	case !member:
		return apperr.NotFoundf("organization %s not found", orgID)
	case need == NonGuest && role == auth.Guest:
		return apperr.Forbiddenf("guests may not do this")
	case need == OrgAdmin && role != auth.Admin:
		return apperr.Forbiddenf("only organization admins may do this")
	}
	return nil
}

// OrgPermissions is the `permissions` object of an organization.
type OrgPermissions struct {
	View, Access, Admin, OwnTeam, CreateContent, CreateOpenAPISpec, IngestConversations,
	ViewBilling, ListMembers, ListTeams, ListIntegrations, ListInstallations, InstallIntegration bool
}

// ForOrg is what a member with role may do with the organization; ownsTeam is whether they
// own one of its teams.
func ForOrg(role auth.Role, ownsTeam bool) OrgPermissions {
	admin := role == auth.Admin
	member := role != auth.Guest
	return OrgPermissions{
		View:                true,
		Access:              true, // every member, guests too, opens it in the app
		Admin:               admin,
		OwnTeam:             ownsTeam || admin,
		CreateContent:       role.AtLeast(auth.Create),
		CreateOpenAPISpec:   role.AtLeast(auth.Create),
		IngestConversations: admin,
		ViewBilling:         admin,
		ListMembers:         member,
		ListTeams:           member,
		ListIntegrations:    member,
		ListInstallations:   admin,
		InstallIntegration:  admin,
	}
}
