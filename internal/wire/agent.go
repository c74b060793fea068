package wire

import (
	"docsd/internal/org"
	"docsd/internal/richtext"
)

// AgentInstructions is the `agent-instructions` object. Before an admin first sets the
// instructions there is no updatedAt or updatedBy to show, and both are left out.
type AgentInstructions struct {
	Object       string                `json:"object"`
	Instructions richtext.Document     `json:"instructions"`
	UpdatedAt    *Time                 `json:"updatedAt,omitempty"`
	UpdatedBy    string                `json:"updatedBy,omitempty"`
	URLs         AgentInstructionsURLs `json:"urls"`
}

type AgentInstructionsURLs struct {
	Location string `json:"location"`
}

// FromAgentInstructions converts an organization's docs-agent instructions.
func (u URLs) FromAgentInstructions(a org.AgentInstructions) AgentInstructions {
	return AgentInstructions{Object: "agent-instructions", Instructions: a.Instructions, UpdatedAt: TimePtr(a.UpdatedAt),
		UpdatedBy: a.UpdatedBy, URLs: AgentInstructionsURLs{Location: u.OrgLocation(a.OrganizationID) + "/agent-instructions"}}
}
