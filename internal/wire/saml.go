package wire

import "docsd/internal/org"

// SAMLProvider is the `saml-provider` object (OrganizationSAMLProvider).
type SAMLProvider struct {
	Object      string           `json:"object"`
	ID          string           `json:"id"`
	Label       string           `json:"label"`
	SSOURL      string           `json:"ssoURL"`
	EntityID    string           `json:"entityID"`
	Certificate string           `json:"certificate"`
	DefaultTeam *Team            `json:"defaultTeam,omitempty"`
	DefaultRole *string          `json:"defaultRole"`
	CreatedAt   Time             `json:"createdAt"`
	Status      string           `json:"status"`
	Service     SAMLService      `json:"service"`
	URLs        SAMLProviderURLs `json:"urls"`
}

// SAMLService is what the identity provider is configured with: this server's endpoints for
// the provider.
type SAMLService struct {
	ACSURL   string `json:"acsURL"`
	StartURL string `json:"startURL"`
	EntityID string `json:"entityID"`
}

// SAMLProviderURLs is the `urls` object of a provider.
type SAMLProviderURLs struct {
	Location string `json:"location"`
}

// SSOLogin is an item of an organization's SSO login list (OrganizationSSOProviderLogin).
type SSOLogin struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	StartURL string `json:"startURL"`
}

// SSOLogins is the answer of the SSO login list: items only, without paging.
type SSOLogins struct {
	Items []SSOLogin `json:"items"`
}

// samlSP is the base of this server's service-provider endpoints for one provider. The
// metadata URL doubles as the service provider's entity id, as SAML deployments usually do.
func (u URLs) samlSP(providerID string) string { return u.Base + "/sso/saml/" + Esc(providerID) }

// SAMLService returns this server's endpoints for a provider.
func (u URLs) SAMLService(providerID string) SAMLService {
	base := u.samlSP(providerID)
	return SAMLService{ACSURL: base + "/acs", StartURL: base + "/start", EntityID: base + "/metadata"}
}

// SAMLLocation is the API URL of a provider.
func (u URLs) SAMLLocation(orgID, providerID string) string {
	return u.OrgLocation(orgID) + "/saml/" + Esc(providerID)
}

// ssoURLUnset is the ssoURL of a provider not configured yet: the API requires a URL there,
// and about:blank is one that points nowhere.
const ssoURLUnset = "about:blank"

// FromSAMLProvider converts a provider.
func (u URLs) FromSAMLProvider(v org.SAMLView) SAMLProvider {
	out := SAMLProvider{Object: "saml-provider", ID: v.ID, Label: v.Label, SSOURL: v.SSOURL, EntityID: v.EntityID,
		Certificate: v.Certificate, DefaultRole: RolePtr(v.DefaultRole), CreatedAt: Time(v.CreatedAt), Status: v.Status,
		Service: u.SAMLService(v.ID), URLs: SAMLProviderURLs{Location: u.SAMLLocation(v.OrganizationID, v.ID)}}
	if out.SSOURL == "" {
		out.SSOURL = ssoURLUnset
	}
	if v.DefaultTeam != nil {
		t := u.FromTeam(*v.DefaultTeam)
		out.DefaultTeam = &t
	}
	return out
}

// FromSSOLogins converts the providers members can log in with.
func (u URLs) FromSSOLogins(ps []org.SAMLProvider) SSOLogins {
	out := SSOLogins{Items: make([]SSOLogin, 0, len(ps))}
	for _, p := range ps {
		out.Items = append(out.Items, SSOLogin{ID: p.ID, Label: p.Label, StartURL: u.SAMLService(p.ID).StartURL})
	}
	return out
}
