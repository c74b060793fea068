package jsrun

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
)

// parseMultipart backs Request/Response formData() for multipart bodies (how the runtime
// receives events): a list of fields, files with their name and type.
func parseMultipart(contentType string, body []byte) (any, error) {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return nil, fmt.Errorf("the body is not multipart/form-data with a boundary")
	}
	r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	type field struct {
		Name     string  `json:"name"`
		Value    string  `json:"value"`
		Filename *string `json:"filename,omitempty"`
		Type     string  `json:"type,omitempty"`
	}
	var fields []field
	for {
		p, err := r.NextRawPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the multipart body does not parse: %v", err)
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, fmt.Errorf("the multipart body does not parse: %v", err)
		}
		f := field{Name: p.FormName()}
		if _, dp, err := mime.ParseMediaType(p.Header.Get("Content-Disposition")); err == nil {
			if fn, ok := dp["filename"]; ok {
				f.Filename = &fn
				f.Type = p.Header.Get("Content-Type")
			}
		}
		if f.Filename != nil {
			f.Value = toBinary(data)
		} else {
			f.Value = string(data)
		}
		fields = append(fields, f)
	}
	out, err := json.Marshal(fields)
	return string(out), err
}
