package main

import (
	"context"
	"fmt"
	"io"

	"docsd/internal/app"
	"docsd/internal/config"
)

const adminCommands = "create-user, create-token, create-org, backup, restore or check"

// admin runs an administration command. Each prints only the value asked for on stdout, so
// scripts can capture it.
func admin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return fmt.Errorf("admin: want %s", adminCommands)
	}
	sub, args := args[0], args[1:]
	switch sub {
	case "backup", "restore", "check":
		return adminData(ctx, sub, args, getenv, stdout, stderr)
	}
	var email, name, title, owner string
	flags := config.NewFlags("docsd admin "+sub, getenv, stderr)
	fs := flags.FlagSet
	switch sub {
	case "create-user":
		fs.StringVar(&email, "email", "", "email address of the new user (required)")
		fs.StringVar(&name, "name", "", "display name of the new user (required)")
	case "create-token":
		fs.StringVar(&email, "email", "", "email address of the user (required)")
	case "create-org":
		fs.StringVar(&title, "title", "", "title of the new organization (required)")
		fs.StringVar(&owner, "owner", "", "email address of the owner, who becomes an admin (required)")
	default:
		return fmt.Errorf("admin: unknown command %q (want %s)", sub, adminCommands)
	}
	cfg, err := flags.Parse(args)
	if err != nil {
		return err
	}
	a, err := app.Open(ctx, cfg, app.Options{Log: newLogger(cfg, stderr)})
	if err != nil {
		return err
	}
	defer a.Close()
	switch sub {
	case "create-user":
		if email == "" || name == "" {
			return fmt.Errorf("create-user: --email and --name are required")
		}
		u, err := a.Accounts.CreateUser(ctx, email, name, true)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, u.ID)
	case "create-token":
		if email == "" {
			return fmt.Errorf("create-token: --email is required")
		}
		tok, err := a.Accounts.CreateToken(ctx, email)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, tok)
	case "create-org":
		if title == "" || owner == "" {
			return fmt.Errorf("create-org: --title and --owner are required")
		}
		u, err := a.Accounts.ByEmail(ctx, owner)
		if err != nil {
			return err
		}
		o, err := a.Orgs.Create(ctx, title, u.ID)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, o.ID)
	}
	return nil
}
