package jsrun

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
)

// EventRequest builds the request @gitbook/runtime's dispatcher expects for an event: a POST to
// "<base>/v1" (the runtime refuses other versions in production) with a multipart/form-data
// body of the fields "event" and "environment" (JSON), plus "fetch-body" for a fetch event
// (the body of the HTTP request the event stands for; nil for none).
func EventRequest(base string, event, environment any, fetchBody []byte) (Request, error) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range []struct {
		name  string
		value any
	}{{"event", event}, {"environment", environment}} {
		b, err := json.Marshal(f.value)
		if err != nil {
			return Request{}, fmt.Errorf("jsrun: the %s does not encode: %w", f.name, err)
		}
		if err := w.WriteField(f.name, string(b)); err != nil {
			return Request{}, err
		}
	}
	if fetchBody != nil {
		if err := w.WriteField("fetch-body", string(fetchBody)); err != nil {
			return Request{}, err
		}
	}
	if err := w.Close(); err != nil {
		return Request{}, err
	}
	h := http.Header{}
	h.Set("Content-Type", w.FormDataContentType())
	return Request{Method: http.MethodPost, URL: base + "/v1", Headers: h, Body: buf.Bytes()}, nil
}
