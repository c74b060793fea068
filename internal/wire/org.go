package wire

import (
	"docsd/internal/mergerules"
	"docsd/internal/org"
)

// Organization is the `organization` object.
type Organization struct {
	Object         string             `json:"object"`
	ID             string             `json:"id"`
	Title          string             `json:"title"`
	CreatedAt      Time               `json:"createdAt"`
	EmailDomains   []string           `json:"emailDomains"`
	Hostname       *string            `json:"hostname,omitempty"`
	Type           string             `json:"type"`
	UseCase        *string            `json:"useCase,omitempty"`
	CommunityType  *string            `json:"communityType,omitempty"`
	DefaultRole    *string            `json:"defaultRole"`
	DefaultContent *SitePointer       `json:"defaultContent,omitempty"`
	SSO            bool               `json:"sso"`
	AI             bool               `json:"ai"`
	InviteLinks    bool               `json:"inviteLinks"`
	Plan           string             `json:"plan"`
	MergeRules     mergerules.Config  `json:"mergeRules"`
	URLs           OrganizationURLs   `json:"urls"`
	Trial          OrganizationTrial  `json:"trial"`
	Permissions    OrgPermissionsWire `json:"permissions"`
}

// SitePointer points at a site: `{type: site, site: <id>}`.
type SitePointer struct {
	Type string `json:"type"`
	Site string `json:"site"`
}

type OrganizationURLs struct {
	Location string  `json:"location"`
	App      string  `json:"app"`
	Logo     *string `json:"logo,omitempty"`
}

// OrganizationTrial: a self-hosted organization has no trial.
type OrganizationTrial struct {
	Status string `json:"status"`
	Count  int    `json:"count"`
}

type OrgPermissionsWire struct {
	View                bool `json:"view"`
	Access              bool `json:"access"`
	Admin               bool `json:"admin"`
	OwnTeam             bool `json:"ownTeam"`
	CreateContent       bool `json:"createContent"`
	CreateOpenAPISpec   bool `json:"createOpenAPISpec"`
	IngestConversations bool `json:"ingestConversations"`
	ViewBilling         bool `json:"viewBilling"`
	ListMembers         bool `json:"listMembers"`
	ListTeams           bool `json:"listTeams"`
	ListIntegrations    bool `json:"listIntegrations"`
	ListInstallations   bool `json:"listInstallations"`
	InstallIntegration  bool `json:"installIntegration"`
}

// RolePtr renders a role, with the guest role as null.
func RolePtr[R ~string](r R) *string {
	if r == "" {
		return nil
	}
	s := string(r)
	return &s
}

// OrgLocation is the API URL of an organization.
func (u URLs) OrgLocation(id string) string { return u.API("/orgs/" + Esc(id)) }

// FromOrganization converts an organization as seen by one caller.
func (u URLs) FromOrganization(v org.View) Organization {
	o := v.Organization
	p := v.Permissions()
	out := Organization{
		Object: "organization", ID: o.ID, Title: o.Title, CreatedAt: Time(o.CreatedAt), EmailDomains: o.EmailDomains,
		Hostname: o.Hostname, Type: o.Type, UseCase: o.UseCase, CommunityType: o.CommunityType,
		DefaultRole: RolePtr(o.DefaultRole), SSO: o.SSO, AI: o.AI, InviteLinks: o.InviteLinks, Plan: o.Plan,
		MergeRules: o.MergeRules,
		URLs:       OrganizationURLs{Location: u.OrgLocation(o.ID), App: u.App("/o/" + Esc(o.ID)), Logo: o.LogoURL},
		Trial:      OrganizationTrial{Status: org.TrialNotApplies},
		Permissions: OrgPermissionsWire{View: p.View, Access: p.Access, Admin: p.Admin, OwnTeam: p.OwnTeam, CreateContent: p.CreateContent,
			CreateOpenAPISpec: p.CreateOpenAPISpec, IngestConversations: p.IngestConversations, ViewBilling: p.ViewBilling,
			ListMembers: p.ListMembers, ListTeams: p.ListTeams, ListIntegrations: p.ListIntegrations,
			ListInstallations: p.ListInstallations, InstallIntegration: p.InstallIntegration},
	}
	if o.EmailDomains == nil {
		out.EmailDomains = []string{}
	}
	if o.DefaultContentSite != nil {
		out.DefaultContent = &SitePointer{Type: "site", Site: *o.DefaultContentSite}
	}
	return out
}

// DomainOrganizations answers the email-domain lookup.
type DomainOrganizations struct {
	Organizations []Organization `json:"organizations"`
}
