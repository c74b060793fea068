// Command docsd is a self-hostable documentation platform server with a GitBook-compatible API.
//
//	docsd [serve] [flags]            serve the API and published sites (the default)
//	docsd migrate [flags]            apply database migrations
//	docsd admin <command> [flags]    users, tokens, organizations; backup, restore, check
//	docsd version                    print the version, VCS commit and build date
//	docsd help [command]             describe the commands, or one command's flags
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"docsd/internal/app"
	"docsd/internal/config"
	"docsd/internal/jsonlog"
	"docsd/internal/logbuf"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "docsd:", err)
	}
	stop()
	os.Exit(exitCode(err))
}

// exitCode is 0 for success and for help asked for, 2 for a command line docsd cannot run
// (an unknown command or flag, a bad setting), and 1 for a failure while running.
func exitCode(err error) int {
	var usage *config.UsageError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &usage):
		return 2
	}
	return 1
}

// command is one of docsd's subcommands.
type command struct {
	name, summary string
	run           func(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error
}

// commands lists the subcommands in the order the help shows them. It is a function rather
// than a variable because help refers back to it.
func commands() []command {
	return []command{
		{"serve", "serve the API and the published sites (what docsd does with no command)", serve},
		{"migrate", "apply the database migrations, then exit (serve applies them too)", migrate},
		{"admin", "create users, API tokens and organizations; back up, restore and check the data: docsd help admin", admin},
		{"version", "print the version, VCS commit and build date", version},
		{"help", "describe the commands, or one command and its flags: docsd help <command>", help},
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return serve(ctx, args, getenv, stdout, stderr)
	}
	switch first := args[0]; {
	case isHelpFlag(first):
		return help(ctx, args[1:], getenv, stdout, stderr)
	case first == "-version" || first == "--version":
		return version(ctx, args[1:], getenv, stdout, stderr)
	case strings.HasPrefix(first, "-"):
		// Flags with no command are serve's.
		return serve(ctx, args, getenv, stdout, stderr)
	}
	c, ok := lookup(args[0])
	if !ok {
		return config.Usagef("unknown command %q: the commands are %s (docsd help describes them)", args[0], commandNames())
	}
	return c.run(ctx, args[1:], getenv, stdout, stderr)
}

func isHelpFlag(arg string) bool { return arg == "-h" || arg == "-help" || arg == "--help" }

// commandNames is "serve, migrate, admin, version and help".
func commandNames() string {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// help prints the list of commands, or a command's own help ("docsd help admin create-user"
// is "docsd admin create-user --help").
func help(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		printUsage(stdout)
		return nil
	}
	c, ok := lookup(args[0])
	if !ok {
		return config.Usagef("help: unknown command %q: the commands are %s", args[0], commandNames())
	}
	if c.name == "help" {
		printUsage(stdout)
		return nil
	}
	return c.run(ctx, append(args[1:len(args):len(args)], "--help"), getenv, stdout, stderr)
}

func printUsage(w io.Writer) {
	fmt.Fprint(w, `docsd is a self-hostable documentation server with a GitBook-compatible API.

Usage:
  docsd <command> [flags]

Commands:
`)
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, `
docsd help <command> (or docsd <command> --help) lists a command's flags. Every setting is also
an environment variable: --data-dir is DOCSD_DATA_DIR, and so on; a flag wins.
`)
}

// configFlags are the settings flags with a command's usage above them.
func configFlags(name, usage string, getenv func(string) string, stdout io.Writer) *config.Flags {
	f := config.NewFlags(name, getenv, stdout)
	f.Usage = usage
	return f
}

func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := configFlags("docsd migrate", "usage: docsd migrate [flags]\n\nApply the database migrations the settings' database lacks, then exit.", getenv, stdout).Parse(args)
	if err != nil {
		return err
	}
	a, err := app.Open(ctx, cfg, app.Options{Log: newLogger(cfg, stderr)})
	if err != nil {
		return err
	}
	return a.Close()
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	return slog.New(jsonlog.New(w, &slog.HandlerOptions{Level: cfg.LogLevel}))
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := configFlags("docsd serve", `usage: docsd [serve] [flags]

Serve the API under /v1 and the published sites. On an empty database the first start creates
an administrator and an organization and prints an API token once.`, getenv, stdout).Parse(args)
	if err != nil {
		return err
	}
	// The server logs a line per request: batch them into one write per flush.
	logOut := logbuf.New(stderr, 100*time.Millisecond)
	defer logOut.Close()
	log := newLogger(cfg, logOut)
	if cfg.CPUProfile != "" {
		stop, err := startCPUProfile(cfg.CPUProfile)
		if err != nil {
			return err
		}
		defer stop(log)
	}
	if cfg.HeapProfile != "" {
		// Checked now so that a bad path fails the start, not the end of a long run.
		stop, err := heapProfileAtStop(cfg.HeapProfile)
		if err != nil {
			return err
		}
		defer stop(log)
	}
	a, err := app.Open(ctx, cfg, app.Options{Log: log})
	if err != nil {
		return err
	}
	defer a.Close()
	if err := a.Listen(); err != nil {
		return err
	}
	if err := a.Bootstrap(ctx, stdout); err != nil {
		return err
	}
	log.Info("docsd listening", "addr", a.Addr(), "baseURL", a.BaseURL, "config", cfg.Redacted())
	fmt.Fprintf(stdout, "docsd is serving the API at %s/v1 (database: %s)\n", a.BaseURL, a.DB.Engine)
	err = a.Serve(ctx)
	log.Info("docsd stopped")
	return err
}
