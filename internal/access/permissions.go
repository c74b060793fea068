package access

import (
	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// SpacePermissions is the `permissions` object of a space.
type SpacePermissions struct {
	View, Access, Admin, ViewInviteLinks, Edit, TriggerGitSync, Comment, Merge, Review, InstallIntegration bool
}

// ForSpace is what a caller holding role may do with a space. Content edits (edit, merge,
// git sync) are off while the space is locked, whatever the role.
func ForSpace(r auth.Role, locked bool) SpacePermissions {
	editable := !locked
	return SpacePermissions{
		View:               r.AtLeast(auth.Read),
		Access:             r.AtLeast(auth.Read),
		Admin:              r == auth.Admin,
		ViewInviteLinks:    r == auth.Admin,
		Edit:               r.AtLeast(auth.Edit) && editable,
		TriggerGitSync:     r.AtLeast(auth.Edit) && editable,
		Comment:            r.AtLeast(auth.Comment),
		Merge:              r.AtLeast(auth.Edit) && editable,
		Review:             r.AtLeast(auth.Review),
		InstallIntegration: r == auth.Admin,
	}
}

// CollectionPermissions is the `permissions` object of a collection.
type CollectionPermissions struct{ View, Admin, ViewInviteLinks, Create bool }

// ForCollection is what a caller holding role may do with a collection.
func ForCollection(r auth.Role) CollectionPermissions {
	return CollectionPermissions{
		View:            r.AtLeast(auth.Read),
		Admin:           r == auth.Admin,
		ViewInviteLinks: r == auth.Admin,
		Create:          r.AtLeast(auth.Create),
	}
}

// SitePermissions is the `permissions` object of a site.
type SitePermissions struct {
	View, Access, Edit, Create, Admin, InstallIntegration, ViewAdaptiveSchema, EditAdaptiveSchema bool
}

// ForSite is what a caller with orgRole may do with the organization's sites: members read
// them (SiteRole), admins change them.
func ForSite(orgRole auth.Role) SitePermissions {
	member, admin := orgRole != auth.Guest, orgRole == auth.Admin
	return SitePermissions{View: member, Access: member, Edit: admin, Create: admin, Admin: admin,
		InstallIntegration: admin, ViewAdaptiveSchema: member, EditAdaptiveSchema: admin}
}

// SiteRole is a member's role on the organization's sites: admins administer them, other
// members read them (a site's default level), guests have none.
func SiteRole(orgRole auth.Role) auth.Role {
	if orgRole == auth.Admin || orgRole == auth.Guest {
		return orgRole
	}
	return auth.Read
}

// Limit is the role a caller acts with on a space of orgID, given the role their user holds
// there: an integration installation's token (auth.InstallationGrant) acts for no user, with
// the role its scopes give on the spaces it covers, and none elsewhere.
func Limit(c auth.Caller, orgID, spaceID string, r auth.Role) auth.Role {
	if c.Installation != nil {
		return c.Installation.SpaceRole(orgID, spaceID)
	}
	return r
}

// LimitCollection is Limit for collections and the top level of the tree, where an
// installation's token has no role.
func LimitCollection(c auth.Caller, r auth.Role) auth.Role {
	if c.Installation != nil {
		return auth.Guest
	}
	return r
}

// RequireSite decides an action on an organization's sites for a caller with orgRole there
// (member is false for non-members and disabled members): the organization does not exist
// for non-members (404); guests see only the content they are granted, and a site's
// structure would show them the titles of every published space, so sites are closed to them
// (403); changes need an organization admin (403). It returns the caller's role on the sites.
func RequireSite(orgRole auth.Role, member, change bool, orgID string) (auth.Role, error) {
	switch {
	case !member:
		return auth.Guest, apperr.NotFoundf("organization %s not found", orgID)
	case orgRole == auth.Guest:
		return auth.Guest, apperr.Forbiddenf("guests of the organization have no access to its sites")
	case change && orgRole != auth.Admin:
		return orgRole, apperr.Forbiddenf("only organization admins may change sites")
	}
	return orgRole, nil
}
