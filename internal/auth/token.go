package auth

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"docsd/internal/ids"
)

// TokenPrefix marks docsd API tokens, so that a leaked one is recognisable by scanners.
const TokenPrefix = "dsd_"

// NewToken returns a fresh API token. Only its hash is ever stored.
func NewToken() string { return TokenPrefix + ids.Secret() }

// HashToken is the stored form of a token. Tokens are long random strings, so a fast hash
// is enough: there is nothing to brute-force.
func HashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// BearerToken extracts the token of an `Authorization: Bearer <token>` header value.
func BearerToken(header string) (string, bool) {
	const prefix = "bearer "
	if len(header) <= len(prefix) || !strings.EqualFold(header[:len(prefix)], prefix) {
		return "", false
	}
	tok := strings.TrimSpace(header[len(prefix):])
	return tok, tok != ""
}
