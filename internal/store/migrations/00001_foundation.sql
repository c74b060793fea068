-- +goose Up
-- Times are stored as microseconds since the Unix epoch (UTC) in BIGINT columns, so both
-- engines compare, sort and paginate them the same way. JSON documents are TEXT.

CREATE TABLE server_settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE,
    email_domain   TEXT NOT NULL,
    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
    display_name   TEXT NOT NULL,
    photo_url      TEXT NOT NULL DEFAULT '',
    created_at     BIGINT NOT NULL
);
CREATE INDEX users_email_domain ON users (email_domain);

CREATE TABLE api_tokens (
    id         TEXT PRIMARY KEY,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    label      TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);

CREATE TABLE organizations (
    id                   TEXT PRIMARY KEY,
    title                TEXT NOT NULL,
    hostname             TEXT UNIQUE,
    type                 TEXT NOT NULL,
    use_case             TEXT,
    community_type       TEXT,
    default_role         TEXT,
    default_content_site TEXT,
    logo_url             TEXT,
    sso                  BOOLEAN NOT NULL DEFAULT FALSE,
    ai                   BOOLEAN NOT NULL DEFAULT FALSE,
    invite_links         BOOLEAN NOT NULL DEFAULT TRUE,
    merge_rules          TEXT NOT NULL DEFAULT '{"type":"rules","rules":[]}',
    plan                 TEXT NOT NULL,
    created_at           BIGINT NOT NULL,
    updated_at           BIGINT NOT NULL
);

CREATE TABLE organization_email_domains (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    domain          TEXT NOT NULL,
    position        INTEGER NOT NULL,
    PRIMARY KEY (organization_id, domain)
);
CREATE INDEX organization_email_domains_domain ON organization_email_domains (domain);

CREATE TABLE members (
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id         TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role            TEXT,
    disabled        BOOLEAN NOT NULL DEFAULT FALSE,
    sso             BOOLEAN NOT NULL DEFAULT FALSE,
    joined_at       BIGINT NOT NULL,
    last_seen_at    BIGINT,
    PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX members_user ON members (user_id);
CREATE INDEX members_joined ON members (organization_id, joined_at, user_id);
CREATE INDEX members_seen ON members (organization_id, last_seen_at, user_id);

CREATE TABLE teams (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    title           TEXT NOT NULL,
    created_at      BIGINT NOT NULL
);
CREATE INDEX teams_org ON teams (organization_id, created_at, id);

CREATE TABLE team_members (
    team_id  TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    user_id  TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role     TEXT NOT NULL,
    added_at BIGINT NOT NULL,
    PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);

CREATE TABLE invite_links (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    role            TEXT,
    created_by      TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at      BIGINT NOT NULL
);
CREATE INDEX invite_links_org ON invite_links (organization_id, created_at, id);

CREATE TABLE saml_providers (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    label           TEXT NOT NULL,
    entity_id       TEXT NOT NULL DEFAULT '',
    certificate     TEXT NOT NULL DEFAULT '',
    sso_url         TEXT NOT NULL DEFAULT '',
    default_team_id TEXT REFERENCES teams (id) ON DELETE SET NULL,
    default_role    TEXT,
    status          TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX saml_providers_org ON saml_providers (organization_id, created_at, id);

CREATE TABLE agent_instructions (
    organization_id TEXT PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    document        TEXT NOT NULL,
    updated_at      BIGINT NOT NULL,
    updated_by      TEXT NOT NULL
);

-- +goose Down
DROP TABLE agent_instructions;
DROP TABLE saml_providers;
DROP TABLE invite_links;
DROP TABLE team_members;
DROP TABLE teams;
DROP TABLE members;
DROP TABLE organization_email_domains;
DROP TABLE organizations;
DROP TABLE api_tokens;
DROP TABLE users;
DROP TABLE server_settings;
