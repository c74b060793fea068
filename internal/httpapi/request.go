package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"docsd/internal/apperr"
)

// decode reads a JSON request body into v, strictly: unknown fields, trailing data, wrong
// types and malformed JSON are 400s that name the problem. An empty body decodes as {}.
func decode(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return apperr.New(apperr.Invalid, "Content-Type: must be application/json (got %q)", ct)
		}
	}
	// Read whole (within the route's cap) so that its text can be checked first: the decoder
	// would turn invalid UTF-8 into U+FFFD without a word.
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var maxErr *http.MaxBytesError
		if errors.As(err, &maxErr) {
			return err
		}
		return apperr.Invalidf("request body: %v", err)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		body = []byte("{}")
	}
	if err := checkJSONText(body); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			// An empty body (or only whitespace) means {}.
			return json.Unmarshal([]byte("{}"), v)
		}
		return jsonError(err)
	}
	if dec.More() {
		return apperr.Invalidf("request body: unexpected data after the JSON value")
	}
	return nil
}

// embeddedPrefix matches the Go type names of embedded body structs (newer_fields.go names
// them newer...), which encoding/json puts in a field's path but the caller never wrote.
var embeddedPrefix = regexp.MustCompile(`(^|\.)newer[A-Za-z]*\.`)

// jsonError turns a decoding error into a message naming the field.
func jsonError(err error) error {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		return apperr.Invalidf("request body: invalid JSON at offset %d: %v", syntax.Offset, syntax)
	case errors.As(err, &typeErr):
		field := embeddedPrefix.ReplaceAllString(typeErr.Field, "$1")
		if field == "" {
			return apperr.Invalidf("request body: must be %s (got %s)", jsonKind(typeErr.Type), typeErr.Value)
		}
		return apperr.Invalidf("%s: must be %s (got %s)", field, jsonKind(typeErr.Type), typeErr.Value)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return apperr.Invalidf("request body: not received in time (a JSON body must arrive within %v)", smallBodyTimeout)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return apperr.Invalidf("request body: invalid JSON: unexpected end of input")
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		return apperr.Invalidf("%s: unknown field", strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`))
	}
	if _, ok := apperr.As(err); ok {
		return err
	}
	var maxErr *http.MaxBytesError
	if errors.As(err, &maxErr) {
		return err
	}
	return apperr.Invalidf("request body: %v", err)
}

// jsonKind names a Go type the way a JSON client thinks of it, with its article.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a value"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct && t.NumField() == 3 && t.Field(2).Name == "Value" {
		// opt.Field[T]: name the inner type.
		return jsonKind(t.Field(2).Type)
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a value"
}

// queryBool reads an optional boolean query parameter.
func queryBool(r *http.Request, name string) (*bool, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return nil, nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return nil, apperr.Invalidf("%s: must be true or false (got %q)", name, s)
	}
	return &b, nil
}

// queryEnum reads an optional query parameter restricted to allowed values; def when absent.
func queryEnum(r *http.Request, name, def string, allowed ...string) (string, error) {
	s := r.URL.Query().Get(name)
	if s == "" {
		return def, nil
	}
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", apperr.Invalidf("%s: must be one of %s (got %q)", name, strings.Join(allowed, ", "), s)
}

// queryString reads an optional string query parameter of at most max characters.
func queryString(r *http.Request, name string, max int) (string, error) {
	s := r.URL.Query().Get(name)
	if len([]rune(s)) > max {
		return "", apperr.Invalidf("%s: must be at most %d characters", name, max)
	}
	return s, nil
}

// queryList reads a repeatable query parameter (`a=1&a=2`, `a[]=1`, or `a=1,2`).
func queryList(r *http.Request, name string) []string {
	q := r.URL.Query()
	var out []string
	for _, key := range []string{name, name + "[]"} {
		for _, v := range q[key] {
			for _, part := range strings.Split(v, ",") {
				if part = strings.TrimSpace(part); part != "" {
					out = append(out, part)
				}
			}
		}
	}
	return out
}
