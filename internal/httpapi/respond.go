package httpapi

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"docsd/internal/apperr"
	"docsd/internal/wire"
)

// writeJSON renders v with status.
func writeJSON(w http.ResponseWriter, status int, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return writeLine(w, status, append(b, '\n'))
}

// writeEncoded answers body, JSON already encoded compact by our own encoder: json.Marshal
// would only check and compact it again.
func writeEncoded(w http.ResponseWriter, status int, body []byte) error {
	line := make([]byte, len(body)+1)
	copy(line, body)
	line[len(body)] = '\n'
	return writeLine(w, status, line)
}

// writeLine answers line, a JSON value and its closing newline, with its length and in one
// write: an answer larger than net/http's buffers sent chunked, or in two writes, took a
// system call more (a third of the CPU of sending it).
func writeLine(w http.ResponseWriter, status int, line []byte) error {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(len(line)))
	w.WriteHeader(status)
	if _, err := w.Write(line); err != nil {
		return errResponseWritten
	}
	return nil
}

// okWithDocument answers page 200 with doc, a document's encoded JSON, as its "document"
// field, spliced into the encoded page rather than re-checked by json.Marshal (a page's
// document is most of its bytes).
func okWithDocument(w http.ResponseWriter, page wire.Page, doc []byte) error {
	page.Document = nil
	b, err := json.Marshal(page)
	if err != nil {
		return err
	}
	out := make([]byte, 0, len(b)+len(doc)+len(`,"document":`)+2)
	out = append(out, b[:len(b)-1]...) // an object: drop its closing brace
	if len(b) > 2 {
		out = append(out, ',')
	}
	out = append(out, `"document":`...)
	out = append(out, doc...)
	out = append(out, "}\n"...)
	return writeLine(w, http.StatusOK, out)
}

// errResponseWritten tells the error renderer that the response is already under way.
var errResponseWritten = errors.New("response already written")

// ok answers 200 with v.
func ok(w http.ResponseWriter, v any) error { return writeJSON(w, http.StatusOK, v) }

// created answers 201 with v and a Location header.
func created(w http.ResponseWriter, location string, v any) error {
	if location != "" {
		w.Header().Set("Location", location)
	}
	return writeJSON(w, http.StatusCreated, v)
}

// noContent answers 204.
func noContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

type errorBody struct {
	Error errorDetail `json:"error"`
}

type errorDetail struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// writeError renders err as the API's error body. Application errors show their message;
// anything else is logged with the request id and shown as a bare 500.
func writeError(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	if errors.Is(err, errResponseWritten) {
		return
	}
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		err = apperr.New(apperr.TooLarge, "request body: must be at most %d bytes", maxErr.Limit)
	}
	e, isApp := apperr.As(err)
	if !isApp || e.Code == apperr.Internal {
		log.ErrorContext(r.Context(), "request failed", "err", err, "requestId", requestID(r.Context()))
		e = apperr.New(apperr.Internal, "internal error (request id %s)", requestID(r.Context()))
	}
	status := e.Status()
	if rec, ok := w.(*statusRecorder); ok && rec.wroteHeader {
		return
	}
	retryAfter(w, status, 1)
	writeJSON(w, status, errorBody{Error: errorDetail{Code: status, Message: e.Message}})
}
