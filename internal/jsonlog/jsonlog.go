// Package jsonlog is slog's JSON handler with a fast path for the server's request line.
// Every request writes that line, and slog's generic path (a Record with its attributes, each
// value boxed and escaped, a pooled buffer) was about half the cost of logging a cached read.
// Requests writes the same bytes the JSON handler would, straight into a buffer of its own.
package jsonlog

import (
	"context"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"time"
)

// Handler is a slog.JSONHandler (it handles every record) that can also write the request
// line directly. Attributes or groups added with WithAttrs/WithGroup give a plain JSON
// handler, so lines that must carry them never take the fast path.
type Handler struct {
	*slog.JSONHandler
	out *lockedWriter
}

// lockedWriter makes each line one Write, whichever path made it, so that the handler's lines
// and the fast path's never interleave on a writer that is not safe for concurrent use.
type lockedWriter struct {
	mu     sync.Mutex
	w      io.Writer
	atomic bool // w is a lineAtomic: no lock needed
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	if l.atomic {
		return l.w.Write(p)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// lineAtomic is a writer whose every Write reaches its destination whole, never interleaved
// with a concurrent one (logbuf.Writer): the lock above would only add a second one, which
// every request's line takes.
type lineAtomic interface{ LineAtomic() }

// New returns a handler writing JSON lines to w. opts must not have ReplaceAttr or AddSource:
// the fast path writes the keys and values as given.
func New(w io.Writer, opts *slog.HandlerOptions) *Handler {
	if opts != nil && (opts.ReplaceAttr != nil || opts.AddSource) {
		panic("jsonlog: ReplaceAttr and AddSource are not supported")
	}
	_, atomic := w.(lineAtomic)
	out := &lockedWriter{w: w, atomic: atomic}
	return &Handler{JSONHandler: slog.NewJSONHandler(out, opts), out: out}
}

// RequestLine is what the server logs of a finished request.
type RequestLine struct {
	Time                    time.Time
	RequestID, Method, Path string
	Route                   string
	Status, Bytes           int
	Duration                time.Duration
}

// Record is l as slog's record of the request line, for any handler. It is made here rather
// than by Logger.LogAttrs, which walks the stack for the caller's source position on every
// line: no handler of docsd's prints it.
func (l RequestLine) Record() slog.Record {
	r := slog.NewRecord(l.Time, slog.LevelInfo, "request", 0)
	r.AddAttrs(
		slog.String("requestId", l.RequestID),
		slog.String("method", l.Method),
		slog.String("path", l.Path),
		slog.String("route", l.Route),
		slog.Int("status", l.Status),
		slog.Int("bytes", l.Bytes),
		slog.String("duration", Millis(l.Duration)),
	)
	return r
}

// Requests writes each of ls at level info as the JSON handler writes
// slog.Info("request", "requestId", …, "method", …, "path", …, "route", …, "status", …,
// "bytes", …, "duration", "1.234ms"), in one Write where it can. The caller checks that info
// is enabled. A string the handler would escape sends that line through the handler, so the
// output is the same.
func (h *Handler) Requests(ctx context.Context, ls []RequestLine) {
	bp := lines.Get().(*[]byte)
	b := (*bp)[:0]
	for _, l := range ls {
		if plain(l.RequestID) && plain(l.Method) && plain(l.Path) && plain(l.Route) {
			b = appendRequest(b, &l)
			continue
		}
		if len(b) > 0 { // the lines before it go first
			h.out.Write(b)
			b = b[:0]
		}
		h.JSONHandler.Handle(ctx, l.Record())
	}
	if len(b) > 0 {
		h.out.Write(b)
	}
	if cap(b) <= maxPooledLines {
		*bp = b
		lines.Put(bp)
	}
}

// lines holds the buffers lines are written into; one that grew past maxPooledLines (a batch
// of long paths) is let go rather than kept.
var lines = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooledLines = 256 << 10

// appendRequest appends l's line, all of whose strings are plain.
func appendRequest(b []byte, l *RequestLine) []byte {
	b = append(b, `{"time":"`...)
	b = l.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","level":"INFO","msg":"request","requestId":"`...)
	b = append(b, l.RequestID...)
	b = append(b, `","method":"`...)
	b = append(b, l.Method...)
	b = append(b, `","path":"`...)
	b = append(b, l.Path...)
	b = append(b, `","route":"`...)
	b = append(b, l.Route...)
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(l.Status), 10)
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, int64(l.Bytes), 10)
	b = append(b, `,"duration":"`...)
	b = appendMillis(b, l.Duration)
	return append(b, "\"}\n"...)
}

// Millis formats d as the request line's duration: milliseconds to the microsecond, "1.234ms".
func Millis(d time.Duration) string { return string(appendMillis(nil, d)) }

func appendMillis(b []byte, d time.Duration) []byte {
	b = strconv.AppendFloat(b, float64(d.Microseconds())/1000, 'f', 3, 64)
	return append(b, "ms"...)
}

// plain reports whether s is written as is inside a JSON string by slog: printable ASCII
// without quote or backslash. It looks at eight bytes at a time: byte by byte, it was a
// quarter of a request line's cost.
func plain(s string) bool {
	for ; len(s) >= 8; s = s[8:] {
		w := s[:8] // one bounds check, and one load
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if !plainWord(x) {
			return false
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// plainWord reports whether none of x's eight bytes is below 0x20, above 0x7e, '"' or '\\'.
// Each test sets a byte's high bit when some byte of x fails it (the borrows and carries
// of the arithmetic start only at a byte that fails, so they never flag a word that passes).
func plainWord(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - 0x20*ones) &^ x // a byte < 0x20
	above := (x + ones) | x       // a byte > 0x7e: adding one reaches 0x80
	q, b := x^('"'*ones), x^('\\'*ones)
	quote := (q - ones) &^ q // a byte equal to '"'
	backslash := (b - ones) &^ b
	return (below|above|quote|backslash)&highs == 0
}
