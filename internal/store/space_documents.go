package store

import (
	"context"
	"errors"
	"maps"
	"slices"

	"docsd/internal/content"
)

// RecordDocuments records that the revision of the space brought in the documents, unless
// an earlier revision of the space did.
func (t contentTx) RecordDocuments(ctx context.Context, spaceID, revisionID string, documents map[string]string) error {
	rows := make([][]any, 0, len(documents))
	for _, d := range slices.Sorted(maps.Keys(documents)) {
		rows = append(rows, []any{spaceID, d, revisionID})
	}
	return t.insertRows(ctx, `INSERT INTO space_documents (space_id, document, revision_id) VALUES `, "(?, ?, ?)", "space_id, document", rows)
}

// DocumentRevision returns the first revision of the space that had the document, or
// content.ErrNotFound.
func (t contentTx) DocumentRevision(ctx context.Context, spaceID, document string) (string, error) {
	var rev string
	err := t.q.QueryRow(ctx, `SELECT revision_id FROM space_documents WHERE space_id = ? AND document = ?`, spaceID, document).Scan(&rev)
	if errors.Is(err, ErrNotFound) {
		return "", content.ErrNotFound
	}
	return rev, err
}
