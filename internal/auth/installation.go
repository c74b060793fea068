package auth

import (
	"strings"

	"docsd/internal/ids"
)

// InstallationTokenPrefix marks installation tokens (createIntegrationInstallationToken), which
// are short-lived and act for one integration installation, not for a user.
const InstallationTokenPrefix = "dsdi_"

// NewInstallationToken returns a fresh installation token. Only its hash is stored.
func NewInstallationToken() string { return InstallationTokenPrefix + ids.Secret() }

// IsInstallationToken tells an installation token from a user's API token.
func IsInstallationToken(tok string) bool { return strings.HasPrefix(tok, InstallationTokenPrefix) }

// InstallationGrant is what an installation token may do: the installation's scopes, on the
// spaces and sites it covers, in its organization.
type InstallationGrant struct {
	ID          string // the installation
	Integration string
	OrgID       string
	Scopes      []string
	Spaces      []string // spaces it is installed on
	Sites       []string // sites it is installed on
	AllSpaces   bool     // every space of OrgID (space_selection all)
	AllSites    bool     // every site of OrgID (site_selection all)
}

// Has reports whether the installation holds scope.
func (g *InstallationGrant) Has(scope string) bool {
	for _, s := range g.Scopes {
		if s == scope {
			return true
		}
	}
	return false
}

// CoversSpace reports whether the installation covers a space of orgID.
func (g *InstallationGrant) CoversSpace(orgID, spaceID string) bool {
	if g == nil || g.OrgID != orgID {
		return false
	}
	if g.AllSpaces {
		return true
	}
	for _, id := range g.Spaces {
		if id == spaceID {
			return true
		}
	}
	return false
}

// SpaceRole is the role an installation token acts with on a space of orgID: edit with
// space:content:write, read with space:content:read or space:metadata:read, on the spaces
// the installation covers; none (a guest, who sees nothing) elsewhere.
func (g *InstallationGrant) SpaceRole(orgID, spaceID string) Role {
	switch {
	case !g.CoversSpace(orgID, spaceID):
		return Guest
	case g.Has("space:content:write"):
		return Edit
	case g.Has("space:content:read"), g.Has("space:metadata:read"):
		return Read
	}
	return Guest
}
