-- +goose Up
-- An organization's OpenAPI specifications (the API's OpenAPISpec). The source is a URL
-- (source_url) or a text (source_text). generation counts source changes: a processing job
-- carries the one it was queued for, and its result is dropped once the source moved on.
-- etag and last_modified are the validators of the URL's last answer, for refreshes.
-- last_errors is JSON, a list of {message, code}, at most openapi.MaxErrors of last_error_count.
CREATE TABLE openapi_specs (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    slug              TEXT NOT NULL,
    source_url        TEXT,
    source_text       TEXT,
    visibility        TEXT NOT NULL,
    processing_state  TEXT NOT NULL,
    generation        BIGINT NOT NULL,
    last_version      TEXT,
    last_processed_at BIGINT,
    last_error_code   TEXT,
    last_errors       TEXT NOT NULL,
    last_error_count  BIGINT NOT NULL,
    etag              TEXT NOT NULL,
    last_modified     TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    UNIQUE (organization_id, slug)
);
CREATE INDEX openapi_specs_refresh ON openapi_specs (last_processed_at);

-- A spec's versions: the files processing gathered (JSON, path to text), with the hash of
-- their normalised content, so processing the same content again makes no version.
CREATE TABLE openapi_spec_versions (
    id           TEXT PRIMARY KEY,
    spec_id      TEXT NOT NULL REFERENCES openapi_specs (id) ON DELETE CASCADE,
    content_hash TEXT NOT NULL,
    url          TEXT NOT NULL,
    entry        TEXT NOT NULL,
    files        TEXT NOT NULL,
    created_at   BIGINT NOT NULL
);
CREATE INDEX openapi_spec_versions_spec ON openapi_spec_versions (spec_id, created_at, id);

-- +goose Down
DROP TABLE openapi_spec_versions;
DROP TABLE openapi_specs;
