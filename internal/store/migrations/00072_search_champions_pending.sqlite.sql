-- +goose Up
-- Sections indexed since the champion lists (00061) last took in new sections. Adding one
-- section to the lists of its common words writes to a hundred lists, each on pages of its
-- own, which made every one-page index update cost more the larger the index; new sections
-- wait here instead, searched as candidates of every common-word query, and are added to the
-- lists in batches (search_champions.go).
CREATE TABLE search_champions_pending (
    section_id INTEGER PRIMARY KEY
);

-- +goose Down
DROP TABLE search_champions_pending;
