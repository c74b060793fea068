package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"docsd/internal/content"
	"docsd/internal/outbox"
)

// Contents adapts the DB to content.Store.
type Contents struct{ DB *DB }

func (s Contents) Read() content.Tx { return contentTx{s.DB.Read()} }

func (s Contents) Write(ctx context.Context, now time.Time, fn func(content.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(contentTx{q}) })
}

// contentTx implements content.Tx here and in content_objects.go.
type contentTx struct{ q *Q }

const revisionColumns = `id, space_id, parents, type, pages_root, files_root, variables, author_id, created_at, git,
	base_id, depth, changes`

// storedChanges is the JSON of a revision stored as changes over its base.
type storedChanges struct {
	Pages map[string]string `json:"pages,omitempty"`
	Files map[string]string `json:"files,omitempty"`
}

func (t contentTx) Revision(ctx context.Context, id string) (content.Revision, error) {
	r, err := scanRevision(t.q.QueryRow(ctx, `SELECT `+revisionColumns+` FROM revisions WHERE id = ?`, id).Scan)
	if errors.Is(err, ErrNotFound) {
		return r, content.ErrNotFound
	}
	return r, err
}

// RevisionChain reads a revision and the revisions down its chain of bases, in one query.
func (t contentTx) RevisionChain(ctx context.Context, id string, max int) ([]content.Revision, error) {
	rows, err := t.q.Query(ctx, `WITH RECURSIVE chain (id, n) AS (
			SELECT id, 0 FROM revisions WHERE id = ?
			UNION ALL
			SELECT r.base_id, c.n + 1 FROM chain c JOIN revisions r ON r.id = c.id
				WHERE r.base_id IS NOT NULL AND c.n < ?)
		SELECT `+prefixed("r.", revisionColumns)+` FROM chain c JOIN revisions r ON r.id = c.id ORDER BY c.n`, id, max)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []content.Revision
	for rows.Next() {
		r, err := scanRevision(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, mapErr(rows.Err())
}

// prefixed qualifies each of a comma-separated list of columns.
func prefixed(prefix, columns string) string {
	parts := strings.Split(columns, ",")
	for i, c := range parts {
		parts[i] = prefix + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

func scanRevision(scan func(...any) error) (content.Revision, error) {
	var r content.Revision
	var parents, variables string
	var author, git, base, changes sql.NullString
	var created int64
	err := scan(&r.ID, &r.SpaceID, &parents, &r.Type, &r.PagesRoot, &r.FilesRoot, &variables, &author, &created, &git,
		&base, &r.Depth, &changes)
	if err != nil {
		return r, err
	}
	r.AuthorID, r.CreatedAt = author.String, FromMicros(created)
	if err := json.Unmarshal([]byte(parents), &r.Parents); err != nil {
		return r, err
	}
	if git.Valid {
		r.Git = new(content.GitCommit)
		if err := json.Unmarshal([]byte(git.String), r.Git); err != nil {
			return r, err
		}
	}
	r.Base = base.String
	if changes.Valid {
		var ch storedChanges
		if err := json.Unmarshal([]byte(changes.String), &ch); err != nil {
			return r, err
		}
		r.PageChanges, r.FileChanges = ch.Pages, ch.Files
	}
	return r, json.Unmarshal([]byte(variables), &r.Variables)
}

func (t contentTx) InsertRevision(ctx context.Context, r content.Revision) error {
	parents, err := json.Marshal(r.Parents)
	if err != nil {
		return err
	}
	if r.Variables == nil {
		r.Variables = map[string]json.RawMessage{}
	}
	variables, err := json.Marshal(r.Variables)
	if err != nil {
		return err
	}
	var git any // NULL without a commit
	if r.Git != nil {
		b, err := json.Marshal(r.Git)
		if err != nil {
			return err
		}
		git = string(b)
	}
	var changes any // NULL for a revision stored whole
	if r.Base != "" {
		b, err := json.Marshal(storedChanges{Pages: r.PageChanges, Files: r.FileChanges})
		if err != nil {
			return err
		}
		changes = string(b)
	}
	_, err = t.q.Exec(ctx, `INSERT INTO revisions (`+revisionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.SpaceID, string(parents), r.Type, r.PagesRoot, r.FilesRoot, string(variables), nullIfEmpty(r.AuthorID),
		Micros(r.CreatedAt), git, nullIfEmpty(r.Base), r.Depth, changes)
	return err
}

// insertEmptyRevision writes a new space's first revision, unless it exists (a duplicate
// shares its source's).
func insertEmptyRevision(ctx context.Context, q *Q, id, spaceID string, at time.Time) error {
	_, err := q.Exec(ctx, `INSERT INTO revisions (`+revisionColumns+`) VALUES (?, ?, '[]', ?, '', '', '{}', NULL, ?, NULL, NULL, 0, NULL)
		ON CONFLICT (id) DO NOTHING`, id, spaceID, content.TypeEdits, Micros(at))
	return err
}

func (t contentTx) MoveHead(ctx context.Context, spaceID, from, to string) (bool, error) {
	res, err := t.q.Exec(ctx, `UPDATE spaces SET revision_id = ? WHERE id = ? AND revision_id = ?`, to, spaceID, from)
	if err != nil {
		return false, err
	}
	n, err := res.RowsAffected()
	if err != nil || n != 1 {
		return false, err
	}
	// Search indexes the move as a consumer of this event (internal/search/consume.go).
	return true, t.q.Emit(outbox.HeadMoved, "", spaceID, to, outbox.HeadMove{From: from, To: to})
}

// inList returns "?, ?, ..." for n values and the values padded to a few fixed lengths with
// copies of the first, so that the prepared-statement cache holds a handful of queries
// rather than one per list length.
func inList(values []string) (string, []any) {
	n := len(values)
	for _, size := range []int{1, 8, 64, 512} {
		if n <= size {
			n = size
			break
		}
	}
	args := make([]any, n)
	for i := range args {
		if i < len(values) {
			args[i] = values[i]
		} else {
			args[i] = values[0]
		}
	}
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", "), args
}
