-- +goose Up
-- The transactional event outbox (internal/outbox, store/outbox.go). A change that something
-- reacts to writes its event in the transaction that makes it. seq is handed out by the one
-- row of outbox_state, updated in that transaction: the row lock it takes on PostgreSQL is
-- held until commit, so events become visible in the order of their numbers, without gaps.
CREATE TABLE outbox_events (
	seq        BIGINT PRIMARY KEY,
	kind       TEXT NOT NULL,
	org_id     TEXT NOT NULL DEFAULT '',
	space_id   TEXT NOT NULL DEFAULT '',
	subject    TEXT NOT NULL DEFAULT '',
	data       TEXT NOT NULL DEFAULT '{}',
	created_at BIGINT NOT NULL
);
CREATE INDEX outbox_events_created ON outbox_events (created_at);

CREATE TABLE outbox_state (
	id  INTEGER PRIMARY KEY CHECK (id = 1),
	seq BIGINT NOT NULL
);
INSERT INTO outbox_state (id, seq) VALUES (1, 0);

-- Each consumer's cursor: the last event it has processed. lease_* hold the claim on SQLite
-- (PostgreSQL locks the row instead); failures counts failed attempts since the last success.
CREATE TABLE outbox_cursors (
	consumer         TEXT PRIMARY KEY,
	seq              BIGINT NOT NULL DEFAULT 0,
	lease_owner      TEXT,
	lease_expires_at BIGINT,
	failures         INTEGER NOT NULL DEFAULT 0,
	last_error       TEXT NOT NULL DEFAULT '',
	updated_at       BIGINT NOT NULL DEFAULT 0
);

-- The database's generation on PostgreSQL: every write transaction adds one to a shard
-- (chosen at random, so concurrent writers rarely wait on each other) and a reader sums
-- them. SQLite has PRAGMA data_version instead and leaves these rows alone.
CREATE TABLE outbox_generation (
	shard INTEGER PRIMARY KEY,
	n     BIGINT NOT NULL
);
INSERT INTO outbox_generation (shard, n) VALUES (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0),
	(8, 0), (9, 0), (10, 0), (11, 0), (12, 0), (13, 0), (14, 0), (15, 0);

-- +goose Down
DROP TABLE outbox_generation;
DROP TABLE outbox_cursors;
DROP TABLE outbox_state;
DROP TABLE outbox_events;
