// Package wire holds the JSON shapes of the GitBook-compatible API and the converters from
// domain values, so the API contract can be read in one place.
package wire

import (
	"net/url"
	"time"
)

// Time renders a time as ISO 8601 in UTC with milliseconds, as the API does everywhere.
type Time time.Time

func (t Time) MarshalJSON() ([]byte, error) {
	return []byte(`"` + time.Time(t).UTC().Format("2006-01-02T15:04:05.000Z") + `"`), nil
}

// TimePtr converts an optional time.
func TimePtr(t *time.Time) *Time {
	if t == nil {
		return nil
	}
	w := Time(*t)
	return &w
}

// List is the envelope of every list answer.
type List[T any] struct {
	Next  *Next `json:"next,omitempty"`
	Count int   `json:"count"`
	Items []T   `json:"items"`
}

// Next points at the following page.
type Next struct {
	Page string `json:"page"`
}

// URLs builds the absolute URLs of resources from the server's base URL. API locations live
// under /v1; app locations are where a person would open the resource in a browser.
type URLs struct{ Base string }

// API returns the absolute URL of an API path (given without /v1).
func (u URLs) API(path string) string { return u.Base + "/v1" + path }

// App returns the absolute URL of an app path.
func (u URLs) App(path string) string { return u.Base + "/app" + path }

// Esc escapes one path segment.
func Esc(s string) string { return url.PathEscape(s) }
