package access

import "docsd/internal/auth"

// Kind is the kind of caller a decision is made for.
type Kind int

const (
	Anonymous    Kind = iota // no credentials
	User                     // an API token of a user: member, guest or outsider of an organization
	ShareLink                // a reader holding a site's share link
	SiteVisitor              // a visitor of a published site authenticated by a signed JWT
	Installation             // an installation token of an integration (auth.InstallationGrant)
)

// Caller is who a decision is made for. Users and installation tokens carry their
// auth.Caller (which holds the installation's grant for an installation token); share-link
// readers and site visitors carry the site they came through and what admits them.
type Caller struct {
	Kind Kind
	User auth.Caller
	// Site is the site a share-link reader or visitor came through.
	Site string
	// ShareKey is the share link's key (ShareLink).
	ShareKey string
	// Claims are a visitor's verified JWT claims (SiteVisitor).
	Claims map[string]any
}

// FromAuth is the caller behind an authenticated API request.
func FromAuth(c auth.Caller) Caller {
	switch {
	case c.Installation != nil:
		return Caller{Kind: Installation, User: c}
	case c.UserID != "":
		return Caller{Kind: User, User: c}
	}
	return Caller{Kind: Anonymous}
}
