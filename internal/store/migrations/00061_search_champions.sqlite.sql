-- +goose Up
-- Champion lists (Manning, Raghavan & Schütze, "Introduction to Information Retrieval",
-- §7.1.3): for a word found in very many sections, the championSize sections where it weighs
-- most, by its BM25 term-frequency factor (the part of its BM25 score that differs between
-- sections). A query made only of such words ranks these sections, and all its title
-- matches, instead of every match. A list is built the first time a query needs it, then
-- kept up to date by each index update (search_champions.go).
CREATE TABLE search_champions (
    term       TEXT NOT NULL,
    section_id INTEGER NOT NULL,
    weight     REAL NOT NULL,
    PRIMARY KEY (term, section_id)
) WITHOUT ROWID;
CREATE INDEX search_champions_weight ON search_champions (term, weight);
CREATE INDEX search_champions_section ON search_champions (section_id);

-- The titles alone, under the rowids of search_fts: a query of common words finds all its
-- title matches here without walking those words' doclists over every body.
CREATE VIRTUAL TABLE search_title_fts USING fts5(
    title,
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3'
);
INSERT INTO search_title_fts (rowid, title) SELECT rowid, title FROM search_fts;

-- +goose Down
DROP TABLE search_title_fts;
DROP TABLE search_champions;
