// Package agentconv keeps the conversations users have with the AI agent: the organization
// agent's conversations, private to the user who started each, and the conversations of a
// change request, seen by whoever sees the change request. It stores their messages, and with
// a language model configured the agent answers and titles them.
package agentconv

import (
	"context"
	"errors"
	"regexp"
	"time"

	"docsd/internal/paging"
)

// Limits.
const (
	IDMax      = 128   // characters of a client-chosen conversation id
	TitleMax   = 255   // characters of a title
	MessageMax = 20000 // characters of one message
	// DefaultID is the id of a change request's default conversation.
	DefaultID = "default"
)

// idRe is what a client-chosen conversation id may hold: the local ids clients make (UUIDs,
// nanoids) and "default".
var idRe = regexp.MustCompile(`^[A-Za-z0-9._~-]{1,128}$`)

// Roles of a message's author.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Conversation is one conversation with the agent.
type Conversation struct {
	Key   string // the stored row's id
	OrgID string
	// Scope is what the conversation belongs to: UserScope(id) for an organization agent
	// conversation, ChangeRequestScope(id) for a change request's.
	Scope     string
	ID        string // chosen by the client
	CreatedBy string
	Title     string // "" until generated or set
	Shared    bool
	// ChangeRequest is the change request an organization conversation edits in ("" none).
	ChangeRequest        string
	CreatedAt, UpdatedAt time.Time
}

// Message is one message of a conversation, in the order of Seq.
type Message struct {
	ID        string
	Seq       int64
	Role      string // RoleUser or RoleAssistant
	Author    string // the user who sent it; "" for the assistant
	Content   string // markdown
	CreatedAt time.Time
}

// UserScope is the scope of a user's organization agent conversations.
func UserScope(userID string) string { return "user:" + userID }

// ChangeRequestScope is the scope of a change request's conversations.
func ChangeRequestScope(changeRequestID string) string { return "change-request:" + changeRequestID }

// ErrNotFound is returned by a Store for a conversation that is not there.
var ErrNotFound = errors.New("agentconv: not found")

// Append is what one sent message adds: the conversation (as it starts when New), the
// messages in order, and the title to give it if it has none yet ("" none).
type Append struct {
	New      bool
	Start    Conversation
	Messages []Message
	Title    string
}

// Store keeps conversations and their messages.
type Store interface {
	// List pages through a scope's conversations, newest first; viewer sees the shared
	// ones and their own.
	List(ctx context.Context, orgID, scope, viewer string, page paging.Request) (paging.Result[Conversation], error)
	// Get returns one conversation, or ErrNotFound.
	Get(ctx context.Context, orgID, scope, id string) (Conversation, error)
	// Rename sets the title; ErrNotFound when the conversation is gone.
	Rename(ctx context.Context, key, title string, now time.Time) (Conversation, error)
	// Delete removes the conversation and its messages; ErrNotFound when it is gone.
	Delete(ctx context.Context, key string, now time.Time) error
	// Append records the conversation if it is new and adds the messages after its last
	// one, in one transaction, and returns the conversation and the messages as stored. A
	// conversation that is not New and is gone, or another user's private one, is ErrNotFound.
	Append(ctx context.Context, a Append, now time.Time) (Conversation, []Message, error)
	// Messages pages through a conversation's messages, oldest first.
	Messages(ctx context.Context, key string, page paging.Request) (paging.Result[Message], error)
	// Recent returns up to n of the conversation's last messages, oldest first.
	Recent(ctx context.Context, key string, n int) ([]Message, error)
}
