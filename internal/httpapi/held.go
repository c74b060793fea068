package httpapi

import (
	"bytes"
	"net/http"
)

// heldAnswer is a ResponseWriter that keeps a whole answer, headers included, until sendTo
// passes it on: for an answer that must not leave before a check running beside it succeeds.
type heldAnswer struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newHeldAnswer() *heldAnswer { return &heldAnswer{header: http.Header{}} }

func (a *heldAnswer) Header() http.Header { return a.header }

func (a *heldAnswer) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
}

func (a *heldAnswer) Write(b []byte) (int, error) {
	a.WriteHeader(http.StatusOK)
	return a.body.Write(b)
}

// sendTo writes the answer to w.
func (a *heldAnswer) sendTo(w http.ResponseWriter) {
	h := w.Header()
	for k, v := range a.header {
		h[k] = v
	}
	if a.status != 0 {
		w.WriteHeader(a.status)
	}
	w.Write(a.body.Bytes())
}
