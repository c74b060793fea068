-- +goose Up
-- PostgreSQL keeps no champion lists (see 00061); this keeps both engines' numbering alike.
SELECT 1;

-- +goose Down
SELECT 1;
