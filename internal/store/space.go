package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"docsd/internal/auth"
	"docsd/internal/outbox"
	"docsd/internal/space"
)

// Spaces adapts the DB to space.Store.
type Spaces struct{ DB *DB }

func (s Spaces) Read() space.Tx { return spaceTx{s.DB.Read()} }

func (s Spaces) Write(ctx context.Context, now time.Time, fn func(space.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(spaceTx{q}) })
}

// spaceTx implements space.Tx in space.go, collection.go and grant.go.
type spaceTx struct{ q *Q }

const spaceColumns = `s.id, s.organization_id, s.parent_id, s.position, s.title, s.emoji, s.icon_url, s.visibility,
	s.edit_mode, s.language, s.default_level, s.merge_rules, s.created_at, s.updated_at, s.deleted_at, s.revision_id, s.open_comments`

func scanSpace(scan func(...any) error) (space.Space, error) {
	var sp space.Space
	var parent, emoji, icon, language, level sql.NullString
	var rules string
	var created, updated int64
	var deleted sql.NullInt64
	var revision sql.NullString
	err := scan(&sp.ID, &sp.OrganizationID, &parent, &sp.Position, &sp.Title, &emoji, &icon, &sp.Visibility,
		&sp.EditMode, &language, &level, &rules, &created, &updated, &deleted, &revision, &sp.OpenComments)
	if err != nil {
		return sp, err
	}
	sp.Parent, sp.Emoji, sp.IconURL, sp.Language = parent.String, emoji.String, icon.String, language.String
	sp.DefaultLevel = space.Level(level.String)
	sp.Revision = revision.String
	sp.CreatedAt, sp.UpdatedAt, sp.DeletedAt = FromMicros(created), FromMicros(updated), TimePtr(deleted)
	return sp, json.Unmarshal([]byte(rules), &sp.MergeRules)
}

// nullIfEmpty stores "" as NULL, for optional text columns.
func nullIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

func spaceArgs(sp space.Space) ([]any, error) {
	rules, err := json.Marshal(sp.MergeRules)
	if err != nil {
		return nil, err
	}
	return []any{sp.OrganizationID, nullIfEmpty(sp.Parent), sp.Position, sp.Title, nullIfEmpty(sp.Emoji),
		nullIfEmpty(sp.IconURL), string(sp.Visibility), string(sp.EditMode), nullIfEmpty(sp.Language),
		nullIfEmpty(string(sp.DefaultLevel)), string(rules), Micros(sp.UpdatedAt), NullMicros(sp.DeletedAt), sp.ID}, nil
}

// InsertSpace writes the space with its head revision. A new space's revision does not exist
// yet and is written here, empty; a duplicate's is its source's, which exists and is shared.
// UpdateSpace never writes the head: only the content store moves it, by compare-and-swap.
func (t spaceTx) InsertSpace(ctx context.Context, sp space.Space) error {
	args, err := spaceArgs(sp)
	if err != nil {
		return err
	}
	_, err = t.q.Exec(ctx, `INSERT INTO spaces (organization_id, parent_id, position, title, emoji, icon_url, visibility,
		edit_mode, language, default_level, merge_rules, updated_at, deleted_at, id, created_at, revision_id)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, append(args, Micros(sp.CreatedAt), nullIfEmpty(sp.Revision))...)
	if err != nil {
		return err
	}
	if err := t.q.Emit(outbox.SpaceCreated, sp.OrganizationID, sp.ID, sp.ID, nil); err != nil || sp.Revision == "" {
		return err
	}
	if err := insertEmptyRevision(ctx, t.q, sp.Revision, sp.ID, sp.CreatedAt); err != nil {
		return err
	}
	// A duplicate starts with its source's content.
	return t.q.Emit(outbox.HeadMoved, sp.OrganizationID, sp.ID, sp.Revision, outbox.HeadMove{To: sp.Revision})
}

func (t spaceTx) UpdateSpace(ctx context.Context, was, sp space.Space) error {
	args, err := spaceArgs(sp)
	if err != nil {
		return err
	}
	// The write read the space before changing it, and no other write runs meanwhile (on
	// PostgreSQL, every write group holds the outbox's numbering row: groupcommit.go), so
	// the update's only answer is that it ran: it rides with the write's next statement.
	if err := t.q.ExecLater(ctx, `UPDATE spaces SET organization_id = ?, parent_id = ?, position = ?, title = ?, emoji = ?,
		icon_url = ?, visibility = ?, edit_mode = ?, language = ?, default_level = ?, merge_rules = ?, updated_at = ?,
		deleted_at = ? WHERE id = ?`, args...); err != nil {
		return err
	}
	return t.emitSpaceUpdate(sp, was.DeletedAt != nil, string(was.Visibility))
}

// emitSpaceUpdate records the event of UpdateSpace.
func (t spaceTx) emitSpaceUpdate(sp space.Space, wasDeleted bool, wasVisibility string) error {
	kind := outbox.SpaceUpdated
	switch deleted := sp.DeletedAt != nil; {
	case deleted && !wasDeleted:
		kind = outbox.SpaceDeleted
	case !deleted && wasDeleted:
		kind = outbox.SpaceRestored
	}
	var data any
	if kind == outbox.SpaceUpdated && wasVisibility != string(sp.Visibility) {
		data = outbox.VisibilityChange{PreviousVisibility: wasVisibility, Visibility: string(sp.Visibility)}
	}
	return t.q.Emit(kind, sp.OrganizationID, sp.ID, sp.ID, data)
}

func (t spaceTx) Space(ctx context.Context, id string) (space.Space, error) {
	sp, err := scanSpace(t.q.QueryRow(ctx, `SELECT `+spaceColumns+` FROM spaces s WHERE s.id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return sp, space.ErrNotFound
	}
	return sp, err
}

func (t spaceTx) Spaces(ctx context.Context, orgID string) ([]space.Space, error) {
	rows, err := t.q.Query(ctx, `SELECT `+spaceColumns+` FROM spaces s
		WHERE s.organization_id = ? AND s.deleted_at IS NULL`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []space.Space
	for rows.Next() {
		sp, err := scanSpace(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, sp)
	}
	return out, mapErr(rows.Err())
}

func (t spaceTx) PurgeSpace(ctx context.Context, id string, cutoff time.Time) (bool, error) {
	res, err := t.q.Exec(ctx, `DELETE FROM spaces WHERE id = ? AND deleted_at IS NOT NULL AND deleted_at <= ?`, id, Micros(cutoff))
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return false, err
	}
	return true, dropSearchIndex(ctx, t.q, id)
}

// SchedulePurge enqueues the purge in the transaction that deletes the space. The dedupe key
// names the deletion, so deleting, restoring and deleting again schedules a second purge.
func (t spaceTx) SchedulePurge(ctx context.Context, id string, deletedAt, runAt time.Time) error {
	key := fmt.Sprintf("%s:%s:%d", space.PurgeJob, id, Micros(deletedAt))
	return t.q.EnqueueJob(ctx, space.PurgeJob, space.PurgeRequest{Space: id}, runAt, key)
}

func (t spaceTx) Members(ctx context.Context, orgID string) ([]space.Member, error) {
	rows, err := t.q.Query(ctx, `SELECT m.role, u.id, u.email, u.email_verified, u.display_name, u.photo_url, u.created_at
		FROM members m JOIN users u ON u.id = m.user_id WHERE m.organization_id = ? AND m.disabled = FALSE`, orgID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []space.Member
	for rows.Next() {
		var m space.Member
		var role sql.NullString
		var created int64
		if err := rows.Scan(&role, &m.User.ID, &m.User.Email, &m.User.EmailVerified, &m.User.DisplayName,
			&m.User.PhotoURL, &created); err != nil {
			return nil, err
		}
		m.Role, m.User.CreatedAt = auth.Role(role.String), FromMicros(created)
		out = append(out, m)
	}
	return out, mapErr(rows.Err())
}

// LockTree locks the organization's row. NO KEY UPDATE serializes tree changes without
// blocking the foreign-key checks of rows inserted meanwhile under the organization. SQLite
// needs no lock: its write transactions run one at a time.
func (t spaceTx) LockTree(ctx context.Context, orgID string) error {
	lock := ""
	if t.q.Engine() == Postgres {
		lock = " FOR NO KEY UPDATE"
	}
	var id string
	err := t.q.QueryRow(ctx, `SELECT id FROM organizations WHERE id = ?`+lock, orgID).Scan(&id)
	if errors.Is(err, ErrNotFound) {
		return space.ErrNotFound
	}
	return err
}
