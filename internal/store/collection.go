package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"time"

	"docsd/internal/space"
)

const collectionColumns = `c.id, c.organization_id, c.parent_id, c.position, c.title, c.description, c.default_level,
	c.created_at, c.updated_at`

func scanCollection(scan func(...any) error) (space.Collection, error) {
	var col space.Collection
	var parent, desc, level sql.NullString
	var created, updated int64
	err := scan(&col.ID, &col.OrganizationID, &parent, &col.Position, &col.Title, &desc, &level, &created, &updated)
	col.Parent, col.Description, col.DefaultLevel = parent.String, StrPtr(desc), space.Level(level.String)
	col.CreatedAt, col.UpdatedAt = FromMicros(created), FromMicros(updated)
	return col, err
}

func (t spaceTx) InsertCollection(ctx context.Context, col space.Collection) error {
	_, err := t.q.Exec(ctx, `INSERT INTO collections (id, organization_id, parent_id, position, title, description,
		default_level, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		col.ID, col.OrganizationID, nullIfEmpty(col.Parent), col.Position, col.Title, NullStr(col.Description),
		nullIfEmpty(string(col.DefaultLevel)), Micros(col.CreatedAt), Micros(col.UpdatedAt))
	return err
}

func (t spaceTx) UpdateCollection(ctx context.Context, col space.Collection) error {
	_, err := t.q.Exec(ctx, `UPDATE collections SET organization_id = ?, parent_id = ?, position = ?, title = ?,
		description = ?, default_level = ?, updated_at = ? WHERE id = ?`,
		col.OrganizationID, nullIfEmpty(col.Parent), col.Position, col.Title, NullStr(col.Description),
		nullIfEmpty(string(col.DefaultLevel)), Micros(col.UpdatedAt), col.ID)
	return err
}

func (t spaceTx) Collection(ctx context.Context, id string) (space.Collection, error) {
	col, err := scanCollection(t.q.QueryRow(ctx, `SELECT `+collectionColumns+` FROM collections c WHERE c.id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return col, space.ErrNotFound
	}
	return col, err
}

func (t spaceTx) Collections(ctx context.Context, orgID string) ([]space.Collection, error) {
	rows, err := t.q.Query(ctx, `SELECT `+collectionColumns+` FROM collections c WHERE c.organization_id = ?`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []space.Collection
	for rows.Next() {
		col, err := scanCollection(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, col)
	}
	return out, mapErr(rows.Err())
}

func (t spaceTx) DeleteCollection(ctx context.Context, id string) error {
	if _, err := t.q.Exec(ctx, `UPDATE spaces SET parent_id = NULL,
		visibility = CASE WHEN visibility = 'in-collection' THEN 'private' ELSE visibility END
		WHERE parent_id = ? AND deleted_at IS NOT NULL`, id); err != nil {
		return err
	}
	_, err := t.q.Exec(ctx, `DELETE FROM collections WHERE id = ?`, id)
	return err
}

// placeholders returns "?, ?, ?" for n values.
func placeholders(n int) string { return strings.TrimSuffix(strings.Repeat("?, ", n), ", ") }

func stringArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

func (t spaceTx) MoveTreeToOrganization(ctx context.Context, orgID string, collectionIDs []string, at time.Time) error {
	if len(collectionIDs) == 0 {
		return nil
	}
	in := `(` + placeholders(len(collectionIDs)) + `)`
	ids := stringArgs(collectionIDs)
	var spaceIDs []string
	rows, err := t.q.Query(ctx, `SELECT id FROM spaces WHERE parent_id IN `+in, ids...)
	if err != nil {
		return err
	}
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		spaceIDs = append(spaceIDs, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return mapErr(err)
	}
	head := []any{orgID, Micros(at)}
	if _, err := t.q.Exec(ctx, `UPDATE collections SET organization_id = ?, updated_at = ? WHERE id IN `+in, append(head, ids...)...); err != nil {
		return err
	}
	if _, err := t.q.Exec(ctx, `UPDATE spaces SET organization_id = ?, updated_at = ? WHERE parent_id IN `+in, append(head, ids...)...); err != nil {
		return err
	}
	targets := make([]space.Target, 0, len(collectionIDs)+len(spaceIDs))
	for _, id := range collectionIDs {
		targets = append(targets, space.Target{Kind: space.CollectionKind, ID: id})
	}
	for _, id := range spaceIDs {
		targets = append(targets, space.Target{Kind: space.SpaceKind, ID: id})
	}
	return t.DropForeignGrants(ctx, orgID, targets)
}
