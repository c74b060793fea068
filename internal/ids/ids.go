// Package ids makes opaque random identifiers and secrets.
package ids

import (
	"crypto/rand"
	"math/big"
)

const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// Random returns n base62 characters drawn from crypto/rand.
func Random(n int) string {
	b := make([]byte, n)
	// Reject bytes >= 248 so every character is equally likely (248 = 4*62).
	buf := make([]byte, n+n/2+8)
	i := 0
	for i < n {
		if _, err := rand.Read(buf); err != nil {
			panic("ids: crypto/rand failed: " + err.Error())
		}
		for _, c := range buf {
			if c >= 248 {
				continue
			}
			b[i] = alphabet[int(c)%62]
			i++
			if i == n {
				break
			}
		}
	}
	return string(b)
}

// New returns a 20-character identifier (about 119 bits of randomness).
func New() string { return Random(20) }

// Secret returns a 40-character secret (about 238 bits), for tokens and share keys.
func Secret() string { return Random(40) }

// RandomInt returns a uniform integer in [0, n).
func RandomInt(n int64) int64 {
	v, err := rand.Int(rand.Reader, big.NewInt(n))
	if err != nil {
		panic("ids: crypto/rand failed: " + err.Error())
	}
	return v.Int64()
}

// MaxLen is the longest id the API hands out (Secret's 40 characters) with room to spare.
const MaxLen = 64

// Valid reports whether s could name something in the API: 1 to MaxLen characters of the
// alphabet above. Every id the server makes (New, Secret, ids derived from digests, change
// request numbers) is such a string, so anything else names nothing and needs no lookup.
func Valid(s string) bool {
	if len(s) == 0 || len(s) > MaxLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return false
		}
	}
	return true
}
