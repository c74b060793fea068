-- +goose Up
-- Space content. A revision is immutable: it names two roots of persistent hash tries (one
-- mapping page ids to page records, one mapping file ids to file records) and carries the
-- space's variables. Trie nodes, page records and file records live in content_objects, each
-- under the sha256 of its bytes, so revisions and spaces share every record they have in
-- common, and a change rewrites only the records it touches and the trie nodes above them.
-- Markdown, the bulk of a page, is kept apart under its own sha256.
--
-- Objects are never updated; rows are inserted with ON CONFLICT DO NOTHING. Reclaiming
-- objects no revision reaches is left to a later collector, which is also why revisions are
-- kept when their space is purged (a duplicated space may still point at one).

CREATE TABLE content_objects (
    hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL, -- 'node', 'page' or 'file'
    body TEXT NOT NULL
);

CREATE TABLE content_markdown (
    hash TEXT PRIMARY KEY,
    body TEXT NOT NULL
);

CREATE TABLE revisions (
    id         TEXT PRIMARY KEY,
    space_id   TEXT NOT NULL,
    parents    TEXT NOT NULL, -- JSON array of revision ids
    type       TEXT NOT NULL,
    pages_root TEXT NOT NULL, -- '' for no pages
    files_root TEXT NOT NULL, -- '' for no files
    variables  TEXT NOT NULL, -- JSON object
    author_id  TEXT,
    created_at BIGINT NOT NULL
);
CREATE INDEX revisions_space ON revisions (space_id, created_at);

-- The space's head. Only the content store moves it, by compare-and-swap.
ALTER TABLE spaces ADD COLUMN revision_id TEXT;

-- Spaces made before content existed start from an empty revision named after them.
INSERT INTO revisions (id, space_id, parents, type, pages_root, files_root, variables, created_at)
    SELECT id, id, '[]', 'edits', '', '', '{}', created_at FROM spaces;
UPDATE spaces SET revision_id = id;

-- +goose Down
ALTER TABLE spaces DROP COLUMN revision_id;
DROP TABLE revisions;
DROP TABLE content_markdown;
DROP TABLE content_objects;
