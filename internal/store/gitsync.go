package store

import (
	"context"
	"database/sql"
	"errors"

	"docsd/internal/gitsync"
)

// GitSync adapts the DB to gitsync.Store; each method is its own transaction.
type GitSync struct{ DB *DB }

const gitExportColumns = `id, space_id, user_id, url, sealed_url, ref, message, project_directory, tree_url, provider,
	status, error, commit_id, created_at, updated_at`

func scanGitExport(scan func(...any) error) (gitsync.Export, error) {
	var e gitsync.Export
	var sealed sql.NullString
	var created, updated int64
	err := scan(&e.ID, &e.SpaceID, &e.UserID, &e.URL, &sealed, &e.Ref, &e.Message, &e.ProjectDirectory, &e.TreeURL,
		&e.Provider, &e.Status, &e.Error, &e.Commit, &created, &updated)
	if errors.Is(err, ErrNotFound) {
		return e, gitsync.ErrNotFound
	}
	e.Sealed, e.CreatedAt, e.UpdatedAt = sealed.String, FromMicros(created), FromMicros(updated)
	return e, err
}

func (s GitSync) InsertExport(ctx context.Context, e gitsync.Export) error {
	return s.DB.Write(ctx, e.CreatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO git_exports (`+gitExportColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.ID, e.SpaceID, e.UserID, e.URL, nullString(e.Sealed), e.Ref, e.Message, e.ProjectDirectory, e.TreeURL,
			e.Provider, e.Status, e.Error, e.Commit, Micros(e.CreatedAt), Micros(e.UpdatedAt))
		return err
	})
}

func (s GitSync) Export(ctx context.Context, id string) (gitsync.Export, error) {
	return scanGitExport(s.DB.Read().QueryRow(ctx, `SELECT `+gitExportColumns+` FROM git_exports WHERE id = ?`, id).Scan)
}

func (s GitSync) FinishExport(ctx context.Context, e gitsync.Export) error {
	return s.DB.Write(ctx, e.UpdatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `UPDATE git_exports SET status = ?, error = ?, commit_id = ?, sealed_url = NULL, updated_at = ?
			WHERE id = ?`, e.Status, e.Error, e.Commit, Micros(e.UpdatedAt), e.ID)
		return err
	})
}

func (s GitSync) LatestExport(ctx context.Context, spaceID string) (gitsync.Export, error) {
	return scanGitExport(s.DB.Read().QueryRow(ctx, `SELECT `+gitExportColumns+` FROM git_exports WHERE space_id = ?
		ORDER BY created_at DESC, id DESC LIMIT 1`, spaceID).Scan)
}

func (s GitSync) PutState(ctx context.Context, st gitsync.State) error {
	return s.DB.Write(ctx, st.UpdatedAt, func(q *Q) error {
		_, err := q.Exec(ctx, `INSERT INTO space_git_sync (space_id, provider, repo_name, tree_url, updated_at)
			VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (space_id) DO UPDATE SET provider = excluded.provider, repo_name = excluded.repo_name,
				tree_url = excluded.tree_url, updated_at = excluded.updated_at`,
			st.SpaceID, st.Provider, st.RepoName, st.TreeURL, Micros(st.UpdatedAt))
		return err
	})
}

func (s GitSync) State(ctx context.Context, spaceID string) (gitsync.State, error) {
	st := gitsync.State{SpaceID: spaceID}
	var at int64
	err := s.DB.Read().QueryRow(ctx, `SELECT provider, repo_name, tree_url, updated_at FROM space_git_sync WHERE space_id = ?`,
		spaceID).Scan(&st.Provider, &st.RepoName, &st.TreeURL, &at)
	if errors.Is(err, ErrNotFound) {
		return st, gitsync.ErrNotFound
	}
	st.UpdatedAt = FromMicros(at)
	return st, err
}
