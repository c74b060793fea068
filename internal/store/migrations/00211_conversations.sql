-- +goose Up
-- Ingested support conversations, unique by (organization, source, external id): ingesting
-- one again updates it and clears processed_at, so the processing job extracts its issues
-- again. parts and metadata are JSON.
CREATE TABLE conversations (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source          TEXT NOT NULL,
    external_id     TEXT NOT NULL,
    subject         TEXT NOT NULL,
    parts           TEXT NOT NULL,
    metadata        TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    ingested_at     BIGINT NOT NULL,
    processed_at    BIGINT,
    UNIQUE (organization_id, source, external_id)
);
CREATE INDEX conversations_org ON conversations (organization_id, created_at);
CREATE INDEX conversations_unprocessed ON conversations (organization_id, processed_at);

-- Clusters of issues; centroid is the JSON sum of their issues' term frequencies. status is
-- pending until the docs check has seen its latest issues.
CREATE TABLE issue_clusters (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    icon            TEXT NOT NULL,
    summary         TEXT NOT NULL,
    status          TEXT NOT NULL,
    centroid        TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX issue_clusters_org ON issue_clusters (organization_id);

-- Issues extracted from conversations; terms are JSON term frequencies.
CREATE TABLE conversation_issues (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
    cluster_id      TEXT NOT NULL,
    title           TEXT NOT NULL,
    summary         TEXT NOT NULL,
    terms           TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    ingested_at     BIGINT NOT NULL
);
CREATE INDEX conversation_issues_org ON conversation_issues (organization_id, created_at);
CREATE INDEX conversation_issues_conversation ON conversation_issues (conversation_id);

-- Agent tasks: a change the docs need for a cluster.
CREATE TABLE agent_tasks (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    cluster_id      TEXT NOT NULL,
    space_id        TEXT NOT NULL,
    title           TEXT NOT NULL,
    description     TEXT NOT NULL,
    status          TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX agent_tasks_org ON agent_tasks (organization_id, created_at);

-- +goose Down
DROP TABLE agent_tasks;
DROP TABLE conversation_issues;
DROP TABLE issue_clusters;
DROP TABLE conversations;
