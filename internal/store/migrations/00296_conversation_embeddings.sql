-- +goose Up
-- With a language model configured, issues carry the model's embedding and clusters the sum
-- of their issues' embeddings (JSON arrays of numbers, '' when none), and an agent task links
-- the change request the model drafted for it ('' when none).
ALTER TABLE conversation_issues ADD COLUMN embedding TEXT NOT NULL DEFAULT '';
ALTER TABLE issue_clusters ADD COLUMN embedding TEXT NOT NULL DEFAULT '';
ALTER TABLE agent_tasks ADD COLUMN change_request_id TEXT NOT NULL DEFAULT '';

-- +goose Down
ALTER TABLE agent_tasks DROP COLUMN change_request_id;
ALTER TABLE issue_clusters DROP COLUMN embedding;
ALTER TABLE conversation_issues DROP COLUMN embedding;
