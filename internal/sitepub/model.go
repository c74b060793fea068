// Package sitepub decides what a reader of a published docs site sees: which site a request
// is for, whether the reader may read it (visibility, share keys, visitor tokens), and which
// sections, site spaces and pages appear for the reader's claims (adaptive content). It
// renders nothing and speaks no HTTP: the site HTTP handler asks it, then renders.
package sitepub

import (
	"context"
	"encoding/json"

	"docsd/internal/site"
)

// Visibility says who may read a published site.
type Visibility string

const (
	Public      Visibility = "public"       // anyone; indexed by search engines
	Unlisted    Visibility = "unlisted"     // anyone; served with noindex
	ShareLink   Visibility = "share-link"   // only with an active share link's key
	VisitorAuth Visibility = "visitor-auth" // only with a visitor token signed with the site's key
)

// Site is what serving needs of a docs site.
type Site struct {
	ID             string
	OrganizationID string
	Basename       string
	Title          string
	Hostname       string // custom hostname; "" when none
	Visibility     Visibility
	Published      bool
	// AdaptiveSchema is the site's visitor schema (JSON Schema draft-07); nil when none.
	AdaptiveSchema json.RawMessage
	Customization  Customization
	Auth           Auth // visitor tokens' signing key and login URL

	// stored is the site as the source read it, so later reads of the same request need not
	// read it again; nil for sites made elsewhere.
	stored *site.Site
}

// Customization is the part of a site's customization a rendered page shows.
type Customization struct {
	Title        string // overrides the site's title in the header when set
	PrimaryColor string // light-theme primary colour, a CSS colour
	TintColor    string
	// PrimaryDark and TintDark are the dark theme's colours.
	PrimaryDark, TintDark string
	// Dark says when the dark theme applies: "always", "system" (the reader's preference) or
	// "" (never).
	Dark         string
	LogoURL      string
	FaviconURL   string
	HeaderLinks  []Link
	FooterGroups []LinkGroup
	Copyright    string
	// Announcement is a banner message over every page; "" when none is enabled.
	Announcement     string
	AnnouncementLink Link
	// Pagination shows links to the previous and next pages under each page.
	Pagination bool
}

// Link is a header or footer link; a header link with a condition shows only to readers for
// whom it holds.
type Link struct {
	Title     string
	URL       string
	Condition string
}

// LinkGroup is a titled column of footer links.
type LinkGroup struct {
	Title string
	Links []Link
}

// Structure is a site's organization: sections (possibly in groups), each with its site
// spaces, or site spaces at the root of a site without sections.
type Structure struct {
	// Top is the site's top level, in order: sections and section groups. Empty when the
	// site has no sections.
	Top []Node
	// SiteSpaces are the site spaces at the root of a site without sections, in order.
	SiteSpaces []SiteSpace
}

// Node is one entry of the site's top level or of a group: a section or a group.
type Node struct {
	Section *Section
	Group   *Group
}

// Group is a section group; groups nest.
type Group struct {
	ID       string
	Title    string
	Children []Node
}

// Section is a site section with its site spaces (variants).
type Section struct {
	ID         string
	Title      string
	Path       string
	Condition  string // "" when always shown
	Default    bool
	SiteSpaces []SiteSpace
}

// SiteSpace is a space published in a site, at a path of its section (or of the site).
type SiteSpace struct {
	ID        string
	Title     string
	Path      string
	SpaceID   string
	Condition string // "" when always shown
	Default   bool
	// Customization is the site's customization with this site space's overrides; nil when
	// it has none.
	Customization *Customization
}

// Auth is a visitor-auth site's signing secret and where unauthenticated readers go.
type Auth struct {
	Key         []byte // HMAC secret that signs visitor tokens; empty when none is set
	FallbackURL string // login URL; "" answers 401 instead of redirecting
	// Backend is "integration" when a site installation's integration authenticates the
	// readers (its signing secret is then Key, put there by the reader's handler), else "custom".
	Backend string
	// Authenticator is the installation whose integration authenticates the readers, when
	// Backend is "integration" and one is installed (set with Key by the reader's handler).
	Authenticator string
}

// Source is what the published-site service reads. Methods return an apperr NotFound when
// the site (or its part) does not exist.
type Source interface {
	// SiteByBasename returns the site of an organization with a basename, published or not.
	SiteByBasename(ctx context.Context, orgID, basename string) (Site, error)
	// SiteByHostname returns the site with that custom hostname.
	SiteByHostname(ctx context.Context, hostname string) (Site, error)
	// Structure returns the site's sections, groups and site spaces, in order.
	Structure(ctx context.Context, s Site) (Structure, error)
	// ShareKeyActive reports whether key is the key of an active share link of the site.
	ShareKeyActive(ctx context.Context, siteID, key string) (bool, error)
}
