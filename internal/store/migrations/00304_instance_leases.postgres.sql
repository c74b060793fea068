-- +goose Up
-- The instances that answer reads without asking the database whether it changed (lease.go).
-- Each holds a row here while it runs: expires_at (the database's clock) ends its claim unless
-- renewed, and seen is the largest generation sum (outbox_generation) it has acknowledged
-- taking in. A write waits, after its commit, for every other instance whose lease runs to
-- have seen its sum (instances.go).
CREATE TABLE instance_leases (
	id         TEXT PRIMARY KEY,
	expires_at TIMESTAMPTZ NOT NULL,
	seen       BIGINT NOT NULL DEFAULT 0
);

-- members moves on every shard row each time an instance registers: the registration locks
-- them all, so it waits for the writes in progress, and every later write's update of its
-- shard returns the new value and learns that the instances changed.
ALTER TABLE outbox_generation ADD COLUMN members BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE outbox_generation DROP COLUMN members;
DROP TABLE instance_leases;
