package wire

import (
	"docsd/internal/richtext"
	"docsd/internal/site"
)

// SiteAgentSettings is the `site-agent-settings` object. updatedAt and updatedBy are left
// out while the settings are the defaults.
type SiteAgentSettings struct {
	Object string `json:"object"`
	Scans  struct {
		Topics string `json:"topics"`
	} `json:"scans"`
	Findings struct {
		ChangeRequests string `json:"changeRequests"`
	} `json:"findings"`
	Editing struct {
		CustomInstructions richtext.Document `json:"customInstructions"`
	} `json:"editing"`
	UpdatedAt *Time       `json:"updatedAt,omitempty"`
	UpdatedBy string      `json:"updatedBy,omitempty"`
	URLs      LocationURL `json:"urls"`
}

// FromSiteAgentSettings converts a site's agent settings.
func (u URLs) FromSiteAgentSettings(orgID string, a site.AgentSettings) SiteAgentSettings {
	out := SiteAgentSettings{Object: "site-agent-settings", UpdatedAt: TimePtr(a.UpdatedAt), UpdatedBy: a.UpdatedBy,
		URLs: LocationURL{Location: u.SiteLocation(orgID, a.SiteID) + "/agent-settings"}}
	out.Scans.Topics, out.Findings.ChangeRequests = a.ScanTopics, a.FindingChangeRequests
	out.Editing.CustomInstructions = a.CustomInstructions
	return out
}

// AgentFeedbackReceipt answers a submission of agent feedback: its id and a message for the
// agent.
type AgentFeedbackReceipt struct {
	ID     string `json:"id"`
	Result string `json:"result"`
}

// AgentFeedbackReceived is the message an agent gets back for its feedback.
const AgentFeedbackReceived = "Thank you: the feedback was recorded for this site's administrators, who review agent feedback to improve what the site offers. No reply will follow."

// SiteAgentFeedback is one feedback in docsd's list of a site's agent feedback.
type SiteAgentFeedback struct {
	Object     string                 `json:"object"`
	ID         string                 `json:"id"`
	CreatedAt  Time                   `json:"createdAt"`
	CreatedBy  string                 `json:"createdBy"`
	Source     string                 `json:"source,omitempty"`
	ReportedBy *site.FeedbackReporter `json:"reportedBy,omitempty"`
	Subject    site.FeedbackSubject   `json:"subject"`
	Feedback   site.FeedbackContent   `json:"feedback"`
}

// FromFeedback converts a site's agent feedback.
func FromFeedback(f site.Feedback) SiteAgentFeedback {
	return SiteAgentFeedback{Object: "site-agent-feedback", ID: f.ID, CreatedAt: Time(f.CreatedAt), CreatedBy: f.CreatedBy,
		Source: f.Source, ReportedBy: f.ReportedBy, Subject: f.Subject, Feedback: f.Content}
}
