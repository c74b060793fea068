-- +goose Up
-- What each contributor did to a change request, for getContributorsByChangeRequestId: how
-- many revisions they made (edits; 0 for a creator who has changed nothing yet) and when they
-- last made one. Rows from before are counted once, at the change request's last update, when
-- the change request has moved from where it started or the user is not its creator.
ALTER TABLE change_request_contributors ADD COLUMN edits BIGINT NOT NULL DEFAULT 0;
ALTER TABLE change_request_contributors ADD COLUMN updated_at BIGINT NOT NULL DEFAULT 0;
UPDATE change_request_contributors SET
    edits = 1,
    updated_at = (SELECT cr.updated_at FROM change_requests cr WHERE cr.id = change_request_contributors.change_request_id)
WHERE EXISTS (SELECT 1 FROM change_requests cr WHERE cr.id = change_request_contributors.change_request_id
    AND (cr.revision_id <> cr.revision_initial OR cr.created_by IS NULL OR cr.created_by <> change_request_contributors.user_id));
CREATE INDEX change_request_contributors_recent ON change_request_contributors (change_request_id, updated_at, user_id);

-- +goose Down
DROP INDEX change_request_contributors_recent;
ALTER TABLE change_request_contributors DROP COLUMN updated_at;
ALTER TABLE change_request_contributors DROP COLUMN edits;
