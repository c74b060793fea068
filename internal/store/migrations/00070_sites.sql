-- +goose Up
-- Docs sites publish spaces. A site's structure is a tree: the site's root holds either site
-- spaces (a site without sections) or sections and section groups; a group holds sections and
-- groups; a section holds site spaces. Siblings in one container are ordered by `position`, an
-- orderkey string compared in Go, and sections and groups share one ordering (sortSiteStructure
-- moves any item before or after any other).
CREATE TABLE sites (
    id                     TEXT PRIMARY KEY,
    organization_id        TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    type                   TEXT NOT NULL,
    title                  TEXT NOT NULL,
    visibility             TEXT NOT NULL,
    basename               TEXT NOT NULL,
    hostname               TEXT UNIQUE,
    proxy_origin           TEXT,
    published              BOOLEAN NOT NULL DEFAULT FALSE,
    adaptive_content       BOOLEAN NOT NULL DEFAULT FALSE,
    agents_context         TEXT NOT NULL,
    customization          TEXT,   -- JSON; NULL means the defaults
    adaptive_schema        TEXT,   -- JSON Schema of visitor claims; NULL when none
    adaptive_schema_at     BIGINT,
    visitor_auth_key       TEXT NOT NULL, -- HS256 secret that signs visitor JWTs
    visitor_auth_backend   TEXT NOT NULL,
    visitor_auth_fallback  TEXT,
    created_at             BIGINT NOT NULL,
    updated_at             BIGINT NOT NULL,
    UNIQUE (organization_id, basename)
);

CREATE TABLE site_section_groups (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    parent_id  TEXT REFERENCES site_section_groups (id) ON DELETE CASCADE,
    position   TEXT NOT NULL,
    title      TEXT NOT NULL,
    icon       TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_section_groups_site ON site_section_groups (site_id);

CREATE TABLE site_sections (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    group_id    TEXT REFERENCES site_section_groups (id) ON DELETE SET NULL,
    position    TEXT NOT NULL,
    title       TEXT NOT NULL,
    description TEXT,
    path        TEXT NOT NULL,
    condition   TEXT,
    icon        TEXT,
    is_default  BOOLEAN NOT NULL DEFAULT FALSE,
    created_at  BIGINT NOT NULL,
    UNIQUE (site_id, path)
);

CREATE TABLE site_spaces (
    id            TEXT PRIMARY KEY,
    site_id       TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    section_id    TEXT REFERENCES site_sections (id) ON DELETE CASCADE,
    space_id      TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    position      TEXT NOT NULL,
    path          TEXT NOT NULL,
    condition     TEXT,
    is_default    BOOLEAN NOT NULL DEFAULT FALSE,
    customization TEXT, -- JSON overrides of the site's customization; NULL when none
    created_at    BIGINT NOT NULL
);
-- Paths are unique within a section, or within the root (section_id NULL: checked in Go,
-- since NULLs never collide in a UNIQUE constraint).
CREATE UNIQUE INDEX site_spaces_path ON site_spaces (site_id, section_id, path);
CREATE INDEX site_spaces_site ON site_spaces (site_id);
CREATE INDEX site_spaces_space ON site_spaces (space_id);

CREATE TABLE site_share_links (
    id         TEXT PRIMARY KEY,
    site_id    TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    share_key  TEXT NOT NULL UNIQUE,
    active     BOOLEAN NOT NULL DEFAULT TRUE,
    created_at BIGINT NOT NULL
);
CREATE INDEX site_share_links_site ON site_share_links (site_id, created_at, id);

-- +goose Down
DROP TABLE site_share_links;
DROP TABLE site_spaces;
DROP TABLE site_sections;
DROP TABLE site_section_groups;
DROP TABLE sites;
