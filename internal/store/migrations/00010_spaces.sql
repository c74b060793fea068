-- +goose Up
-- Spaces and collections form one tree per organization. Siblings (the spaces and collections
-- sharing a parent) are ordered by `position`, an orderkey string compared byte by byte (in
-- Go, never by the database's collation). default_level is 'inherit', a role name, or NULL
-- for "no access by default".

CREATE TABLE collections (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES collections (id),
    position        TEXT NOT NULL,
    title           TEXT NOT NULL,
    description     TEXT,
    default_level   TEXT,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX collections_org ON collections (organization_id, parent_id);
CREATE INDEX collections_parent ON collections (parent_id);

CREATE TABLE spaces (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    parent_id       TEXT REFERENCES collections (id),
    position        TEXT NOT NULL,
    title           TEXT NOT NULL,
    emoji           TEXT,
    icon_url        TEXT,
    visibility      TEXT NOT NULL,
    edit_mode       TEXT NOT NULL,
    language        TEXT,
    default_level   TEXT,
    merge_rules     TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL,
    deleted_at      BIGINT,
    -- A space open to "whoever can access the parent collection" needs a parent collection.
    CHECK (visibility <> 'in-collection' OR parent_id IS NOT NULL)
);
CREATE INDEX spaces_org ON spaces (organization_id, deleted_at);
CREATE INDEX spaces_parent ON spaces (parent_id);

-- Grants of a role on a space or a collection, to a user or to a team.
CREATE TABLE space_user_grants (
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (space_id, user_id)
);
CREATE INDEX space_user_grants_user ON space_user_grants (user_id);

CREATE TABLE space_team_grants (
    space_id   TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    team_id    TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role       TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (space_id, team_id)
);
CREATE INDEX space_team_grants_team ON space_team_grants (team_id);

CREATE TABLE collection_user_grants (
    collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    user_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    role          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    PRIMARY KEY (collection_id, user_id)
);
CREATE INDEX collection_user_grants_user ON collection_user_grants (user_id);

CREATE TABLE collection_team_grants (
    collection_id TEXT NOT NULL REFERENCES collections (id) ON DELETE CASCADE,
    team_id       TEXT NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
    role          TEXT NOT NULL,
    created_at    BIGINT NOT NULL,
    PRIMARY KEY (collection_id, team_id)
);
CREATE INDEX collection_team_grants_team ON collection_team_grants (team_id);

-- +goose Down
DROP TABLE collection_team_grants;
DROP TABLE collection_user_grants;
DROP TABLE space_team_grants;
DROP TABLE space_user_grants;
DROP TABLE spaces;
DROP TABLE collections;
