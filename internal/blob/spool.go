package blob

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
)

// spool copies r into a new temporary file in dir while hashing it, because a blob's name
// is known only once all of its bytes have been read. It refuses more than maxBytes. On
// success the file is synced, positioned at its start, and the caller owns (and removes) it;
// on failure nothing is left behind.
func spool(ctx context.Context, dir string, r io.Reader, maxBytes int64) (_ *os.File, _ Ref, err error) {
	if maxBytes <= 0 {
		return nil, Ref{}, fmt.Errorf("blob: maxBytes must be positive, got %d", maxBytes)
	}
	f, err := os.CreateTemp(dir, "put-*")
	if err != nil {
		return nil, Ref{}, fmt.Errorf("blob: temporary file: %w", err)
	}
	defer func() {
		if err != nil {
			discard(f)
		}
	}()
	h := sha256.New()
	// One byte beyond the limit tells "exactly maxBytes" from "more".
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(ctxReader{ctx, r}, maxBytes+1))
	if err != nil {
		return nil, Ref{}, fmt.Errorf("blob: reading upload: %w", err)
	}
	if n > maxBytes {
		return nil, Ref{}, tooLarge(maxBytes)
	}
	if err := f.Sync(); err != nil {
		return nil, Ref{}, fmt.Errorf("blob: sync: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, Ref{}, fmt.Errorf("blob: rewind: %w", err)
	}
	return f, Ref{Hash: hex.EncodeToString(h.Sum(nil)), Size: n}, nil
}

// discard closes and removes a spooled file.
func discard(f *os.File) {
	f.Close()
	os.Remove(f.Name())
}

// ctxReader stops a long copy once its request is cancelled, rather than spooling a client's
// whole body for nothing.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
