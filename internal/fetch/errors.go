package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
)

// The kinds of failure. Each *Error wraps exactly one kind, so callers test with errors.Is;
// packages built on this one add kinds of their own through NewError.
// The first three are the caller's doing (answer 400); the others are the remote side's (502).
var (
	ErrInvalidURL        = errors.New("invalid URL")
	ErrUnsupportedScheme = errors.New("unsupported URL scheme")
	ErrForbiddenAddress  = errors.New("forbidden address")

	ErrTooLarge         = errors.New("response too large")
	ErrTimeout          = errors.New("timed out")
	ErrTooManyRedirects = errors.New("too many redirects")
	ErrUnreachable      = errors.New("unreachable")
	ErrStatus           = errors.New("unexpected status")
)

// Error is a failed fetch: which host, which kind, and a message that names the rule or limit.
// Messages never carry the URL's path or credentials, only its host, so they are safe to show.
type Error struct {
	Kind       error  // one of the Err* values above, or a kind given to NewError
	Host       string // host[:port] of the URL that failed
	Message    string // what went wrong, e.g. "127.0.0.1 is a loopback address"
	StatusCode int    // the remote status, for ErrStatus
	Err        error  // the underlying cause, if any (for logs)

	callerFault bool
}

func (e *Error) Error() string {
	if e.Host == "" {
		return "fetch: " + e.Message
	}
	return "fetch " + e.Host + ": " + e.Message
}

// Unwrap exposes the kind (for errors.Is) and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// CallerFault reports whether the URL itself is at fault (a 400 for the API), rather than the
// remote server (a 502).
func (e *Error) CallerFault() bool { return e.callerFault }

func newError(kind error, host string, format string, args ...any) *Error {
	caller := kind == ErrInvalidURL || kind == ErrUnsupportedScheme || kind == ErrForbiddenAddress
	return NewError(kind, host, caller, format, args...)
}

// NewError lets packages built on this one (gitfetch) report failures of their own kinds in
// the same type, saying whether the caller's input is at fault.
func NewError(kind error, host string, callerFault bool, format string, args ...any) *Error {
	return &Error{Kind: kind, Host: host, Message: fmt.Sprintf(format, args...), callerFault: callerFault}
}

// Classify turns any error from a request to host into an *Error: one already made by this
// package is returned as is (however deeply it is wrapped), timeouts become ErrTimeout, and the
// rest ErrUnreachable; a cancelled context stays context.Canceled. Libraries that use
// HTTPClient directly (go-git) call it on what they get.
func (c *Client) Classify(host string, err error) error {
	if err == nil {
		return nil
	}
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()) {
		msg := fmt.Sprintf("no complete answer within %s", c.opts.Timeout)
		if c.opts.WaitTimeout < c.opts.Timeout {
			msg = fmt.Sprintf("no answer within %s, or no complete answer within %s", c.opts.WaitTimeout, c.opts.Timeout)
		}
		return &Error{Kind: ErrTimeout, Host: host, Message: msg, Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return err
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return &Error{Kind: ErrUnreachable, Host: host, Message: "the host name does not resolve", Err: err}
	}
	return &Error{Kind: ErrUnreachable, Host: host, Message: "the connection failed", Err: err}
}
