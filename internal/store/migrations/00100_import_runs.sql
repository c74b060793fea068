-- +goose Up
-- Import runs (the API's ContentImportRun): content brought into a space, a change request or
-- under a page, from uploaded files, a website, an archive or a Git repository, by a durable
-- job. source, pages and errors are JSON. revision is the revision the run committed, set in
-- the same transaction as status 'completed', so a run is never half-written.
CREATE TABLE import_runs (
    id                TEXT PRIMARY KEY,
    organization_id   TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    space_id          TEXT NOT NULL,
    change_request_id TEXT,
    page_id           TEXT,
    source            TEXT NOT NULL,
    status            TEXT NOT NULL,
    reason            TEXT,
    pages             TEXT NOT NULL,
    errors            TEXT NOT NULL,
    revision          TEXT,
    created_by        TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL,
    started_at        BIGINT,
    completed_at      BIGINT
);
CREATE INDEX import_runs_org ON import_runs (organization_id, created_at);

-- Signed upload URLs (generateStorageUploadURL). A row is made with the URL and consumed by
-- the one PUT it allows (uploaded_at); blob_hash names the bytes in the blob store when docsd
-- took them itself (on S3 the bucket holds them under key).
CREATE TABLE storage_uploads (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    object_key      TEXT NOT NULL UNIQUE,
    kind            TEXT NOT NULL,
    name            TEXT NOT NULL,
    content_type    TEXT NOT NULL,
    size            BIGINT NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    expires_at      BIGINT NOT NULL,
    uploaded_at     BIGINT,
    blob_hash       TEXT
);

-- +goose Down
DROP TABLE storage_uploads;
DROP TABLE import_runs;
