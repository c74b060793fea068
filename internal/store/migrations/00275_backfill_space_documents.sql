-- +goose Up
-- Revisions made before 00160 have no space_documents rows, so getDocumentById answered 404
-- for their documents. Queue one job (content.backfill_documents) that records them; only a
-- database that already has revisions needs it. dedupe_key keeps it to one.
INSERT INTO jobs (id, kind, payload, state, run_at, created_at, dedupe_key)
SELECT 'backfill-space-documents', 'content.backfill_documents', '{}', 'queued', 0, 0, 'content.backfill_documents'
WHERE EXISTS (SELECT 1 FROM revisions);

-- +goose Down
DELETE FROM jobs WHERE id = 'backfill-space-documents';
