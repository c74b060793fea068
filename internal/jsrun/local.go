package jsrun

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"docsd/internal/fetch"
)

// localHandler serves a script's requests to docsd's own API in the process (Runner.WithLocal).
type localHandler struct {
	scheme, host, prefix string
	h                    http.Handler
}

// serves reports whether u is under the local base: same scheme and host, path at or below the
// prefix (so "https://api.test.evil" or "/v1x" never match "https://api.test/v1").
func (l *localHandler) serves(u *url.URL) bool {
	if l == nil || u.Scheme != l.scheme || strings.ToLower(u.Host) != l.host {
		return false
	}
	return l.prefix == "" || u.Path == l.prefix || strings.HasPrefix(u.Path, l.prefix+"/")
}

// do runs req through the handler, keeping at most max bytes of the answer.
func (l *localHandler) do(req *http.Request, max int64) (*http.Response, []byte, error) {
	req.RemoteAddr = "127.0.0.1:0"
	req.RequestURI = req.URL.RequestURI()
	if req.Body == nil {
		req.Body = http.NoBody
	}
	w := &recorder{header: http.Header{}, max: max}
	l.h.ServeHTTP(w, req)
	if w.status == 0 {
		w.status = http.StatusOK
	}
	if w.over {
		return nil, nil, fetch.NewError(fetch.ErrTooLarge, req.URL.Host, false, "the response is larger than the limit of %s", fetch.ByteSize(max))
	}
	res := &http.Response{StatusCode: w.status, Status: fmt.Sprintf("%d %s", w.status, http.StatusText(w.status)), Header: w.header, Request: req}
	return res, w.body.Bytes(), nil
}

// recorder is the http.ResponseWriter a local request is answered into, capped at max bytes.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
	max    int64
	over   bool
}

func (w *recorder) Header() http.Header { return w.header }

func (w *recorder) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *recorder) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if int64(w.body.Len()+len(p)) > w.max {
		w.over = true
		return 0, fmt.Errorf("the response is larger than the limit")
	}
	return w.body.Write(p)
}
