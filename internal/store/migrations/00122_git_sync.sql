-- +goose Up
-- A space's Git Sync state (getSpaceGitInfo): the repository it was last imported from or
-- exported to, without credentials.
CREATE TABLE space_git_sync (
    space_id   TEXT PRIMARY KEY REFERENCES spaces (id) ON DELETE CASCADE,
    provider   TEXT NOT NULL,
    repo_name  TEXT NOT NULL,
    tree_url   TEXT NOT NULL,
    updated_at BIGINT NOT NULL
);

-- Exports to Git. url has no credentials; sealed_url is the URL as given, encrypted with a
-- key of the server settings, kept only while the export's job has not run (NULL after).
CREATE TABLE git_exports (
    id                TEXT PRIMARY KEY,
    space_id          TEXT NOT NULL REFERENCES spaces (id) ON DELETE CASCADE,
    user_id           TEXT NOT NULL,
    url               TEXT NOT NULL,
    sealed_url        TEXT,
    ref               TEXT NOT NULL,
    message           TEXT NOT NULL,
    project_directory TEXT NOT NULL,
    tree_url          TEXT NOT NULL,
    provider          TEXT NOT NULL,
    status            TEXT NOT NULL,
    error             TEXT NOT NULL,
    commit_id         TEXT NOT NULL,
    created_at        BIGINT NOT NULL,
    updated_at        BIGINT NOT NULL
);
CREATE INDEX git_exports_space ON git_exports (space_id, created_at, id);

-- +goose Down
DROP TABLE git_exports;
DROP TABLE space_git_sync;
