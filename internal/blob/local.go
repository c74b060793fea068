package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Local keeps blobs as files under one directory: <dir>/ab/cdef… for hash abcdef…, with
// uploads spooled in <dir>/tmp so that the final rename stays on one file system and is atomic.
type Local struct {
	dir string
}

// staleTemp is how old a spooled upload must be before NewLocal treats it as left behind by
// a crash; far longer than any upload takes, so a running process never loses one.
const staleTemp = 24 * time.Hour

// NewLocal opens (creating it if needed) a blob directory, and removes uploads that a crashed
// process left in its tmp folder.
func NewLocal(dir string) (*Local, error) {
	if dir == "" {
		return nil, errors.New("blob: local directory is empty")
	}
	l := &Local{dir: dir}
	if err := os.MkdirAll(l.tmpDir(), 0o755); err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	entries, err := os.ReadDir(l.tmpDir())
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	for _, e := range entries {
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleTemp {
			os.Remove(filepath.Join(l.tmpDir(), e.Name()))
		}
	}
	return l, nil
}

func (l *Local) tmpDir() string { return filepath.Join(l.dir, "tmp") }

func (l *Local) path(hash string) string {
	return filepath.Join(l.dir, filepath.FromSlash(keyOf(hash)))
}

// Put spools the upload, then renames it into place. When the blob already exists the
// spooled copy is dropped; when two processes race, each rename replaces identical bytes.
func (l *Local) Put(ctx context.Context, r io.Reader, maxBytes int64) (Ref, error) {
	f, ref, err := spool(ctx, l.tmpDir(), r, maxBytes)
	if err != nil {
		return Ref{}, err
	}
	placed := false
	defer func() {
		if !placed {
			discard(f)
		}
	}()
	final := l.path(ref.Hash)
	if info, err := os.Stat(final); err == nil && info.Size() == ref.Size {
		return ref, nil
	}
	if err := f.Chmod(0o644); err != nil {
		return Ref{}, fmt.Errorf("blob: %w", err)
	}
	if err := f.Close(); err != nil {
		return Ref{}, fmt.Errorf("blob: %w", err)
	}
	parent := filepath.Dir(final)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return Ref{}, fmt.Errorf("blob: %w", err)
	}
	if err := os.Rename(f.Name(), final); err != nil {
		return Ref{}, fmt.Errorf("blob: %w", err)
	}
	placed = true
	// The rename is durable only once the directory entry that records it is.
	if err := syncDir(parent); err != nil {
		return Ref{}, err
	}
	return ref, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("blob: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("blob: sync %s: %w", dir, err)
	}
	return nil
}

// Open returns the blob's file.
func (l *Local) Open(ctx context.Context, hash string) (*Object, error) {
	if err := checkHash(hash); err != nil {
		return nil, err
	}
	f, err := os.Open(l.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notFound(hash)
	}
	if err != nil {
		return nil, fmt.Errorf("blob: %w", err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("blob: %w", err)
	}
	return &Object{ReadSeekCloser: f, Ref: Ref{Hash: hash, Size: info.Size()}}, nil
}

// Stat returns the blob's size.
func (l *Local) Stat(ctx context.Context, hash string) (Ref, error) {
	if err := checkHash(hash); err != nil {
		return Ref{}, err
	}
	info, err := os.Stat(l.path(hash))
	if errors.Is(err, fs.ErrNotExist) {
		return Ref{}, notFound(hash)
	}
	if err != nil {
		return Ref{}, fmt.Errorf("blob: %w", err)
	}
	return Ref{Hash: hash, Size: info.Size()}, nil
}

// Delete removes the blob's file. Its folder stays: removing it could race with a Put that
// has just created it.
func (l *Local) Delete(ctx context.Context, hash string) error {
	if err := checkHash(hash); err != nil {
		return err
	}
	err := os.Remove(l.path(hash))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("blob: %w", err)
	}
	return nil
}

// Ping checks that a file can be created in the directory.
func (l *Local) Ping(ctx context.Context) error {
	f, err := os.CreateTemp(l.tmpDir(), "ping-*")
	if err != nil {
		return fmt.Errorf("blob: directory not writable: %w", err)
	}
	f.Close()
	return os.Remove(f.Name())
}

// String names the store in logs.
func (l *Local) String() string {
	return "local:" + strings.TrimRight(l.dir, string(filepath.Separator))
}
