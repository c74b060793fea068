-- +goose Up
-- The search index: each page of a space's current content split into sections at its
-- headings (search.PageRows). search_sections keeps the text as written, for results and
-- excerpts; search_fts indexes the folded words under the same rowid.
-- The index is derived data: it has no foreign keys, and purging a space drops its rows.
CREATE TABLE search_sections (
    id         INTEGER PRIMARY KEY,
    space_id   TEXT NOT NULL,
    page_id    TEXT NOT NULL,
    position   INTEGER NOT NULL,
    section_id TEXT NOT NULL, -- heading anchor; '' for the page's opening section
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    word_count INTEGER NOT NULL -- how many words the section's title and body index
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);

-- search_fts holds the folded words (search.IndexText) of each section under its rowid, and
-- keeps them, so a search reads its candidates' words in the same pass that finds them and
-- ranks them itself (search.Scorer): FTS5's bm25() first walks the whole doclist of every
-- term to count its rows, which costs as much as the search for a frequent word. scope holds
-- one token naming the section's space, so the engine itself restricts a search to the
-- spaces the caller may read.
CREATE VIRTUAL TABLE search_fts USING fts5(
    scope, title, body,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
-- How many sections hold each word: the document frequencies of the ranking.
CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_fts, 'row');

-- The revision each space's index was built from, and how many sections and words it holds
-- (their sums are the corpus figures of the ranking, read without counting the sections).
CREATE TABLE search_indexed (
    space_id    TEXT PRIMARY KEY,
    revision_id TEXT NOT NULL,
    indexed_at  BIGINT NOT NULL,
    sections    BIGINT NOT NULL DEFAULT 0,
    word_count  BIGINT NOT NULL DEFAULT 0
);

-- +goose Down
DROP TABLE search_indexed;
DROP TABLE search_vocab;
DROP TABLE search_fts;
DROP TABLE search_sections;
