-- +goose Up
-- Translations (the API's Translation): a source space rendered into a result space in
-- another language by runs (durable jobs). run_seq counts the runs asked for and names each
-- run's job; stats is the API's stats object as JSON. The result space is made by the first
-- run; neither space is a foreign key, so deleting one leaves the translation to say so.
CREATE TABLE translations (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    source_space    TEXT NOT NULL,
    source_language TEXT NOT NULL,
    language        TEXT NOT NULL,
    instructions    TEXT NOT NULL,
    auto_run        BOOLEAN NOT NULL DEFAULT TRUE,
    status          TEXT NOT NULL,
    result_space    TEXT NOT NULL DEFAULT '',
    result_revision TEXT NOT NULL DEFAULT '',
    provider        TEXT NOT NULL DEFAULT '',
    last_error      TEXT NOT NULL DEFAULT '',
    run_seq         BIGINT NOT NULL DEFAULT 0,
    stats           TEXT NOT NULL,
    created_by      TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX translations_org ON translations (organization_id, created_at);
CREATE INDEX translations_source ON translations (source_space);

-- What the latest run of a translation made of each piece of its source (a page's title,
-- description or body; a reusable content's), with a hash of the source text and settings:
-- a run sends only the pieces whose hash changed.
CREATE TABLE translation_units (
    translation_id TEXT NOT NULL REFERENCES translations (id) ON DELETE CASCADE,
    unit           TEXT NOT NULL,
    source_hash    TEXT NOT NULL,
    text           TEXT NOT NULL,
    updated_at     BIGINT NOT NULL,
    PRIMARY KEY (translation_id, unit)
);

-- An organization's glossary: each entry maps languages to the term as written in each.
CREATE TABLE glossary_entries (
    id              TEXT PRIMARY KEY,
    organization_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    translations    TEXT NOT NULL,
    created_at      BIGINT NOT NULL,
    updated_at      BIGINT NOT NULL
);
CREATE INDEX glossary_entries_org ON glossary_entries (organization_id, created_at);

-- +goose Down
DROP TABLE glossary_entries;
DROP TABLE translation_units;
DROP TABLE translations;
