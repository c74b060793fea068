-- +goose Up
-- Conversations with the AI agent. scope is what a conversation belongs to: 'user:<id>' for a
-- user's organization agent conversations, 'change-request:<id>' for a change request's;
-- conversation_id is the id the client chose, unique in its scope. title is '' until made;
-- change_request is the change request an organization conversation edits in ('' none);
-- context_change_request is the change request a change request's conversation belongs to
-- (NULL for the organization agent's), so that its conversations go with it.
CREATE TABLE agent_conversations (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    scope           TEXT NOT NULL,
    conversation_id TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    title           TEXT NOT NULL DEFAULT '',
    shared          BOOLEAN NOT NULL,
    change_request  TEXT NOT NULL DEFAULT '',
    context_change_request TEXT REFERENCES change_requests (id) ON DELETE CASCADE,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    UNIQUE (organization_id, scope, conversation_id)
);
CREATE INDEX agent_conversations_list ON agent_conversations (organization_id, scope, created_at);

-- Their messages in order (seq from 1); author is the user who sent one, '' for the agent.
CREATE TABLE agent_conversation_messages (
    conversation TEXT NOT NULL REFERENCES agent_conversations (id) ON DELETE CASCADE,
    seq          BIGINT NOT NULL,
    id           TEXT NOT NULL UNIQUE,
    role         TEXT NOT NULL,
    author       TEXT NOT NULL,
    content      TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    PRIMARY KEY (conversation, seq)
);

-- +goose Down
DROP TABLE agent_conversation_messages;
DROP TABLE agent_conversations;
