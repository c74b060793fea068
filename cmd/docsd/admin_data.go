package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"docsd/internal/app"
	"docsd/internal/backup"
	"docsd/internal/check"
	"docsd/internal/config"
	"docsd/internal/store"
)

// problemsFound is check's answer when problems are left; like any failure while running, it
// ends docsd with exit status 1.
type problemsFound struct{ n int }

func (p problemsFound) Error() string { return fmt.Sprintf("check: %d problems left", p.n) }

// adminData runs the commands that look after the data itself: backup, restore and check.
func adminData(ctx context.Context, sub string, flags *config.Flags, args []string, stdout, stderr io.Writer) error {
	fs := flags.FlagSet
	var dir string
	var force, repair bool
	switch sub {
	case "backup":
		fs.StringVar(&dir, "to", "", "directory to write the backup to; absent or empty (required)")
	case "restore":
		fs.StringVar(&dir, "from", "", "backup directory made by docsd admin backup (required)")
		fs.BoolVar(&force, "force", false, "replace the database and blobs of a data directory that has some")
	case "check":
		fs.BoolVar(&repair, "repair", false, "repair what can be: rebuild search indexes, requeue stuck jobs")
	}
	cfg, err := flags.Parse(args)
	if err != nil {
		return err
	}
	if sub != "check" && dir == "" {
		return fmt.Errorf("%s: --%s is required", sub, map[string]string{"backup": "to", "restore": "from"}[sub])
	}
	if sub == "restore" {
		return restore(cfg, dir, force, stderr)
	}
	a, err := app.Open(ctx, cfg, app.Options{Log: newLogger(cfg, stderr)})
	if err != nil {
		return err
	}
	defer a.Close()
	if sub == "backup" {
		blobDir := localBlobDir(cfg)
		m, err := backup.Create(ctx, a.DB, blobDir, dir, a.Clock.Now())
		if errors.Is(err, store.ErrNotSQLite) {
			return fmt.Errorf("backup: the database is PostgreSQL: back it up with pg_dump, and the blobs beside it (see README)")
		}
		if err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		// stdout stays for what a script asks for: the summary is for the operator.
		fmt.Fprintf(stderr, "backup: database %d bytes, %d blobs (%d bytes) in %s\n", m.Database, m.Blobs, m.BlobBytes, dir)
		if m.BlobsElsewhere {
			fmt.Fprintln(stderr, "backup: the blobs are in an S3-compatible bucket, not in this backup: back the bucket up by its own means (versioning or replication)")
		}
		for _, h := range m.Skipped {
			fmt.Fprintf(stderr, "backup: blob %s left out: its bytes no longer match its hash (run docsd admin check)\n", h)
		}
		return nil
	}
	n, err := check.Run(ctx, check.Deps{DB: a.DB, Blobs: a.Blobs, Content: a.Content, Search: a.Search,
		Kinds: a.Jobs.Kinds(), Clock: a.Clock}, repair, func(f check.Finding) { fmt.Fprintln(stdout, f) })
	if err != nil {
		return fmt.Errorf("check: %w", err)
	}
	if n > 0 {
		return problemsFound{n}
	}
	return nil
}

func restore(cfg config.Config, dir string, force bool, stderr io.Writer) error {
	if strings.HasPrefix(cfg.DatabaseURL, "postgres://") || strings.HasPrefix(cfg.DatabaseURL, "postgresql://") {
		return fmt.Errorf("restore: the database is PostgreSQL: restore it with pg_restore (see README)")
	}
	dbPath := strings.TrimPrefix(strings.TrimPrefix(cfg.DatabaseURL, "sqlite://"), "file:")
	if i := strings.IndexByte(dbPath, '?'); i >= 0 {
		dbPath = dbPath[:i]
	}
	m, err := backup.Restore(dir, dbPath, localBlobDir(cfg), force)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	fmt.Fprintf(stderr, "restore: the backup of %s is in place (%s)\n", m.CreatedAt.Format("2006-01-02T15:04:05Z"), dbPath)
	return nil
}

// localBlobDir is the blob folder of the data directory, or "" when blobs are in S3.
func localBlobDir(cfg config.Config) string {
	if cfg.BlobS3.Bucket != "" {
		return ""
	}
	return filepath.Join(cfg.DataDir, "blobs")
}
