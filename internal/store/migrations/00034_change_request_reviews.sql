-- +goose Up
-- Reviews of change requests. A reviewer's newest review supersedes their earlier ones, and a
-- new request for their review supersedes every review they gave before it: both mark the
-- older reviews outdated. revision_id is the change request's revision the review was made on.
-- requested_by is who asked for the review, when someone did.
CREATE TABLE change_request_reviews (
    id                TEXT PRIMARY KEY,
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    reviewer_id       TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    requested_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    revision_id       TEXT NOT NULL,
    status            TEXT NOT NULL,
    outdated          BOOLEAN NOT NULL DEFAULT FALSE,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews (change_request_id, created_at, id);
CREATE INDEX change_request_reviews_reviewer ON change_request_reviews (change_request_id, reviewer_id);

-- The users asked to review a change request. Asking again refreshes the request.
CREATE TABLE change_request_requested_reviewers (
    change_request_id TEXT NOT NULL REFERENCES change_requests (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    requested_by      TEXT REFERENCES users (id) ON DELETE SET NULL,
    revision_id       TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    PRIMARY KEY (change_request_id, user_id)
);
CREATE INDEX change_request_requested_reviewers_user ON change_request_requested_reviewers (user_id);

-- +goose Down
DROP TABLE change_request_requested_reviewers;
DROP TABLE change_request_reviews;
