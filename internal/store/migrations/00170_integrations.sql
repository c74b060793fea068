-- +goose Up
-- Integrations (internal/integration, store/integration.go). An integration is published
-- under a name by an organization; each publication replaces the row and adds one to version.
-- manifest holds the published description (blocks, configurations, links, policy) as JSON;
-- sealed_secrets and sealed_signing are encrypted with the server's secrets key.
CREATE TABLE integrations (
    name           TEXT PRIMARY KEY,
    org_id         TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    version        BIGINT NOT NULL,
    runtime        TEXT NOT NULL,
    visibility     TEXT NOT NULL,
    target         TEXT NOT NULL,
    manifest       TEXT NOT NULL,
    script         TEXT NOT NULL,
    sealed_secrets TEXT NOT NULL,
    sealed_signing TEXT NOT NULL,
    dev_tunnel     TEXT NOT NULL DEFAULT '',
    dev_all        BOOLEAN NOT NULL DEFAULT FALSE,
    dev_expires_at BIGINT NOT NULL DEFAULT 0,
    dev_failures   INTEGER NOT NULL DEFAULT 0,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);
CREATE INDEX integrations_org ON integrations (org_id, name);

-- Icons and preview images as published, base64, served back at urls.icon and previewImages.
CREATE TABLE integration_images (
    integration_name TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    id               TEXT NOT NULL,
    content_type     TEXT NOT NULL,
    data             TEXT NOT NULL,
    PRIMARY KEY (integration_name, id)
);

-- An integration installed on an organization; at most one per organization.
CREATE TABLE integration_installations (
    id               TEXT PRIMARY KEY,
    integration_name TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    org_id           TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    status           TEXT NOT NULL,
    space_selection  TEXT NOT NULL,
    site_selection   TEXT NOT NULL,
    configuration    TEXT NOT NULL,
    external_ids     TEXT NOT NULL,
    sealed_signing   TEXT NOT NULL,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    UNIQUE (integration_name, org_id)
);
CREATE INDEX integration_installations_org ON integration_installations (org_id, id);

-- An installation's presence on one space or one site (kind 'space' or 'site').
CREATE TABLE integration_content_installations (
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    kind            TEXT NOT NULL,
    target_id       TEXT NOT NULL,
    status          TEXT NOT NULL,
    configuration   TEXT NOT NULL,
    external_ids    TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    PRIMARY KEY (installation_id, kind, target_id)
);
CREATE INDEX integration_content_target ON integration_content_installations (kind, target_id);

-- What an integration's installations received, with the delivery's status and trace (a JSON
-- array of log entries). Kept after an installation goes, as the integration's history.
CREATE TABLE integration_events (
    id               TEXT PRIMARY KEY,
    integration_name TEXT NOT NULL REFERENCES integrations (name) ON DELETE CASCADE,
    installation_id  TEXT NOT NULL,
    org_id           TEXT NOT NULL,
    type             TEXT NOT NULL,
    payload          TEXT NOT NULL,
    status           TEXT NOT NULL,
    trace            TEXT NOT NULL,
    created_at       BIGINT NOT NULL
);
CREATE INDEX integration_events_list ON integration_events (integration_name, created_at, id);

-- Short-lived installation tokens: only their hash is kept.
CREATE TABLE integration_tokens (
    hash            TEXT PRIMARY KEY,
    installation_id TEXT NOT NULL REFERENCES integration_installations (id) ON DELETE CASCADE,
    expires_at      BIGINT NOT NULL
);
CREATE INDEX integration_tokens_expiry ON integration_tokens (expires_at);

-- +goose Down
DROP TABLE integration_tokens;
DROP TABLE integration_events;
DROP TABLE integration_content_installations;
DROP TABLE integration_installations;
DROP TABLE integration_images;
DROP TABLE integrations;
