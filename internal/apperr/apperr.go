// Package apperr is the one error type the application returns to callers: a fixed set of
// codes, each rendered with one HTTP status, plus a message that is safe to show.
package apperr

import (
	"errors"
	"fmt"
	"net/http"
)

// Code classifies an application error. The HTTP layer maps each code to one status.
type Code string

const (
	Invalid            Code = "invalid"             // 400: malformed or out-of-range input
	Unauthorized       Code = "unauthorized"        // 401: missing or unknown credentials
	Forbidden          Code = "forbidden"           // 403: visible, but the action is not allowed
	NotFound           Code = "not_found"           // 404: absent, or not visible to the caller
	MethodNotAllowed   Code = "method_not_allowed"  // 405
	Conflict           Code = "conflict"            // 409: the current state refuses the change
	PreconditionFailed Code = "precondition_failed" // 412
	TooLarge           Code = "too_large"           // 413
	Locked             Code = "locked"              // 409: the resource refuses edits (locked space); the public spec declares no 423
	TooManyRequests    Code = "too_many_requests"   // 429
	Internal           Code = "internal"            // 500: never carries details to the client
	BadGateway         Code = "bad_gateway"         // 502: a remote server the request needed failed
	Unavailable        Code = "unavailable"         // 503
)

var statuses = map[Code]int{
	Invalid:            http.StatusBadRequest,
	Unauthorized:       http.StatusUnauthorized,
	Forbidden:          http.StatusForbidden,
	NotFound:           http.StatusNotFound,
	MethodNotAllowed:   http.StatusMethodNotAllowed,
	Conflict:           http.StatusConflict,
	PreconditionFailed: http.StatusPreconditionFailed,
	TooLarge:           http.StatusRequestEntityTooLarge,
	Locked:             http.StatusConflict,
	TooManyRequests:    http.StatusTooManyRequests,
	Internal:           http.StatusInternalServerError,
	BadGateway:         http.StatusBadGateway,
	Unavailable:        http.StatusServiceUnavailable,
}

// Error is an error with a code and a client-safe message.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Status is the HTTP status that renders this error.
func (e *Error) Status() int {
	if s, ok := statuses[e.Code]; ok {
		return s
	}
	return http.StatusInternalServerError
}

// New makes an error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalidf reports bad input. Messages name the field, e.g. `title: must be 2 to 255 characters`.
func Invalidf(format string, args ...any) *Error { return New(Invalid, format, args...) }

// NotFoundf reports a resource that does not exist or that the caller may not see.
func NotFoundf(format string, args ...any) *Error { return New(NotFound, format, args...) }

// Forbiddenf reports an action the caller may not take on a resource they can see.
func Forbiddenf(format string, args ...any) *Error { return New(Forbidden, format, args...) }

// Conflictf reports a change that the current state refuses.
func Conflictf(format string, args ...any) *Error { return New(Conflict, format, args...) }

// As extracts an *Error from err's chain.
func As(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return nil, false
}

// CodeOf returns err's code, or Internal for errors that carry none.
func CodeOf(err error) Code {
	if e, ok := As(err); ok {
		return e.Code
	}
	return Internal
}

// Is reports whether err carries the given code.
func Is(err error, code Code) bool { return err != nil && CodeOf(err) == code }
