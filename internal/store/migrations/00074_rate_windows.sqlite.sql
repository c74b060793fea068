-- +goose Up
-- SQLite serves one process, which counts rate limits in memory; this keeps both engines'
-- numbering alike.
SELECT 1;

-- +goose Down
SELECT 1;
