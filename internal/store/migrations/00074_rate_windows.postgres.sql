-- +goose Up
-- Rate-limit counts per key and one-minute window, added up across processes (see
-- store/ratelimit.go). Unlogged: a count lives a minute, and a crash forgives one window.
CREATE UNLOGGED TABLE rate_windows (
    key          TEXT   NOT NULL,
    window_start BIGINT NOT NULL,
    count        BIGINT NOT NULL,
    PRIMARY KEY (key, window_start)
);

-- +goose Down
DROP TABLE rate_windows;
