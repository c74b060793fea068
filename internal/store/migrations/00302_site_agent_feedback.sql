-- +goose Up
-- Feedback AI agents submit to a site (POST .../agents/feedback and the deprecated
-- .../agent-feedback), listed newest first. kind is the subject's kind and category the
-- feedback's ('' for the deprecated operation's site-content feedback, which has none);
-- source is '' when unknown. reported_by ('' when not given), subject and feedback are the
-- JSON objects as they were accepted. created_by is the id of the submitting user.
CREATE TABLE site_agent_feedback (
    id          TEXT PRIMARY KEY,
    site_id     TEXT NOT NULL REFERENCES sites (id) ON DELETE CASCADE,
    created_at  BIGINT NOT NULL,
    created_by  TEXT NOT NULL,
    source      TEXT NOT NULL,
    kind        TEXT NOT NULL,
    category    TEXT NOT NULL,
    reported_by TEXT NOT NULL,
    subject     TEXT NOT NULL,
    feedback    TEXT NOT NULL
);
CREATE INDEX site_agent_feedback_site ON site_agent_feedback (site_id, created_at, id);

-- +goose Down
DROP TABLE site_agent_feedback;
