-- +goose Up
-- Sections deleted since the champion lists (00061) last let go of deleted sections: like
-- adding a section (00072), removing one from the lists of its words wrote to pages of a
-- hundred lists in every one-page update. Their entries stay in the lists, where a search
-- finds no section under them, until the next batch deletes them (search_champions.go).
CREATE TABLE search_champions_gone (
    section_id INTEGER PRIMARY KEY
);

-- +goose Down
DROP TABLE search_champions_gone;
