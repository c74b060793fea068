package wire

import "docsd/internal/agentconv"

// AgentConversation is a conversation with the AI agent. Title is absent until made;
// ChangeRequest only ever appears on an organization agent conversation.
type AgentConversation struct {
	Object        string `json:"object"`
	ID            string `json:"id"`
	Title         string `json:"title,omitempty"`
	Shared        bool   `json:"shared"`
	ChangeRequest string `json:"changeRequest,omitempty"`
	CreatedAt     Time   `json:"createdAt"`
	UpdatedAt     Time   `json:"updatedAt"`
}

// FromAgentConversation converts a conversation.
func FromAgentConversation(c agentconv.Conversation) AgentConversation {
	return AgentConversation{Object: "agent-conversation", ID: c.ID, Title: c.Title, Shared: c.Shared,
		ChangeRequest: c.ChangeRequest, CreatedAt: Time(c.CreatedAt), UpdatedAt: Time(c.UpdatedAt)}
}

// AgentConversationMessage is one message of an agent conversation (docsd's extension).
// Author is the user who sent a user message, absent on the agent's.
type AgentConversationMessage struct {
	Object    string `json:"object"`
	ID        string `json:"id"`
	Role      string `json:"role"`
	Author    string `json:"author,omitempty"`
	Markdown  string `json:"markdown"`
	CreatedAt Time   `json:"createdAt"`
}

// FromAgentMessage converts a message.
func FromAgentMessage(m agentconv.Message) AgentConversationMessage {
	return AgentConversationMessage{Object: "agent-conversation-message", ID: m.ID, Role: m.Role, Author: m.Author,
		Markdown: m.Content, CreatedAt: Time(m.CreatedAt)}
}

// AgentConversationExchange answers a sent message: the conversation after it, and the
// messages it added (the user's, then the agent's reply when a language model answered).
type AgentConversationExchange struct {
	Object       string                     `json:"object"`
	Conversation AgentConversation          `json:"conversation"`
	Messages     []AgentConversationMessage `json:"messages"`
}

// FromAgentExchange converts what sending a message added.
func FromAgentExchange(c agentconv.Conversation, ms []agentconv.Message) AgentConversationExchange {
	out := AgentConversationExchange{Object: "agent-conversation-exchange", Conversation: FromAgentConversation(c),
		Messages: make([]AgentConversationMessage, 0, len(ms))}
	for _, m := range ms {
		out.Messages = append(out.Messages, FromAgentMessage(m))
	}
	return out
}
