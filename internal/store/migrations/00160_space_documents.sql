-- +goose Up
-- The documents (markdown texts, named by their sha256) that each space's revisions brought
-- in, with the first revision of the space that had each: getDocumentById answers a document
-- of any revision of the space, change requests' included, read as in that revision, without
-- walking the space's history. Written with each commit, for what it changed.
CREATE TABLE space_documents (
    space_id    TEXT NOT NULL,
    document    TEXT NOT NULL,
    revision_id TEXT NOT NULL,
    PRIMARY KEY (space_id, document)
);

-- +goose Down
DROP TABLE space_documents;
