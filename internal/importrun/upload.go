package importrun

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"docsd/internal/apperr"
)

// Upload kinds, as the API spells them.
const (
	UploadImportFile = "import_file"
	UploadFont       = "customization_font"
)

// Upload limits.
const (
	UploadTTL       = time.Hour
	UploadMaxBytes  = 100 << 20
	UploadNameMax   = 255
	UploadTypeMax   = 255
	UploadKeyMax    = 512 // the API's StorageFileKey
	SourceFilesMax  = 50  // the API's maxItems of a file source
	SourceURLMax    = 2048
	importFilesNote = "a .zip or .tar(.gz) of a markdown tree, .md, .markdown, .html, .htm or .docx"
)

// Upload is a slot for one file, made with its signed URL and filled by one PUT.
type Upload struct {
	ID          string
	OrgID       string
	Key         string // the object key the API hands out
	Kind        string
	Name        string
	ContentType string
	Size        int64 // the announced size: the most bytes the PUT may carry
	CreatedBy   string
	CreatedAt   time.Time
	ExpiresAt   time.Time
	UploadedAt  *time.Time
	BlobHash    string // the bytes in the blob store, when docsd took them itself
}

// UploadRequest is the body of generateStorageUploadURL.
type UploadRequest struct {
	Name string
	Type string
	Size float64
	Kind string
}

// Validate checks the request's fields, naming each and its limit.
func (r UploadRequest) Validate() error {
	switch {
	case r.Kind != UploadImportFile && r.Kind != UploadFont:
		return apperr.Invalidf("kind: must be %s or %s (got %q)", UploadImportFile, UploadFont, r.Kind)
	case strings.TrimSpace(r.Name) == "" || len(r.Name) > UploadNameMax:
		return apperr.Invalidf("file.name: must be 1 to %d characters", UploadNameMax)
	case strings.ContainsAny(r.Name, "/\\\x00"):
		return apperr.Invalidf("file.name: must be a file name, without / or \\")
	case r.Type == "" || len(r.Type) > UploadTypeMax:
		return apperr.Invalidf("file.type: must be a MIME type of 1 to %d characters", UploadTypeMax)
	case r.Size != float64(int64(r.Size)) || r.Size < 1 || r.Size > UploadMaxBytes:
		return apperr.Invalidf("file.size: must be a whole number of bytes from 1 to %d (got %v)", UploadMaxBytes, r.Size)
	}
	if r.Kind == UploadImportFile {
		if _, err := fileFormat(r.Name); err != nil {
			return apperr.Invalidf("file.name: %v", err)
		}
	}
	return nil
}

// objectKey is the key of an upload: under the organization and the upload's id, so that it
// is unique and says whose it is; the file's name is kept for the import to know its format.
func objectKey(orgID, kind, id, name string) string {
	return path.Join("uploads", orgID, kind, id, name)
}

// Token signs an upload slot's id and expiry: the embedded store's upload URL carries it,
// so only URLs this server made are accepted, and only until they expire.
func Token(secret []byte, id string, expires time.Time) string {
	payload := id + "." + strconv.FormatInt(expires.Unix(), 10)
	return payload + "." + sign(secret, payload)
}

func sign(secret []byte, payload string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("docsd-upload\x00" + payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// CheckToken returns the upload id a token names: 403 when it is not signed by this server
// or has expired at now.
func CheckToken(secret []byte, token string, now time.Time) (string, error) {
	parts := strings.Split(token, ".")
	if len(parts) != 3 || !hmac.Equal([]byte(sign(secret, parts[0]+"."+parts[1])), []byte(parts[2])) {
		return "", apperr.Forbiddenf("upload URL: the signature does not match (the URL must be used as generateStorageUploadURL gave it)")
	}
	exp, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return "", apperr.Forbiddenf("upload URL: malformed expiry")
	}
	if now.Unix() >= exp {
		return "", apperr.Forbiddenf("upload URL: expired at %s (upload URLs are valid for %s)", time.Unix(exp, 0).UTC().Format(time.RFC3339), UploadTTL)
	}
	return parts[0], nil
}

// File formats a file source reads.
const (
	formatZip      = "zip"
	formatTar      = "tar"
	formatMarkdown = "markdown"
	formatHTML     = "html"
	formatDocx     = "docx"
)

// fileFormat tells a file's format by its name.
func fileFormat(name string) (string, error) {
	n := strings.ToLower(name)
	switch {
	case strings.HasSuffix(n, ".zip"):
		return formatZip, nil
	case strings.HasSuffix(n, ".tar"), strings.HasSuffix(n, ".tar.gz"), strings.HasSuffix(n, ".tgz"):
		return formatTar, nil
	case strings.HasSuffix(n, ".md"), strings.HasSuffix(n, ".markdown"):
		return formatMarkdown, nil
	case strings.HasSuffix(n, ".html"), strings.HasSuffix(n, ".htm"):
		return formatHTML, nil
	case strings.HasSuffix(n, ".docx"):
		return formatDocx, nil
	}
	return "", fmt.Errorf("%q: must be %s", name, importFilesNote)
}
