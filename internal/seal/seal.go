// Package seal encrypts small secrets kept in the database (AES-256-GCM), with a key derived
// from a server secret and a purpose, so that one secret never decrypts another purpose's data.
package seal

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// Sealer seals and opens values for one purpose.
type Sealer struct{ aead cipher.AEAD }

// New returns a sealer for purpose (e.g. "docsd-git-export") keyed by secret.
func New(purpose, secret string) Sealer {
	key := sha256.Sum256([]byte(purpose + "\x00" + secret))
	block, _ := aes.NewCipher(key[:]) // a 32-byte key is always valid
	aead, _ := cipher.NewGCM(block)
	return Sealer{aead: aead}
}

// Seal encrypts plain with a fresh random nonce.
func (s Sealer) Seal(plain string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawStdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plain), nil))
}

// Open decrypts what Seal returned; it fails for anything sealed with another key or purpose.
func (s Sealer) Open(sealed string) (string, error) {
	b, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", errors.New("seal: sealed value is malformed")
	}
	plain, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	if err != nil {
		return "", errors.New("seal: sealed value does not open with this key")
	}
	return string(plain), nil
}
