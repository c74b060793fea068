-- +goose Up
-- The search index: each page of a space's current content split into sections at its
-- headings (search.PageRows), with the folded words (search.IndexText) of its title
-- (weight A) and body (weight D) in a tsvector. The index is derived data: it has no foreign
-- keys, and purging a space drops its rows.
CREATE TABLE search_sections (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    space_id   TEXT NOT NULL,
    page_id    TEXT NOT NULL,
    position   INTEGER NOT NULL,
    section_id TEXT NOT NULL, -- heading anchor; '' for the page's opening section
    title      TEXT NOT NULL,
    body       TEXT NOT NULL,
    words      TSVECTOR NOT NULL,
    word_count INTEGER NOT NULL -- how many words the section's title and body index
);
CREATE INDEX search_sections_page ON search_sections (space_id, page_id);
CREATE INDEX search_sections_words ON search_sections USING GIN (words);

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
DROP TABLE search_sections;
