package wire

import (
	"docsd/internal/access"
	"encoding/json"

	"docsd/internal/auth"
	"docsd/internal/site"
)

// Site is the `site` object.
type Site struct {
	Object          string              `json:"object"`
	ID              string              `json:"id"`
	Type            string              `json:"type"`
	AppliedType     string              `json:"appliedType"` // docsd freezes no site: its type
	Title           string              `json:"title"`
	Icon            json.RawMessage     `json:"icon,omitempty"`
	Hostname        string              `json:"hostname,omitempty"`
	Basename        string              `json:"basename"`
	Proxy           *SiteProxy          `json:"proxy,omitempty"`
	Visibility      string              `json:"visibility"`
	DefaultLevel    string              `json:"defaultLevel"`
	Permissions     SitePermissions     `json:"permissions"`
	Published       bool                `json:"published"`
	SiteSpaces      int                 `json:"siteSpaces"`
	CreatedAt       Time                `json:"createdAt"`
	AdaptiveContent SiteAdaptiveContent `json:"adaptiveContent"`
	Ads             SiteAds             `json:"ads"`
	AgentsContext   string              `json:"agentsContext"`
	Features        []SiteFeature       `json:"features"`
	URLs            SiteURLs            `json:"urls"`
}

type SiteProxy struct {
	Origin string `json:"origin"`
	Target string `json:"target"`
}

type SiteAdaptiveContent struct {
	Enabled bool `json:"enabled"`
}

// SiteAds: docsd runs no ad network, so every site is pending and not submittable.
type SiteAds struct {
	Status      string `json:"status"`
	Submittable bool   `json:"submittable"`
}

type SiteFeature struct {
	ID             string   `json:"id"`
	Plan           string   `json:"plan"`
	Frozen         bool     `json:"frozen"`
	Customizations []string `json:"customizations,omitempty"`
}

type SiteURLs struct {
	Location  string `json:"location"`
	App       string `json:"app"`
	Published string `json:"published,omitempty"`
	// Preview is the address the site is served at once published: docsd has no separate
	// preview of an unpublished site.
	Preview string `json:"preview"`
}

// SitePermissions is what the caller may do with a site: every member of the organization
// but a guest reads every site and its adaptive schema; admins change them.
type SitePermissions struct {
	View               bool `json:"view"`
	Access             bool `json:"access"`
	Edit               bool `json:"edit"`
	Create             bool `json:"create"`
	Admin              bool `json:"admin"`
	InstallIntegration bool `json:"installIntegration"`
	ViewAdaptiveSchema bool `json:"viewAdaptiveSchema"`
	EditAdaptiveSchema bool `json:"editAdaptiveSchema"`
}

// siteDefaultLevel is what members get on a site: read (admins, who change sites, are
// above it).
const siteDefaultLevel = "read"

func sitePermissions(role auth.Role) SitePermissions {
	p := access.ForSite(role)
	return SitePermissions{View: p.View, Access: p.Access, Edit: p.Edit, Create: p.Create, Admin: p.Admin,
		InstallIntegration: p.InstallIntegration, ViewAdaptiveSchema: p.ViewAdaptiveSchema, EditAdaptiveSchema: p.EditAdaptiveSchema}
}

// SiteLocation is the API URL of a site.
func (u URLs) SiteLocation(orgID, id string) string {
	return u.API("/orgs/" + Esc(orgID) + "/sites/" + Esc(id))
}

// SitePublished is a site's published address; "" until it is published.
func (u URLs) SitePublished(st site.Site) string {
	if !st.Published {
		return ""
	}
	return site.PublishedURL(u.Base, st)
}

// FromSite converts a site. icon is the favicon of its customization (nil for none).
func (u URLs) FromSite(v site.View, icon json.RawMessage) Site {
	out := Site{Object: "site", ID: v.ID, Type: v.Type, AppliedType: v.Type, Title: v.Title, Icon: icon, Hostname: v.Hostname,
		Basename: v.Basename, Visibility: string(v.Visibility), DefaultLevel: siteDefaultLevel,
		Permissions: sitePermissions(v.CallerRole), Published: v.Published, SiteSpaces: v.SiteSpaces,
		CreatedAt: Time(v.CreatedAt), AdaptiveContent: SiteAdaptiveContent{Enabled: v.AdaptiveContent},
		Ads: SiteAds{Status: "pending"}, AgentsContext: v.AgentsContext, Features: []SiteFeature{},
		URLs: SiteURLs{Location: u.SiteLocation(v.OrganizationID, v.ID), App: u.App("/o/" + Esc(v.OrganizationID) + "/sites/" + Esc(v.ID)),
			Published: u.SitePublished(v.Site), Preview: site.PublishedURL(u.Base, v.Site)}}
	if v.ProxyOrigin != "" {
		out.Proxy = &SiteProxy{Origin: v.ProxyOrigin, Target: site.PublishedURL(u.Base, v.Site)}
	}
	return out
}

// SiteSpace is the `site-space` object.
type SiteSpace struct {
	Object                          string        `json:"object"`
	ID                              string        `json:"id"`
	Path                            string        `json:"path"`
	Section                         string        `json:"section,omitempty"`
	Space                           Space         `json:"space"`
	Title                           string        `json:"title"`
	Default                         bool          `json:"default"`
	Condition                       *string       `json:"condition,omitempty"`
	HasAdvancedCustomizationFeature bool          `json:"hasAdvancedCustomizationFeature"`
	URLs                            PublishedURLs `json:"urls"`
	Draft                           bool          `json:"draft"` // docsd has no draft structure: always false
}

// PublishedURLs hold an item's published address; absent until its site is published.
type PublishedURLs struct {
	Published string `json:"published,omitempty"`
}

// SiteSection is the `site-section` object.
type SiteSection struct {
	Object       string        `json:"object"`
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Description  string        `json:"description,omitempty"`
	Default      bool          `json:"default"`
	Path         string        `json:"path"`
	Condition    *string       `json:"condition,omitempty"`
	SectionGroup string        `json:"sectionGroup,omitempty"`
	SiteSpaces   []SiteSpace   `json:"siteSpaces"`
	URLs         PublishedURLs `json:"urls"`
	Icon         string        `json:"icon,omitempty"`
	Draft        bool          `json:"draft"` // docsd has no draft structure: always false
}

// SiteSectionGroup is the `site-section-group` object. `sections` (deprecated) lists the
// group's own sections; `children` its sections and groups in order.
type SiteSectionGroup struct {
	Object       string        `json:"object"`
	ID           string        `json:"id"`
	Title        string        `json:"title"`
	Sections     []SiteSection `json:"sections"`
	SectionGroup string        `json:"sectionGroup,omitempty"`
	Children     []any         `json:"children"`
	Icon         string        `json:"icon,omitempty"`
	Draft        bool          `json:"draft"` // docsd has no draft structure: always false
}

// SiteStructure is the `structure` of a site: sections (and groups) or site spaces.
type SiteStructure struct {
	Type      string `json:"type"`
	Structure []any  `json:"structure"`
}

// ShareLink is the `share-link` object.
type ShareLink struct {
	Object    string        `json:"object"`
	ID        string        `json:"id"`
	CreatedAt Time          `json:"createdAt"`
	Name      string        `json:"name"`
	Active    bool          `json:"active"`
	URLs      PublishedURLs `json:"urls"`
}

// FromShareLink converts a share link; its published URL carries the key.
func (u URLs) FromShareLink(st site.Site, l site.ShareLink) ShareLink {
	return ShareLink{Object: "share-link", ID: l.ID, CreatedAt: Time(l.CreatedAt), Name: l.Name, Active: l.Active,
		URLs: PublishedURLs{Published: site.ShareLinkURL(u.Base, st, l)}}
}

// SiteAdaptiveSchema is the `site-adaptive-schema` object.
type SiteAdaptiveSchema struct {
	Object     string          `json:"object"`
	JSONSchema json.RawMessage `json:"jsonSchema"`
	UpdatedAt  Time            `json:"updatedAt"`
}

// FromAdaptiveSchema converts an adaptive schema.
func FromAdaptiveSchema(a site.AdaptiveSchema) SiteAdaptiveSchema {
	return SiteAdaptiveSchema{Object: "site-adaptive-schema", JSONSchema: a.JSONSchema, UpdatedAt: Time(a.UpdatedAt)}
}

// TemplateCondition is an item of the template conditions.
type TemplateCondition struct {
	Description string `json:"description"`
	Condition   string `json:"condition"`
}

// PublishingAuth is the `publishing-auth` object: visitor-auth settings with the signing key.
type PublishingAuth struct {
	Object      string `json:"object"`
	Backend     string `json:"backend"`
	PrivateKey  string `json:"privateKey"`
	FallbackURL string `json:"fallbackURL,omitempty"`
}

// FromVisitorAuth converts visitor-auth settings.
func FromVisitorAuth(a site.VisitorAuthSettings) PublishingAuth {
	return PublishingAuth{Object: "publishing-auth", Backend: a.Backend, PrivateKey: a.Key, FallbackURL: a.FallbackURL}
}

// PublishedContentSite is the `published-content-site` profile.
type PublishedContentSite struct {
	Object         string                 `json:"object"`
	Site           Site                   `json:"site"`
	Structure      SiteStructure          `json:"structure"`
	Customizations PublishedCustomization `json:"customizations"`
	Scripts        []any                  `json:"scripts"`
}

// PublishedCustomization holds the site's customization and each site space's.
type PublishedCustomization struct {
	Site       json.RawMessage            `json:"site"`
	SiteSpaces map[string]json.RawMessage `json:"siteSpaces"`
}
