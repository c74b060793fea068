-- +goose Up
-- The processes that run jobs, each beating its row while it lives, so that a job held by a
-- process that died is taken over within seconds rather than when its lease runs out.
-- machine names the kernel and process namespace the process runs in (empty when unknown),
-- so that a process on the same machine can also tell at once that pid is gone, or is
-- another program now (pid_start is the process's start time, in clock ticks since boot).
CREATE TABLE job_owners (
    owner      TEXT PRIMARY KEY,
    machine    TEXT NOT NULL,
    pid        INTEGER NOT NULL,
    pid_start  BIGINT NOT NULL,
    started_at BIGINT NOT NULL,
    beat_at    BIGINT NOT NULL
);

-- +goose Down
DROP TABLE job_owners;
