// Package blob keeps file bytes, addressed by the sha256 of their content, either in a local
// directory (the default, beside SQLite in the data directory) or in any S3-compatible store,
// so that several docsd processes can share them.
//
// A blob never changes once written: Put of bytes that are already stored is a no-op that
// answers the same Ref, which is also what makes concurrent uploads of one file safe.
// Deciding when a blob is no longer referenced is the caller's business.
package blob

import (
	"context"
	"errors"
	"fmt"
	"io"

	"docsd/internal/apperr"
)

// Ref names a stored blob: the lowercase hex sha256 of its bytes, and their count.
type Ref struct {
	Hash string
	Size int64
}

// Object is an open blob. It seeks, so http.ServeContent can answer range requests from it;
// the caller closes it.
type Object struct {
	io.ReadSeekCloser
	Ref
}

// Store is where blobs live. Every method is safe for concurrent use, also by several
// processes sharing the same directory or bucket.
type Store interface {
	// Put stores the bytes read from r, at most maxBytes of them (maxBytes must be positive).
	// Reading more fails with an error matching ErrTooLarge (an apperr.TooLarge, 413) and
	// stores nothing. Storing bytes that are already there succeeds with the same Ref.
	Put(ctx context.Context, r io.Reader, maxBytes int64) (Ref, error)
	// Open returns the blob's bytes, or an error matching ErrNotFound (an apperr.NotFound).
	Open(ctx context.Context, hash string) (*Object, error)
	// Stat returns the blob's Ref, or an error matching ErrNotFound.
	Stat(ctx context.Context, hash string) (Ref, error)
	// Delete removes the blob; deleting an absent blob succeeds.
	Delete(ctx context.Context, hash string) error
	// Ping reports whether the store can be reached and written, for readiness checks.
	Ping(ctx context.Context) error
}

// Sentinel errors, matched with errors.Is. The errors the stores return also carry an
// *apperr.Error, so a handler may return them as they are.
var (
	ErrNotFound    = errors.New("blob: not found")
	ErrTooLarge    = errors.New("blob: too large")
	ErrInvalidHash = errors.New("blob: invalid hash")
)

func notFound(hash string) error {
	return fmt.Errorf("%w: %w", ErrNotFound, apperr.NotFoundf("file %s not found", hash))
}

func tooLarge(maxBytes int64) error {
	return fmt.Errorf("%w: %w", ErrTooLarge, apperr.New(apperr.TooLarge, "file: must be at most %d bytes", maxBytes))
}

// checkHash refuses anything but 64 lowercase hex digits, which also keeps a hash from
// naming a path or key outside the store.
func checkHash(hash string) error {
	if ValidHash(hash) {
		return nil
	}
	return fmt.Errorf("%w: %w", ErrInvalidHash, apperr.Invalidf("hash: must be 64 lowercase hexadecimal characters"))
}

// ValidHash reports whether hash has the form of a blob hash.
func ValidHash(hash string) bool {
	if len(hash) != 64 {
		return false
	}
	for i := 0; i < len(hash); i++ {
		c := hash[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// keyOf spreads blobs over 256 folders by their first two hex digits, so that no single
// directory (or S3 listing) grows with the whole store.
func keyOf(hash string) string { return hash[:2] + "/" + hash[2:] }
