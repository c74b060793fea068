// Package pdfexport prints a change request's content as a PDF (with pdfrender). Asking for a
// PDF returns a link rather than the document: a token signed with a key kept in the
// database's server settings, so every docsd process sharing the database accepts the links
// any of them issued, and whoever holds the link may fetch the PDF until it expires, without
// an API token (as a presigned download URL works). The PDF is drawn when the link is
// fetched, from the revision the change request had when the link was made: revisions never
// change, so the same link always gives the same content.
package pdfexport

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"time"

	"docsd/internal/apperr"
)

// LinkLifetime is how long a link works, as the public API promises ("1h").
const LinkLifetime = time.Hour

// Ticket is what a link grants: one revision of a change request's content, all of it, one
// page with its subpages, or one page alone.
type Ticket struct {
	Space    string `json:"s"`
	Revision string `json:"r"`
	Page     string `json:"p,omitempty"` // "" for every page
	Only     bool   `json:"o,omitempty"` // Page alone, without its subpages
	Title    string `json:"t"`           // the document's title
	Expires  int64  `json:"e"`           // Unix seconds
}

// signer makes and checks tokens: base64url(JSON of the ticket) "." base64url(HMAC-SHA256).
type signer struct{ key []byte }

func (s signer) mac(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte("docsd-pdf-link\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

func (s signer) sign(t Ticket) string {
	b, _ := json.Marshal(t)
	payload := base64.RawURLEncoding.EncodeToString(b)
	return payload + "." + s.mac(payload)
}

// open checks a token's signature and expiry; a token that fails either is a 403, which
// names what is wrong but never what a valid token would be.
func (s signer) open(token string, now time.Time) (Ticket, error) {
	payload, sig, ok := strings.Cut(token, ".")
	if !ok || !hmac.Equal([]byte(sig), []byte(s.mac(payload))) {
		return Ticket{}, apperr.Forbiddenf("token: the link's signature does not match; ask for a new link")
	}
	var t Ticket
	b, err := base64.RawURLEncoding.DecodeString(payload)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil {
		return Ticket{}, apperr.Forbiddenf("token: the link is malformed; ask for a new link")
	}
	if now.Unix() >= t.Expires {
		return Ticket{}, apperr.Forbiddenf("token: the link expired at %s; ask for a new link", time.Unix(t.Expires, 0).UTC().Format(time.RFC3339))
	}
	return t, nil
}
