-- +goose Up
-- Comments on a space or on one of its change requests (change_request_id set), with their
-- replies and emoji reactions. A comment's target names the revision it was posted on and,
-- optionally, a page, a block of that page, and a cell of a table block.
CREATE TABLE comments (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    change_request_id TEXT REFERENCES change_requests (id) ON DELETE CASCADE,
    target_revision   TEXT NOT NULL,
    target_page       TEXT,
    target_node       TEXT,
    target_record     TEXT,
    target_definition TEXT,
    body              TEXT NOT NULL, -- markdown
    posted_by         TEXT REFERENCES users (id) ON DELETE SET NULL,
    posted_at         BIGINT NOT NULL,
    edited_at         BIGINT,
    status            TEXT NOT NULL, -- 'open' or 'resolved'
    resolved_at       BIGINT,
    resolved_by       TEXT REFERENCES users (id) ON DELETE SET NULL
);
-- Lists walk one container in posting order; change_request_id IS NULL selects the space's own.
CREATE INDEX comments_container ON comments (space_id, change_request_id, posted_at, id);

CREATE TABLE comment_replies (
    id         TEXT PRIMARY KEY,
    comment_id TEXT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    body       TEXT NOT NULL,
    posted_by  TEXT REFERENCES users (id) ON DELETE SET NULL,
    posted_at  BIGINT NOT NULL,
    edited_at  BIGINT
);
CREATE INDEX comment_replies_comment ON comment_replies (comment_id, posted_at, id);

-- One row per user, emoji and reacted-to comment or reply (subject_id), so a reaction is
-- idempotent by key. reply_id is set for reactions to a reply, so deleting either cascades.
CREATE TABLE comment_reactions (
    subject_id TEXT NOT NULL,
    comment_id TEXT NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
    reply_id   TEXT REFERENCES comment_replies (id) ON DELETE CASCADE,
    user_id    TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    emoji      TEXT NOT NULL,
    reacted_at BIGINT NOT NULL,
    PRIMARY KEY (subject_id, emoji, user_id)
);
CREATE INDEX comment_reactions_comment ON comment_reactions (comment_id);

-- The `comments` counts of spaces and change requests: their open comments, kept in the
-- same transaction as every post, resolve, reopen and delete.
ALTER TABLE spaces ADD COLUMN open_comments BIGINT NOT NULL DEFAULT 0;
ALTER TABLE change_requests ADD COLUMN open_comments BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE change_requests DROP COLUMN open_comments;
ALTER TABLE spaces DROP COLUMN open_comments;
DROP TABLE comment_reactions;
DROP TABLE comment_replies;
DROP TABLE comments;
