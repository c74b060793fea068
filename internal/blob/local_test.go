package blob_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"docsd/internal/blob"
	"docsd/internal/config"
)

func newLocal(t *testing.T, dir string) *blob.Local {
	t.Helper()
	l, err := blob.NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestLocalConformance(t *testing.T) {
	t.Parallel()
	testConformance(t, func(t *testing.T) blob.Store { return newLocal(t, t.TempDir()) })
}

func TestLocalLayout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s := newLocal(t, dir)
	data := []byte("laid out by hash")
	ref := mustPut(t, s, data)
	mustPut(t, s, data)
	s.Put(context.Background(), bytes.NewReader(make([]byte, 100)), 10) // refused: leaves nothing

	got, err := os.ReadFile(filepath.Join(dir, ref.Hash[:2], ref.Hash[2:]))
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("file at <dir>/%s/%s: %q, %v", ref.Hash[:2], ref.Hash[2:], got, err)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(left) != 0 {
		t.Fatalf("tmp holds %d leftover files", len(left))
	}
}

func TestLocalSweepsStaleUploads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	newLocal(t, dir)
	stale, fresh := filepath.Join(dir, "tmp", "put-stale"), filepath.Join(dir, "tmp", "put-fresh")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("half an upload"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-25 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	newLocal(t, dir)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Fatalf("stale upload kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Fatalf("fresh upload removed: %v", err)
	}
}

func TestLocalShareDirectory(t *testing.T) {
	t.Parallel()
	// Two stores on one directory, as two processes would be: each sees the other's writes.
	dir := t.TempDir()
	a, b := newLocal(t, dir), newLocal(t, dir)
	ref := mustPut(t, a, []byte("shared"))
	if string(mustRead(t, b, ref.Hash)) != "shared" {
		t.Fatal("second store does not see the first's blob")
	}
}

func TestFromConfigDefaultsToDataDir(t *testing.T) {
	t.Parallel()
	cfg := config.Defaults()
	cfg.DataDir = t.TempDir()
	s, err := blob.FromConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*blob.Local); !ok {
		t.Fatalf("store is %T, want *blob.Local", s)
	}
	ref := mustPut(t, s, []byte("in the data dir"))
	if _, err := os.Stat(filepath.Join(cfg.DataDir, "blobs", ref.Hash[:2], ref.Hash[2:])); err != nil {
		t.Fatal(err)
	}
}
