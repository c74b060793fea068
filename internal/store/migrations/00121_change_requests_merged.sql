-- +goose Up
-- A merge revision's change request (getRevisionSemanticChanges' mergedFrom) is found by the
-- revision its merge made.
CREATE INDEX change_requests_merged ON change_requests (space_id, revision_merged);

-- +goose Down
DROP INDEX change_requests_merged;
