-- +goose Up
-- Change requests: a line of revisions beside a space's head. revision_id is the change
-- request's latest revision; revision_initial the head it started from; the merge base of a
-- later update or merge is revision_merged_ancestor when set, else revision_initial.
-- number is unique per space; it is taken as one more than the largest, and the unique key
-- makes a concurrent creator retry rather than share a number.
CREATE TABLE change_requests (
    id                       TEXT PRIMARY KEY,
    space_id                 TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    number                   BIGINT NOT NULL,
    status                   TEXT NOT NULL,
    subject                  TEXT NOT NULL,
    description              TEXT, -- rich-text document as JSON; NULL when none was given
    created_by               TEXT REFERENCES users (id) ON DELETE SET NULL,
    revision_id              TEXT NOT NULL,
    revision_initial         TEXT NOT NULL,
    revision_merged_ancestor TEXT,
    revision_merged          TEXT,
    created_at               BIGINT NOT NULL,
    updated_at               BIGINT NOT NULL,
    UNIQUE (space_id, number)
);
CREATE INDEX change_requests_status ON change_requests (space_id, status, number);

-- The users who made a change request or one of its revisions, for the contributor filter.
CREATE TABLE change_request_contributors (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors (user_id);

-- +goose Down
DROP TABLE change_request_contributors;
DROP TABLE change_requests;
