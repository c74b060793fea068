package httpapi

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/ids"
	"docsd/internal/jsonlog"
)

type requestIDKey struct{}

// requestIDs makes request ids: unique, not secret, so a random per-process prefix and a
// counter serve (cheaper than drawing from crypto/rand for every request).
type requestIDs struct {
	prefix string
	n      atomic.Uint64
}

func newRequestIDs() *requestIDs { return &requestIDs{prefix: ids.Random(8)} }

func (g *requestIDs) next() string {
	return g.prefix + "-" + strconv.FormatUint(g.n.Add(1), 36)
}

func requestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// statusRecorder remembers what was written, for logs and metrics.
type statusRecorder struct {
	http.ResponseWriter
	status      int
	bytes       int
	wroteHeader bool
	body        *trackedBody // the request's body, nil when it has none
}

func (s *statusRecorder) WriteHeader(code int) {
	if !s.wroteHeader {
		s.status = code
		s.wroteHeader = true
		if s.body != nil && !s.body.done.Load() && !s.body.drain(s.ResponseWriter) {
			unreadBody(s.ResponseWriter)
		}
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if !s.wroteHeader {
		s.WriteHeader(http.StatusOK)
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// outer wraps every request: request id, body cap, panic recovery, metrics and a log line.
func (s *Server) outer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rid := r.Header.Get("X-Request-Id")
		if rid == "" || len(rid) > 64 {
			rid = s.requestIDs.next()
		}
		w.Header().Set("X-Request-Id", rid)
		ctx := context.WithValue(r.Context(), requestIDKey{}, rid)
		r = r.WithContext(ctx)
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		if r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0 {
			rec.body = &trackedBody{ReadCloser: http.MaxBytesReader(w, r.Body, s.maxBody), length: r.ContentLength}
			r.Body = rec.body
		}
		defer func() {
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.log.ErrorContext(ctx, "panic", "panic", fmt.Sprint(p), "stack", string(debug.Stack()), "requestId", rid)
				if !rec.wroteHeader {
					writeError(rec, r, s.log, apperr.New(apperr.Internal, "panic"))
				}
			}
			s.logRequest(r, rec, rid, start)
		}()
		next.ServeHTTP(rec, r)
	})
}

// logRequest records a finished request: its metrics and, at level info, its log line. It
// only hands the request's figures to s.finished, which writes them a batch at a time
// (writeFinished). It is a method of its own so that docsd-bench can find its share of a
// request's CPU in a profile.
func (s *Server) logRequest(r *http.Request, rec *statusRecorder, rid string, start time.Time) {
	elapsed := time.Since(start)
	route := r.Pattern
	if route == "" {
		route = "unmatched"
	}
	s.finished.Add(jsonlog.RequestLine{Time: start.Add(elapsed), RequestID: rid, Method: r.Method,
		Path: r.URL.Path, Route: route, Status: rec.status, Bytes: rec.bytes, Duration: elapsed})
}

// finishedBatch and finishedWait bound how many finished requests wait to be written, and
// for how long: a few hundred lines of the log buffer, well within its flush interval.
const (
	finishedBatch = 256
	finishedWait  = 20 * time.Millisecond
)

// writeFinished writes the metrics and log lines of a batch of finished requests, in order.
// It is what logRequest hands its work to; docsd-bench counts both.
func (s *Server) writeFinished(lines []jsonlog.RequestLine) {
	// A batch is mostly runs of one route, method and status: each run looks its series up once.
	var k seriesKey
	var rs *requestSeries
	for i := range lines {
		l := &lines[i]
		if rs == nil || l.Route != k.route || l.Method != k.method || l.Status != k.status {
			k = seriesKey{l.Route, l.Method, l.Status}
			rs = s.metrics.seriesOf(k)
		}
		rs.observe(l.Duration)
	}
	// Requests carry no attributes for the log: their lines need no request's context.
	ctx := context.Background()
	h := s.log.Handler()
	if !h.Enabled(ctx, slog.LevelInfo) {
		return
	}
	if jh, ok := h.(*jsonlog.Handler); ok { // docsd's own: the lines without slog's generic path
		jh.Requests(ctx, lines)
		return
	}
	for _, l := range lines {
		h.Handle(ctx, l.Record())
	}
}

// Close writes the metrics and log lines of the requests that finished; those that finish
// later are written one at a time. The process calls it once it stopped serving.
func (s *Server) Close() { s.finished.Close() }
