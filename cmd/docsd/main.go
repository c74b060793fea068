// Command docsd is a self-hostable documentation platform server with a GitBook-compatible API.
//
//	docsd [serve] [flags]            serve the API (the default)
//	docsd migrate [flags]            apply database migrations
//	docsd admin create-user --email E --name N
//	docsd admin create-token --email E
//	docsd admin create-org --title T --owner E
//	docsd admin backup --to DIR         copy the SQLite database and the blobs, while serving
//	docsd admin restore --from DIR [--force]
//	docsd admin check [--repair]        verify blobs, revisions, search indexes and jobs
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
	"syscall"
	"time"

	"docsd/internal/app"
	"docsd/internal/config"
	"docsd/internal/logbuf"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return // -h printed the usage: asking for help is not a failure
		}
		fmt.Fprintln(os.Stderr, "docsd:", err)
		var ex exitCode
		if errors.As(err, &ex) {
			os.Exit(int(ex))
		}
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cmd := "serve"
	if len(args) > 0 && args[0] != "" && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "serve":
		return serve(ctx, args, getenv, stdout, stderr)
	case "migrate":
		cfg, err := config.Load("docsd migrate", args, getenv, stderr)
		if err != nil {
			return err
		}
		a, err := app.Open(ctx, cfg, app.Options{Log: newLogger(cfg, stderr)})
		if err != nil {
			return err
		}
		return a.Close()
	case "admin":
		return admin(ctx, args, getenv, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprintln(stdout, "usage: docsd [serve|migrate|admin] [flags]; docsd <command> -h for flags")
		return nil
	}
	return fmt.Errorf("unknown command %q (want serve, migrate or admin)", cmd)
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: cfg.LogLevel}))
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := config.Load("docsd serve", args, getenv, stderr)
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
