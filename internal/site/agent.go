package site

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"docsd/internal/auth"
	"docsd/internal/richtext"
	"docsd/internal/validate"
)

// AgentSettings configure the AI that helps a site's authors edit its content: when topics
// are scanned for findings, when findings become remediation change requests, and the
// site-specific instructions of the editing agent. docsd keeps them for the clients that
// read and write them; it runs no scans itself and opens no remediation change requests.
type AgentSettings struct {
	SiteID                string
	ScanTopics            string // one of ScanTopicsValues
	FindingChangeRequests string // one of FindingChangeRequestsValues
	CustomInstructions    richtext.Document
	UpdatedAt             *time.Time // nil until the settings are first replaced
	UpdatedBy             string     // user id of who last replaced them; "" until then
}

// The values of the agent settings' enums, from the public specification.
var (
	ScanTopicsValues            = []string{"auto", "never"}
	FindingChangeRequestsValues = []string{"always", "auto-fixable", "never"}
)

// DefaultAgentSettings are a site's agent settings before an admin first replaces them:
// nothing is scanned and no change request is opened (what docsd does in any case), with no
// custom instructions.
func DefaultAgentSettings(siteID string) AgentSettings {
	return AgentSettings{SiteID: siteID, ScanTopics: "never", FindingChangeRequests: "never",
		CustomInstructions: richtext.Empty()}
}

// AgentSettingsInput is the body of a replacement: every section and field is required.
type AgentSettingsInput struct {
	Scans *struct {
		Topics *string `json:"topics"`
	} `json:"scans"`
	Findings *struct {
		ChangeRequests *string `json:"changeRequests"`
	} `json:"findings"`
	Editing *struct {
		CustomInstructions json.RawMessage `json:"customInstructions"`
	} `json:"editing"`
}

// settings checks in and returns the settings it describes for siteID.
func (in AgentSettingsInput) settings(siteID string) (AgentSettings, error) {
	a := AgentSettings{SiteID: siteID}
	switch {
	case in.Scans == nil:
		return a, validate.Required("scans")
	case in.Scans.Topics == nil:
		return a, validate.Required("scans.topics")
	case in.Findings == nil:
		return a, validate.Required("findings")
	case in.Findings.ChangeRequests == nil:
		return a, validate.Required("findings.changeRequests")
	case in.Editing == nil:
		return a, validate.Required("editing")
	case len(in.Editing.CustomInstructions) == 0:
		return a, validate.Required("editing.customInstructions")
	}
	a.ScanTopics, a.FindingChangeRequests = *in.Scans.Topics, *in.Findings.ChangeRequests
	err := validate.First(
		validate.OneOf("scans.topics", a.ScanTopics, ScanTopicsValues...),
		validate.OneOf("findings.changeRequests", a.FindingChangeRequests, FindingChangeRequestsValues...))
	if err != nil {
		return a, err
	}
	a.CustomInstructions, err = richtext.Validate("editing.customInstructions", in.Editing.CustomInstructions)
	return a, err
}

// AgentSettings returns a site's agent settings to a member of its organization (guests:
// 403), the defaults when they were never replaced.
func (s *Service) AgentSettings(ctx context.Context, c auth.Caller, orgID, siteID string) (Site, AgentSettings, error) {
	tx := s.store.Read()
	st, err := s.siteIn(ctx, tx, c, orgID, siteID, false)
	if err != nil {
		return Site{}, AgentSettings{}, err
	}
	a, err := tx.AgentSettings(ctx, st.ID)
	if errors.Is(err, ErrNotFound) {
		return st, DefaultAgentSettings(st.ID), nil
	}
	return st, a, err
}

// PutAgentSettings replaces a site's agent settings; only organization admins may (as for
// every change to a site).
func (s *Service) PutAgentSettings(ctx context.Context, c auth.Caller, orgID, siteID string, in AgentSettingsInput) (Site, AgentSettings, error) {
	a, err := in.settings(siteID)
	if err != nil {
		return Site{}, AgentSettings{}, err
	}
	var site Site
	err = s.write(ctx, c, orgID, siteID, func(tx Tx, st Site, now time.Time) error {
		site, a.UpdatedAt, a.UpdatedBy = st, &now, c.UserID
		return tx.PutAgentSettings(ctx, a)
	})
	return site, a, err
}
