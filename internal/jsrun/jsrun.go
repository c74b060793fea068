// Package jsrun runs integration scripts: ES modules in the Cloudflare Workers shape
// (`export default { fetch(request, env, ctx) }`, what @gitbook/runtime's createIntegration
// returns) in an embedded JavaScript engine (QuickJS, pure Go), one fresh VM per invocation,
// under hard limits, with the web APIs such scripts use implemented over Go.
//
// The integrations code prepares a script once when it is published (Prepare, which refuses a
// script that does not parse and names the line) and then calls Runner.Invoke for each event,
// with the request EventRequest builds as @gitbook/runtime expects it.
//
// The web APIs are JavaScript (js/*.js) over a handful of Go operations (host.go): fetch
// through internal/fetch's address policy, Request, Response, Headers, FormData, Blob, File,
// URL, URLSearchParams, TextEncoder/TextDecoder, atob/btoa, timers, AbortController,
// structuredClone, crypto (getRandomValues, randomUUID, subtle for SHA digests, HMAC, AES-GCM
// and RSASSA-PKCS1-v1_5), console into the trace, web streams, Intl. Known gaps: requests a
// script makes run one after another (fetch blocks the VM; the time limit covers it), bodies
// are held whole in memory (bounded by the memory limit), streams have no backpressure or
// byte readers, and crypto.subtle has no other algorithms (RSA-PSS, ECDSA, PBKDF2...).
package jsrun

import (
	"context"
	"errors"
	"net/http"
	"time"
)

// Engine is what the integrations code needs of a script engine, so that another one (goja, a
// worker process) can stand in for QuickJS: prepare a script once when it is published, invoke
// it for each event. *Runner is the QuickJS one.
type Engine interface {
	// Prepare validates and compiles source; a script that does not parse is a *ParseError.
	Prepare(source string) (Prepared, error)
	// Invoke dispatches req to the script's fetch handler in a fresh VM. The trace is always
	// returned; a failed invocation also returns an *InvokeError.
	Invoke(ctx context.Context, script Prepared, req Request, env any) (*Response, *Trace, error)
}

// Prepared is a script an Engine prepared; Version identifies its source, for caches keyed by
// script version.
type Prepared interface {
	Version() string
}

// Request is the HTTP-like request an invocation hands to the script's fetch handler.
type Request struct {
	Method  string
	URL     string // absolute: the script sees it as request.url
	Headers http.Header
	Body    []byte
}

// Response is what the script's fetch handler answered.
type Response struct {
	Status  int
	Headers http.Header
	Body    []byte
}

// LogEntry is one console call of the script.
type LogEntry struct {
	Level   string // "debug", "info", "log", "warn" or "error"
	Message string
	Time    time.Time
}

// FetchRecord is one outbound request the script made, for the trace.
type FetchRecord struct {
	Method   string
	Host     string // host[:port] only: paths and queries may carry secrets
	Status   int    // 0 when the request failed
	Bytes    int    // response body bytes read
	Duration time.Duration
	Error    string
}

// Trace is what an invocation leaves behind for the event's trace, failed or not.
type Trace struct {
	Failed   bool
	Error    string // why it failed, for the trace and logs
	Logs     []LogEntry
	Fetches  []FetchRecord
	Duration time.Duration
}

// Limits bound one invocation. Zero values take the defaults.
type Limits struct {
	Time          time.Duration // wall time, script and promise jobs and timers included; default 10s
	Memory        int           // bytes the VM may allocate; default 64 MiB
	Stack         int           // call depth in the engine's stack slots; default 5,000 (the engine's own)
	ResponseBytes int           // largest response body; default 5 MiB
	Fetches       int           // outbound requests per invocation; default 50
	LogBytes      int           // console output kept; past it the trace says logs were cut; default 64 KiB
}

const (
	DefaultTime          = 10 * time.Second
	DefaultMemory        = 64 << 20
	DefaultStack         = 5000
	DefaultResponseBytes = 5 << 20
	DefaultFetches       = 50
	DefaultLogBytes      = 64 << 10
)

func (l Limits) withDefaults() Limits {
	if l.Time <= 0 {
		l.Time = DefaultTime
	}
	if l.Memory <= 0 {
		l.Memory = DefaultMemory
	}
	if l.Stack <= 0 {
		l.Stack = DefaultStack
	}
	if l.ResponseBytes <= 0 {
		l.ResponseBytes = DefaultResponseBytes
	}
	if l.Fetches <= 0 {
		l.Fetches = DefaultFetches
	}
	if l.LogBytes <= 0 {
		l.LogBytes = DefaultLogBytes
	}
	return l
}

// The kinds of failed invocation; an *InvokeError wraps exactly one, so callers test with
// errors.Is.
var (
	ErrTimeLimit     = errors.New("time limit exceeded")
	ErrMemoryLimit   = errors.New("memory limit exceeded")
	ErrStackLimit    = errors.New("stack limit exceeded")
	ErrResponseLimit = errors.New("response too large")
	ErrThrown        = errors.New("the script threw")
	ErrNoResponse    = errors.New("the script gave no response")
)

// InvokeError is a failed invocation; its message is the one recorded in the trace.
type InvokeError struct {
	Kind    error
	Message string
}

func (e *InvokeError) Error() string { return e.Message }
func (e *InvokeError) Unwrap() error { return e.Kind }
