package gitsync

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
)

// sealer encrypts the repository URL an export was given (it may carry credentials) for the
// time its job runs: the database holds it only encrypted, with a key kept in the server
// settings, and the export clears it once the job is over.
type sealer struct{ aead cipher.AEAD }

func newSealer(secret string) sealer {
	key := sha256.Sum256([]byte("docsd-git-export\x00" + secret))
	block, _ := aes.NewCipher(key[:]) // a 32-byte key is always valid
	aead, _ := cipher.NewGCM(block)
	return sealer{aead: aead}
}

func (s sealer) seal(plain string) string {
	nonce := make([]byte, s.aead.NonceSize())
	_, _ = rand.Read(nonce)
	return base64.RawStdEncoding.EncodeToString(s.aead.Seal(nonce, nonce, []byte(plain), nil))
}

func (s sealer) open(sealed string) (string, error) {
	b, err := base64.RawStdEncoding.DecodeString(sealed)
	if err != nil || len(b) < s.aead.NonceSize() {
		return "", errors.New("gitsync: sealed URL is malformed")
	}
	plain, err := s.aead.Open(nil, b[:s.aead.NonceSize()], b[s.aead.NonceSize():], nil)
	return string(plain), err
}
