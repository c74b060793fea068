-- +goose Up
-- The durable job queue. A job is queued until a worker claims it; the claim takes a lease
-- (owner and expiry) that the worker extends while the job runs, so a job whose worker died
-- becomes claimable again once the lease expires. Times are microseconds, as everywhere.
--
-- max_attempts 0 means "as many as the handler registered for the kind allows", so a change
-- of policy in the code applies to jobs already queued.
--
-- dedupe_key makes enqueueing idempotent: a second job with the same key is not inserted
-- while the first row exists (finished rows are pruned after a retention period).

CREATE TABLE jobs (
    id               TEXT PRIMARY KEY,
    kind             TEXT NOT NULL,
    payload          TEXT NOT NULL,
    state            TEXT NOT NULL DEFAULT 'queued',
    run_at           BIGINT NOT NULL,
    attempts         INTEGER NOT NULL DEFAULT 0,
    max_attempts     INTEGER NOT NULL DEFAULT 0,
    lease_owner      TEXT,
    lease_expires_at BIGINT,
    last_error       TEXT,
    dedupe_key       TEXT UNIQUE,
    created_at       BIGINT NOT NULL,
    finished_at      BIGINT,
    CHECK (state IN ('queued', 'running', 'done', 'failed'))
);
CREATE INDEX jobs_due ON jobs (state, run_at);

-- +goose Down
DROP TABLE jobs;
