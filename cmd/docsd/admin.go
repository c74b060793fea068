package main

import (
	"context"
	"fmt"
	"io"

	"docsd/internal/app"
	"docsd/internal/config"
)

// adminCommand is one administration command: its synopsis and what it prints.
type adminCommand struct {
	name, synopsis, summary string
}

var adminCommands = []adminCommand{
	{"create-user", "--email E --name N", "create a user and print its id"},
	{"create-token", "--email E", "create an API token for a user and print it (it is shown only then)"},
	{"create-org", "--title T --owner E", "create an organization with that user as its admin and print its id"},
	{"backup", "--to DIR", "copy the SQLite database and the blobs into DIR, also while the server runs"},
	{"restore", "--from DIR [--force]", "put a backup made by backup into the data directory"},
	{"check", "[--repair]", "verify blobs, revisions, search indexes and jobs; print each problem"},
}

func printAdminUsage(w io.Writer) {
	fmt.Fprint(w, `usage: docsd admin <command> [flags]

Administration commands. Each prints only the value asked for, so scripts can capture it; they
work on the database the settings name, also while the server runs.

Commands:
`)
	for _, c := range adminCommands {
		fmt.Fprintf(w, "  %-13s %-20s %s\n", c.name, c.synopsis, c.summary)
	}
	fmt.Fprintln(w, "\ndocsd help admin <command> (or docsd admin <command> --help) lists its flags.")
}

// admin runs an administration command. Each prints only the value asked for on stdout, so
// scripts can capture it.
func admin(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return config.Usagef("admin: name a command: create-user, create-token, create-org, backup, restore or check (docsd help admin describes them)")
	}
	if isHelpFlag(args[0]) || args[0] == "help" {
		printAdminUsage(stdout)
		return nil
	}
	sub, args := args[0], args[1:]
	var cmd *adminCommand
	for i := range adminCommands {
		if adminCommands[i].name == sub {
			cmd = &adminCommands[i]
		}
	}
	if cmd == nil {
		return config.Usagef("admin: unknown command %q: want create-user, create-token, create-org, backup, restore or check (docsd help admin describes them)", sub)
	}
	var email, name, title, owner string
	flags := configFlags("docsd admin "+sub, fmt.Sprintf("usage: docsd admin %s %s [flags]\n\n%s.", sub, cmd.synopsis, upperFirst(cmd.summary)), getenv, stdout)
	switch sub {
	case "backup", "restore", "check":
		return adminData(ctx, sub, flags, args, stdout, stderr)
	}
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
	}
	cfg, err := flags.Parse(args)
	if err != nil {
		return err
	}
	// Check the required flags before opening the database: a usage error changes nothing.
	switch {
	case sub == "create-user" && (email == "" || name == ""):
		return config.Usagef("admin create-user: --email and --name are required")
	case sub == "create-token" && email == "":
		return config.Usagef("admin create-token: --email is required")
	case sub == "create-org" && (title == "" || owner == ""):
		return config.Usagef("admin create-org: --title and --owner are required")
	}
	a, err := app.Open(ctx, cfg, app.Options{Log: newLogger(cfg, stderr)})
	if err != nil {
		return err
	}
	defer a.Close()
	switch sub {
	case "create-user":
		u, err := a.Accounts.CreateUser(ctx, email, name, true)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, u.ID)
	case "create-token":
		tok, err := a.Accounts.CreateToken(ctx, email)
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, tok)
	case "create-org":
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

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}
