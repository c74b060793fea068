-- +goose Up
-- A change request's working revisions are stored as the changes they make to the revision
-- under them (base_id) rather than as whole tries, down chains of bounded depth: an edit then
-- writes what it changed, whatever the size of the space (internal/content/stored.go).
-- Revisions stored whole keep base_id NULL, depth 0 and changes NULL.
ALTER TABLE revisions ADD COLUMN base_id TEXT;
ALTER TABLE revisions ADD COLUMN depth INTEGER NOT NULL DEFAULT 0;
ALTER TABLE revisions ADD COLUMN changes TEXT; -- JSON {"pages": {id: hash or ""}, "files": {...}}

-- +goose Down
ALTER TABLE revisions DROP COLUMN changes;
ALTER TABLE revisions DROP COLUMN depth;
ALTER TABLE revisions DROP COLUMN base_id;
