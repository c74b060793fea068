-- +goose Up
-- The configuration of a site's editing agent (GET/PUT .../agent-settings). A site without a
-- row has the defaults (site.DefaultAgentSettings). custom_instructions is a rich-text
-- document (JSON); updated_by is the id of the user who last replaced the settings.
CREATE TABLE site_agent_settings (
    site_id                 TEXT PRIMARY KEY REFERENCES sites (id) ON DELETE CASCADE,
    scan_topics             TEXT NOT NULL,
    finding_change_requests TEXT NOT NULL,
    custom_instructions     TEXT NOT NULL,
    updated_at              BIGINT NOT NULL,
    updated_by              TEXT NOT NULL
);

-- +goose Down
DROP TABLE site_agent_settings;
