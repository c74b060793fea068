-- +goose Up
-- The search index: each page of a space's current content split into sections at its
-- headings (search.PageRows). search_sections keeps the text as written, for results and
-- excerpts; search_fts indexes the folded words (search.IndexText) under the same rowid.
-- The index is derived data: it has no foreign keys, and purging a space drops its rows.
CREATE TABLE search_sections (
    id         INTEGER PRIMARY KEY,
    space_id   TEXT NOT NULL,
    page_id    TEXT NOT NULL,
    position   INTEGER NOT NULL,
    section_id TEXT NOT NULL, -- heading anchor; '' for the page's opening section
    title      TEXT NOT NULL,
    body       TEXT NOT NULL
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);

-- scope holds one token naming the section's space, so the engine itself restricts a search
-- to the spaces the caller may read. Contentless: the text lives in search_sections.
CREATE VIRTUAL TABLE search_fts USING fts5(
    scope, title, body,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);

-- The revision each space's index was built from.
CREATE TABLE search_indexed (
    space_id    TEXT PRIMARY KEY,
    revision_id TEXT NOT NULL,
    indexed_at  BIGINT NOT NULL
);

-- +goose Down
DROP TABLE search_indexed;
DROP TABLE search_fts;
DROP TABLE search_sections;
