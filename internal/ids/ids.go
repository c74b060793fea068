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
