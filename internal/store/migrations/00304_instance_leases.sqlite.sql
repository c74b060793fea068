-- +goose Up
-- Nothing on SQLite: instances sharing a database, and their leases (lease.go), are a
-- PostgreSQL matter. A statement that changes nothing keeps the version numbers in step.
SELECT 1;

-- +goose Down
SELECT 1;
