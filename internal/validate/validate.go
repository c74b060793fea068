// Package validate checks input values against the API's documented limits, with messages
// that name the field and the limit.
package validate

import (
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"

	"docsd/internal/apperr"
)

// Length checks that s has between min and max characters (Unicode code points).
func Length(field, s string, min, max int) error {
	n := utf8.RuneCountInString(s)
	if n < min || n > max {
		if min == 0 {
			return apperr.Invalidf("%s: must be at most %d characters (got %d)", field, max, n)
		}
		if min == max {
			return apperr.Invalidf("%s: must be exactly %d characters (got %d)", field, min, n)
		}
		return apperr.Invalidf("%s: must be %d to %d characters (got %d)", field, min, max, n)
	}
	return nil
}

// OneOf checks that s is one of the allowed values.
func OneOf(field, s string, allowed ...string) error {
	for _, a := range allowed {
		if s == a {
			return nil
		}
	}
	return apperr.Invalidf("%s: must be one of %s (got %q)", field, strings.Join(allowed, ", "), s)
}

// Pattern checks s against re; what describes the pattern for the message.
func Pattern(field, s string, re *regexp.Regexp) error {
	if !re.MatchString(s) {
		return apperr.Invalidf("%s: must match the pattern %s (got %q)", field, re.String(), s)
	}
	return nil
}

// HTTPURL checks that s is an absolute http or https URL of at most max characters.
func HTTPURL(field, s string, max int) error {
	if err := Length(field, s, 1, max); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return apperr.Invalidf("%s: must be an absolute http or https URL (got %q)", field, s)
	}
	return nil
}

// URI checks that s is an absolute URI (with a scheme, as JSON Schema's `uri` format asks) of
// at most max characters.
func URI(field, s string, max int) error {
	if err := Length(field, s, 1, max); err != nil {
		return err
	}
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" {
		return apperr.Invalidf("%s: must be an absolute URI (got %q)", field, s)
	}
	return nil
}

// Required reports a missing field.
func Required(field string) error { return apperr.Invalidf("%s: is required", field) }

// First returns the first non-nil error, so validations read as a list.
func First(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Text checks that s is text a database stores as it is: valid UTF-8 without NUL characters
// (PostgreSQL's text columns refuse both, SQLite would keep bytes no client can read back).
func Text(field, s string) error {
	if !utf8.ValidString(s) {
		return apperr.Invalidf("%s: must be valid UTF-8", field)
	}
	if strings.IndexByte(s, 0) >= 0 {
		return apperr.Invalidf("%s: must not contain NUL characters (U+0000)", field)
	}
	return nil
}

// IsText reports whether Text accepts s.
func IsText(s string) bool { return utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 }

// Query checks every name and value of a raw URL query with Text, naming the parameter. A
// query without escapes or bytes outside printable ASCII, nearly every one, is not decoded.
func Query(raw string) error {
	plain := true
	for i := 0; i < len(raw); i++ {
		if c := raw[i]; c == '%' || c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		return nil
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return apperr.Invalidf("query: %v", err)
	}
	for name, values := range q {
		if err := Text("query parameter name", name); err != nil {
			return err
		}
		for _, v := range values {
			if err := Text(name, v); err != nil {
				return err
			}
		}
	}
	return nil
}
