// Package backup copies a SQLite-backed docsd (its database and its local blob folder) to a
// directory while it serves, and restores such a copy into a data directory
// (docsd admin backup and restore). PostgreSQL is backed up with its own tools.
package backup

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"docsd/internal/store"
)

// A backup directory holds these.
const (
	dbName       = "docsd.db"
	blobsName    = "blobs"
	manifestName = "backup.json" // written last: a directory without it is not a whole backup
)

// Manifest describes a backup.
type Manifest struct {
	CreatedAt time.Time `json:"createdAt"`
	Database  int64     `json:"databaseBytes"`
	Blobs     int       `json:"blobs"`
	BlobBytes int64     `json:"blobBytes"`
	// BlobsElsewhere is set when the blobs live in an S3-compatible bucket, which this backup
	// does not hold: the bucket is backed up by the store's own means (versioning, replication).
	BlobsElsewhere bool `json:"blobsElsewhere,omitempty"`
	// Skipped lists blobs that were not copied because their bytes no longer match their hash.
	Skipped []string `json:"skipped,omitempty"`
}

// Create writes a backup of db and of the local blob folder blobDir ("" when blobs are in
// S3) to dir, which must be absent or empty. The database is copied first, as one snapshot;
// the blobs after it: a blob is stored before the transaction that names it commits, and is
// never changed, so every blob the snapshot names is there to copy.
func Create(ctx context.Context, db *store.DB, blobDir, dir string, now time.Time) (Manifest, error) {
	m := Manifest{CreatedAt: now.UTC(), BlobsElsewhere: blobDir == ""}
	if err := emptyDir(dir); err != nil {
		return m, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return m, err
	}
	dbPath := filepath.Join(dir, dbName)
	if err := db.CopySQLite(ctx, dbPath); err != nil {
		return m, fmt.Errorf("copy the database: %w", err)
	}
	if err := syncFile(dbPath); err != nil {
		return m, err
	}
	if info, err := os.Stat(dbPath); err == nil {
		m.Database = info.Size()
	}
	if blobDir != "" {
		if err := copyBlobs(ctx, blobDir, filepath.Join(dir, blobsName), &m); err != nil {
			return m, fmt.Errorf("copy the blobs: %w", err)
		}
	}
	return m, writeManifest(dir, m)
}

// copyBlobs copies every blob file of src (ab/cdef… for hash abcdef…) to dst, checking each
// against its name as it reads it: a blob whose bytes changed is left out and listed.
func copyBlobs(ctx context.Context, src, dst string, m *Manifest) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.IsDir() {
			if rel == "tmp" { // uploads being spooled: not blobs yet
				return filepath.SkipDir
			}
			return nil
		}
		hash := strings.ReplaceAll(filepath.ToSlash(rel), "/", "")
		sum, n, err := copyFile(path, filepath.Join(dst, rel))
		if err != nil {
			return err
		}
		if sum != hash {
			os.Remove(filepath.Join(dst, rel))
			m.Skipped = append(m.Skipped, hash)
			return nil
		}
		m.Blobs++
		m.BlobBytes += n
		return nil
	})
}

// Restore copies the backup in dir into a data directory: its database to dbPath and its
// blobs to blobDir ("" to leave blobs alone, when they live in S3). It refuses a data
// directory that already holds a database or blobs unless force is set, in which case those
// are replaced. docsd must not be running on the data directory.
func Restore(dir, dbPath, blobDir string, force bool) (Manifest, error) {
	var m Manifest
	b, err := os.ReadFile(filepath.Join(dir, manifestName))
	if err != nil {
		return m, fmt.Errorf("%s is not a docsd backup (no %s): %w", dir, manifestName, err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%s: %w", manifestName, err)
	}
	targets := []string{dbPath, dbPath + "-wal", dbPath + "-shm"}
	var present []string
	for _, p := range targets {
		if _, err := os.Stat(p); err == nil {
			present = append(present, p)
		}
	}
	if blobDir != "" {
		if err := emptyDir(blobDir); err != nil {
			present = append(present, blobDir)
		}
	}
	if len(present) > 0 && !force {
		return m, fmt.Errorf("the data directory is not empty (%s): stop docsd and pass --force to replace it", strings.Join(present, ", "))
	}
	for _, p := range targets {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return m, err
		}
	}
	if err := os.MkdirAll(filepath.Dir(dbPath), 0o755); err != nil {
		return m, err
	}
	if _, _, err := copyFile(filepath.Join(dir, dbName), dbPath); err != nil {
		return m, fmt.Errorf("restore the database: %w", err)
	}
	if blobDir != "" && !m.BlobsElsewhere {
		if err := os.RemoveAll(blobDir); err != nil {
			return m, err
		}
		var copied Manifest
		if err := copyBlobs(context.Background(), filepath.Join(dir, blobsName), blobDir, &copied); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return m, fmt.Errorf("restore the blobs: %w", err)
		}
		if len(copied.Skipped) > 0 {
			return m, fmt.Errorf("restore the blobs: %d in the backup no longer match their hash (%s…)", len(copied.Skipped), copied.Skipped[0])
		}
	}
	return m, nil
}

// emptyDir returns nil when dir is absent or empty, and an error saying so otherwise.
func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	// An empty blob store keeps its spool folder: that is still empty.
	for _, e := range entries {
		if e.Name() == "tmp" && e.IsDir() {
			if sub, err := os.ReadDir(filepath.Join(dir, e.Name())); err == nil && len(sub) == 0 {
				continue
			}
		}
		return fmt.Errorf("%s is not empty", dir)
	}
	return nil
}

// copyFile copies src to dst through a temporary file renamed into place once synced, and
// returns the sha256 of the bytes copied and their count.
func copyFile(src, dst string) (string, int64, error) {
	in, err := os.Open(src)
	if err != nil {
		return "", 0, err
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return "", 0, err
	}
	out, err := os.CreateTemp(filepath.Dir(dst), ".restore-*")
	if err != nil {
		return "", 0, err
	}
	defer os.Remove(out.Name()) // after the rename, removes nothing
	sum := sha256.New()
	n, err := io.Copy(io.MultiWriter(out, sum), in)
	if err == nil {
		err = out.Sync()
	}
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(out.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(out.Name(), dst)
	}
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(sum.Sum(nil)), n, nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}

// writeManifest writes backup.json last, synced, so that its presence means the rest is there.
func writeManifest(dir string, m Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, manifestName)
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return err
	}
	if err := syncFile(path); err != nil {
		return err
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
