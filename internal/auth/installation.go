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
