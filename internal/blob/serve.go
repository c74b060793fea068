package blob

import (
	"net/http"
	"time"
)

// Serve answers r with the blob's bytes through http.ServeContent, which handles HEAD, Range
// and If-None-Match. The ETag is the hash itself: a blob's bytes never change under it.
// Errors (ErrNotFound, ErrInvalidHash, or the store's) come before anything is written, so
// a handler can return them; contentType empty means application/octet-stream. The caller
// sets any Cache-Control or Content-Disposition before calling.
func Serve(w http.ResponseWriter, r *http.Request, s Store, hash, contentType string) error {
	obj, err := s.Open(r.Context(), hash)
	if err != nil {
		return err
	}
	defer obj.Close()
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	h := w.Header()
	h.Set("Content-Type", contentType) // set, so ServeContent does not sniff (a read and a seek)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("ETag", `"`+hash+`"`)
	http.ServeContent(w, r, "", time.Time{}, obj)
	return nil
}
