package sitepub

import (
	"errors"
	"time"

	"github.com/golang-jwt/jwt/v5"
)

// Reasons a visitor token is refused. The reader sees a login redirect or a 401 either way;
// the reason goes to the log and to the 401's message.
var (
	ErrNoToken      = errors.New("no visitor token")
	ErrTokenInvalid = errors.New("visitor token is not valid")
	ErrTokenExpired = errors.New("visitor token has expired")
	ErrNoSigningKey = errors.New("the site has no visitor signing key")
)

// maxTokenBytes bounds what is parsed: a token larger than any sensible claim set is refused
// before any decoding.
const maxTokenBytes = 8 << 10

// VerifyToken checks a visitor token signed with the site's key and returns its claims. Only
// HMAC-SHA256 is accepted (the key is a shared secret), which also refuses alg=none and a
// public key passed off as an HMAC secret; the token must carry an expiry, checked against
// now.
func VerifyToken(token string, key []byte, now time.Time) (map[string]any, error) {
	if token == "" {
		return nil, ErrNoToken
	}
	if len(key) == 0 {
		return nil, ErrNoSigningKey
	}
	if len(token) > maxTokenBytes {
		return nil, ErrTokenInvalid
	}
	claims := jwt.MapClaims{}
	_, err := jwt.ParseWithClaims(token, claims, func(*jwt.Token) (any, error) { return key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(func() time.Time { return now }),
	)
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, ErrTokenExpired
	case err != nil:
		return nil, ErrTokenInvalid
	}
	return claims, nil
}
