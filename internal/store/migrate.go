package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/pressly/goose/v3"
)

// Migrations are numbered SQL files. A file named NNNNN_name.sql applies to both engines;
// NNNNN_name.sqlite.sql or NNNNN_name.postgres.sql to one engine only (each engine must then
// have its own file of that number).
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// engineFS shows goose only the migrations of one engine.
type engineFS struct {
	fs.FS
	engine Engine
}

func (e engineFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(e.FS, name)
	if err != nil {
		return nil, err
	}
	var out []fs.DirEntry
	for _, d := range entries {
		n := d.Name()
		other := SQLite
		if e.engine == SQLite {
			other = Postgres
		}
		if strings.HasSuffix(n, "."+string(other)+".sql") {
			continue
		}
		out = append(out, d)
	}
	return out, nil
}

func (e engineFS) Glob(pattern string) ([]string, error) {
	all, err := fs.Glob(e.FS, pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	other := "." + string(Postgres) + ".sql"
	if e.engine == Postgres {
		other = "." + string(SQLite) + ".sql"
	}
	for _, n := range all {
		if !strings.HasSuffix(n, other) {
			out = append(out, n)
		}
	}
	return out, nil
}

// Migrate applies every pending migration, each in its own transaction. It is safe to call
// from several processes at once on PostgreSQL (goose takes a session lock there).
func (db *DB) Migrate(ctx context.Context) error {
	p, err := db.migrations(ctx)
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// MigrateTo brings the schema to version: up, applying the migrations up to it, or down,
// reverting those above it, each in its own transaction. It serves tests of a migration on a
// database made by an older schema (build it at that schema, then Migrate), and an operator
// going back to an older binary.
func (db *DB) MigrateTo(ctx context.Context, version int64) error {
	p, err := db.migrations(ctx)
	if err != nil {
		return err
	}
	current, err := p.GetDBVersion(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	if version >= current {
		_, err = p.UpTo(ctx, version)
	} else {
		_, err = p.DownTo(ctx, version)
	}
	if err != nil {
		return fmt.Errorf("migrate to %d: %w", version, err)
	}
	return nil
}

// SchemaVersion is the version of the newest migration applied.
func (db *DB) SchemaVersion(ctx context.Context) (int64, error) {
	p, err := db.migrations(ctx)
	if err != nil {
		return 0, err
	}
	return p.GetDBVersion(ctx)
}

func (db *DB) migrations(ctx context.Context) (*goose.Provider, error) {
	sub, err := fs.Sub(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if db.Engine == Postgres {
		dialect = goose.DialectPostgres
		locker, err := db.newPostgresLocker(ctx)
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db.writer, engineFS{FS: sub, engine: db.Engine}, opts...)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}
