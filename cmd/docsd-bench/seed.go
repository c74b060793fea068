package main

import (
	"context"
	"fmt"
	"io"

	"docsd/internal/app"
	"docsd/internal/auth"
	"docsd/internal/config"
)

// seedMembers adds n users to the organization, with a spread of roles, through docsd's own
// services on its data directory (SQLite in WAL mode takes this second process's writes while
// docsd runs) or its PostgreSQL database. The admin commands have no way to add a member yet.
func seedMembers(ctx context.Context, dataDir, databaseURL, orgID string, n int) error {
	noEnv := func(string) string { return "" }
	args := []string{"-data-dir", dataDir}
	if databaseURL != "" {
		args = append(args, "-database-url", databaseURL)
	}
	cfg, err := config.Load("docsd-bench seed", args, noEnv, io.Discard)
	if err != nil {
		return err
	}
	a, err := app.Open(ctx, cfg, app.Options{})
	if err != nil {
		return err
	}
	defer a.Close()
	roles := []auth.Role{auth.Read, auth.Edit, auth.Comment, auth.Review, auth.Create, auth.Admin, auth.Guest}
	for i := 1; i <= n; i++ {
		u, err := a.Accounts.CreateUser(ctx, fmt.Sprintf("member%04d@bench.localhost", i), fmt.Sprintf("Bench Member %d", i), true)
		if err != nil {
			return fmt.Errorf("seed members: %w", err)
		}
		if err := a.Orgs.AddMember(ctx, orgID, u.ID, roles[i%len(roles)]); err != nil {
			return fmt.Errorf("seed members: %w", err)
		}
	}
	return nil
}
