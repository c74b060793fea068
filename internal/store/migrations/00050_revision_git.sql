-- +goose Up
-- The Git commit a revision was imported from (JSON: oid, message, createdByGitBook, url,
-- ref); NULL for revisions made otherwise.
ALTER TABLE revisions ADD COLUMN git TEXT;

-- +goose Down
ALTER TABLE revisions DROP COLUMN git;
