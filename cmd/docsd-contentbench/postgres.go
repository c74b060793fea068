package main

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"strings"

	"docsd/internal/ids"
	_ "docsd/internal/store" // registers the pgx driver
)

// postgresSchema makes a schema of its own in the database at pg and returns a URL that
// selects it; drop removes it.
func postgresSchema(ctx context.Context, pg, dir string, n int) (database, error) {
	u, err := url.Parse(pg)
	if err != nil {
		return database{}, fmt.Errorf("-postgres: %w", err)
	}
	admin, err := sql.Open("pgx", pg)
	if err != nil {
		return database{}, err
	}
	schema := fmt.Sprintf("contentbench_%d_%s", n, strings.ToLower(ids.Random(8)))
	if _, err := admin.ExecContext(ctx, `CREATE SCHEMA `+schema); err != nil {
		admin.Close()
		return database{}, fmt.Errorf("create schema: %w", err)
	}
	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	drop := func() {
		admin.ExecContext(context.Background(), `DROP SCHEMA `+schema+` CASCADE`)
		admin.Close()
	}
	return database{dataDir: dir, url: u.String(), drop: drop}, nil
}
