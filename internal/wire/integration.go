package wire

import (
	"encoding/json"

	"docsd/internal/integration"
	"docsd/internal/org"
)

// Integration is an integration (object "integration").
type Integration struct {
	Object                string              `json:"object"`
	Name                  string              `json:"name"`
	Version               int                 `json:"version"`
	Title                 string              `json:"title"`
	Description           string              `json:"description"`
	Summary               string              `json:"summary,omitempty"`
	PreviewImages         []string            `json:"previewImages"`
	Target                string              `json:"target"`
	Verified              bool                `json:"verified"`
	Visibility            string              `json:"visibility"`
	Scopes                []string            `json:"scopes"`
	Categories            []string            `json:"categories"`
	Blocks                []integration.Block `json:"blocks"`
	ContentSources        json.RawMessage     `json:"contentSources,omitempty"`
	Configurations        json.RawMessage     `json:"configurations,omitempty"`
	ExternalLinks         json.RawMessage     `json:"externalLinks"`
	Owner                 Organization        `json:"owner"`
	URLs                  IntegrationURLs     `json:"urls"`
	PermissionsOut        map[string]bool     `json:"permissions"`
	ContentSecurityPolicy json.RawMessage     `json:"contentSecurityPolicy,omitempty"`
}

// IntegrationURLs are an integration's addresses.
type IntegrationURLs struct {
	Location       string `json:"location"`
	Icon           string `json:"icon,omitempty"`
	App            string `json:"app"`
	Assets         string `json:"assets"`
	PublicEndpoint string `json:"publicEndpoint"`
	// PublicContentEndpoint is required by newer versions of the spec.
	PublicContentEndpoint string `json:"publicContentEndpoint"`
}

// IntegrationLocation is an integration's address in the API.
func (u URLs) IntegrationLocation(name string) string { return u.API("/integrations/" + Esc(name)) }

// IntegrationImage is the address an integration's image is served at.
func (u URLs) IntegrationImage(name, id string) string {
	return u.IntegrationLocation(name) + "/images/" + Esc(id)
}

// FromIntegration converts an integration as one caller sees it.
func (u URLs) FromIntegration(v integration.View) Integration {
	m := v.Manifest
	out := Integration{Object: "integration", Name: v.Name, Version: v.Version, Title: m.Title, Description: m.Description,
		Summary: m.Summary, PreviewImages: []string{}, Target: v.Target, Visibility: v.Visibility,
		Scopes: nonNil(m.Scopes), Categories: nonNil(m.Categories), Blocks: m.Blocks,
		ContentSources: m.ContentSources, Configurations: m.Configurations, ExternalLinks: m.ExternalLinks,
		Owner:          u.FromOrganization(org.View{Organization: v.Owner}),
		PermissionsOut: map[string]bool{"admin": v.Admin}, ContentSecurityPolicy: m.CSP}
	if out.Blocks == nil {
		out.Blocks = []integration.Block{}
	}
	if len(out.ExternalLinks) == 0 || string(out.ExternalLinks) == "null" {
		out.ExternalLinks = json.RawMessage(`[]`)
	}
	for _, id := range m.PreviewImages {
		out.PreviewImages = append(out.PreviewImages, u.IntegrationImage(v.Name, id))
	}
	loc := u.IntegrationLocation(v.Name)
	out.URLs = IntegrationURLs{Location: loc, App: u.Base + "/integrations/" + Esc(v.Name), Assets: loc + "/images",
		PublicEndpoint: loc + "/public", PublicContentEndpoint: loc + "/public/content"}
	if m.Icon != "" {
		out.URLs.Icon = u.IntegrationImage(v.Name, m.Icon)
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// Installation is an integration installed on an organization.
type Installation struct {
	ID             string            `json:"id"`
	Status         string            `json:"status"`
	SpaceSelection string            `json:"space_selection"`
	SiteSelection  string            `json:"site_selection"`
	Spaces         int               `json:"spaces"`
	Configuration  json.RawMessage   `json:"configuration"`
	CreatedAt      Time              `json:"createdAt"`
	UpdatedAt      Time              `json:"updatedAt"`
	URLs           InstallationURLs  `json:"urls"`
	ExternalIDs    []string          `json:"externalIds"`
	Target         map[string]string `json:"target"`
}

// InstallationURLs are an installation's addresses.
type InstallationURLs struct {
	Location              string `json:"location"`
	App                   string `json:"app,omitempty"`
	PublicEndpoint        string `json:"publicEndpoint"`
	PublicContentEndpoint string `json:"publicContentEndpoint"` // required by newer specs
}

// InstallationLocation is an installation's address in the API.
func (u URLs) InstallationLocation(name, id string) string {
	return u.IntegrationLocation(name) + "/installations/" + Esc(id)
}

// FromInstallation converts an installation.
func (u URLs) FromInstallation(in integration.Installation) Installation {
	loc := u.InstallationLocation(in.Integration, in.ID)
	return Installation{ID: in.ID, Status: in.Status, SpaceSelection: in.SpaceSelection, SiteSelection: in.SiteSelection,
		Spaces: in.Spaces, Configuration: in.Configuration, CreatedAt: Time(in.CreatedAt), UpdatedAt: Time(in.UpdatedAt),
		URLs: InstallationURLs{Location: loc, App: u.Base + "/integrations/" + Esc(in.Integration) + "/installations/" + Esc(in.ID),
			PublicEndpoint: loc + "/public", PublicContentEndpoint: loc + "/public"},
		ExternalIDs: nonNil(in.ExternalIDs), Target: map[string]string{"organization": in.OrgID}}
}

// ContentInstallation is a space or site installation; Space or Site is the id, or the object
// when the request asked for it (extended).
type ContentInstallation struct {
	Integration   string           `json:"integration"`
	Installation  string           `json:"installation"`
	Status        string           `json:"status"`
	Configuration json.RawMessage  `json:"configuration"`
	ExternalIDs   []string         `json:"externalIds"`
	URLs          InstallationURLs `json:"urls"`
	Space         any              `json:"space,omitempty"`
	Site          any              `json:"site,omitempty"`
}

// FromContentInstallation converts a space or site installation; target is its id or object.
func (u URLs) FromContentInstallation(ci integration.ContentInstallation, target any) ContentInstallation {
	loc := u.InstallationLocation(ci.Integration, ci.InstallationID) + "/" + string(ci.Kind) + "s/" + Esc(ci.TargetID)
	out := ContentInstallation{Integration: ci.Integration, Installation: ci.InstallationID, Status: ci.Status,
		Configuration: ci.Configuration, ExternalIDs: nonNil(ci.ExternalIDs),
		URLs: InstallationURLs{Location: loc, PublicEndpoint: loc + "/public", PublicContentEndpoint: loc + "/public"}}
	if ci.Kind == integration.SpaceKind {
		out.Space = target
	} else {
		out.Site = target
	}
	return out
}

// IntegrationEvent is an event an installation received.
type IntegrationEvent struct {
	ID             string          `json:"id"`
	IntegrationID  string          `json:"integrationId"`
	InstallationID string          `json:"installationId,omitempty"`
	CreatedAt      Time            `json:"createdAt"`
	Payload        json.RawMessage `json:"payload"`
	Status         string          `json:"status"`
}

// FromIntegrationEvent converts an event with its status: success or failed, the outcomes the
// public spec knows, or pending (docsd's delivery extension only; the public operations do not
// show an event without an outcome).
func FromIntegrationEvent(ev integration.Event) IntegrationEvent {
	return IntegrationEvent{ID: ev.ID, IntegrationID: ev.Integration, InstallationID: ev.InstallationID,
		CreatedAt: Time(ev.CreatedAt), Payload: ev.Payload, Status: ev.Status}
}

// IntegrationEventLog is one line of an event's trace.
type IntegrationEventLog struct {
	Message   string `json:"message"`
	Timestamp Time   `json:"timestamp"`
	Level     string `json:"level"`
}

// FromEventTrace converts an event's trace.
func FromEventTrace(ev integration.Event) map[string][]IntegrationEventLog {
	logs := make([]IntegrationEventLog, 0, len(ev.Trace))
	for _, l := range ev.Trace {
		logs = append(logs, IntegrationEventLog{Message: l.Message, Timestamp: Time(l.Timestamp), Level: l.Level})
	}
	return map[string][]IntegrationEventLog{"logs": logs}
}
