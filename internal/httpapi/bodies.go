package httpapi

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sync/semaphore"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// Request bodies are the one input whose cost a caller chooses, so each is bounded four ways
// before it is read: who may send it (the target in the path must be visible to the caller),
// how large it may be (the route's cap, checked against Content-Length before reading), how
// long it may take (the route's read deadline), and how much memory all bodies in flight may
// hold together (a budget in bytes shared by every request).

// bodyPolicy is what one route accepts as a body.
type bodyPolicy struct {
	max      int64         // largest body, in bytes
	deadline time.Duration // time to receive the whole body
	// spooled bodies are streamed to disk, not held in memory: they take only a buffer's
	// worth of the memory budget.
	spooled bool
	// ungated routes act on what the caller cannot see yet (joining an organization,
	// restoring a deleted space), so their target is not checked before the body.
	ungated bool
}

const (
	jsonBodyMax = 1 << 20 // every JSON body but page content needs kilobytes
	pageBodyMax = 8 << 20 // a page's markdown or document
	// integrationBodyMax fits a script of integration.ScriptBytesMax and its images in base64.
	integrationBodyMax = 16 << 20
	smallBodyTimeout   = 20 * time.Second
	largeBodyTimeout   = 10 * time.Minute
	spoolReserve       = 64 << 10
	// gateAbove is the body size from which the target is checked before the body is read:
	// below it a body costs less than the extra lookup.
	gateAbove = 16 << 10
	// budgetWait is how long a body waits for room in the budget before the 503.
	budgetWait = 5 * time.Second
)

// bodyPolicyFor returns the policy of a route pattern.
func (s *Server) bodyPolicyFor(pattern string) bodyPolicy {
	p := bodyPolicy{max: jsonBodyMax, deadline: smallBodyTimeout}
	switch {
	case pattern == "POST /v1/integrations/{integrationName}":
		// A publication carries the whole bundled script and base64 images.
		p = bodyPolicy{max: integrationBodyMax, deadline: 2 * time.Minute}
	case strings.HasSuffix(pattern, "/content/import"):
		p = bodyPolicy{max: s.maxBody, deadline: largeBodyTimeout, spooled: true}
	case strings.Contains(pattern, "/change-requests/") && (strings.HasSuffix(pattern, "/pages") || strings.HasSuffix(pattern, "/pages/{pageId}")):
		p = bodyPolicy{max: pageBodyMax, deadline: 2 * time.Minute}
	case strings.HasSuffix(pattern, "/restore"), strings.HasSuffix(pattern, "/join"),
		strings.HasSuffix(pattern, "/invites/{inviteId}"):
		p.ungated = true
	}
	p.max = min(p.max, s.maxBody)
	return p
}

// bodyBudget bounds the bytes of request bodies held in memory at once.
type bodyBudget struct {
	sem      *semaphore.Weighted
	size     int64
	inFlight atomic.Int64
}

func newBodyBudget(size int64) *bodyBudget {
	return &bodyBudget{sem: semaphore.NewWeighted(size), size: size}
}

// reserve takes n bytes of the budget, waiting up to budgetWait, and returns their release.
func (b *bodyBudget) reserve(ctx context.Context, n int64) (func(), error) {
	n = min(n, b.size)
	if !b.sem.TryAcquire(n) {
		wctx, cancel := context.WithTimeout(ctx, budgetWait)
		err := b.sem.Acquire(wctx, n)
		cancel()
		if err != nil {
			return nil, apperr.New(apperr.Unavailable, "request body: the server is receiving too many large bodies; retry later")
		}
	}
	b.inFlight.Add(n)
	return func() { b.inFlight.Add(-n); b.sem.Release(n) }, nil
}

// admitBody applies the route's policy to the request's body before the handler reads it,
// and returns the release of its share of the budget. Requests without a body pass.
func (s *Server) admitBody(w http.ResponseWriter, r *http.Request, c auth.Caller, p bodyPolicy) (func(), error) {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
		return func() {}, nil
	}
	if !p.ungated && (r.ContentLength < 0 || r.ContentLength > gateAbove) {
		if err := s.gateTarget(r, c); err != nil {
			return nil, err
		}
	}
	if r.ContentLength > p.max {
		return nil, apperr.New(apperr.TooLarge, "request body: must be at most %d bytes (Content-Length is %d)", p.max, r.ContentLength)
	}
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(p.deadline))
	r.Body = http.MaxBytesReader(w, r.Body, p.max)
	n := r.ContentLength
	if n < 0 {
		n = p.max // chunked: the most it may grow to
	}
	if p.spooled {
		n = spoolReserve
	}
	return s.bodies.reserve(r.Context(), n)
}

// gateTarget checks, from the path alone, that the caller can see the space or organization
// the request acts on: a stranger's body is refused unread, with the 404 the handler would
// have answered after reading it.
func (s *Server) gateTarget(r *http.Request, c auth.Caller) error {
	if id := r.PathValue("spaceId"); id != "" {
		_, err := s.Spaces.Get(r.Context(), c, id)
		return err
	}
	if id := r.PathValue("organizationId"); id != "" {
		_, err := s.Orgs.Get(r.Context(), c, id)
		return err
	}
	return nil
}

// trackedBody notes whether a request's body was read to its end, so that an answer given
// without reading it can close the connection instead of waiting for the rest (see
// statusRecorder.WriteHeader).
type trackedBody struct {
	io.ReadCloser
	length int64 // the declared Content-Length, -1 when chunked
	read   atomic.Int64
	done   atomic.Bool
}

func (b *trackedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.read.Add(int64(n))
	if err != nil {
		b.done.Store(true)
	}
	return n, err
}

// drainUnread and drainWait bound what an answer given before its body was read waits for:
// a rest of at most drainUnread bytes that arrives within drainWait is read and dropped, so
// the connection stays open. Closing a connection with a client's bytes still unread makes
// the kernel reset it, and a client still writing its body then sees the reset (a broken pipe)
// instead of the answer. drainUnread is a JSON body's cap: a stranger's body over the 16 KiB
// gate, refused with a 404 before it is read, is dropped as it arrives rather than reset (the
// fuzz pass's long strings met that reset under load); a larger one, or one that trickles, is
// still closed on, which is what the gate is for.
const (
	drainUnread = 1 << 20
	drainWait   = 250 * time.Millisecond
)

// drain reads the rest of a small declared body, within drainWait, and reports whether it
// reached the end.
func (b *trackedBody) drain(w http.ResponseWriter) bool {
	rest := b.length - b.read.Load()
	if b.length < 0 || rest > drainUnread {
		return false
	}
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(drainWait)) != nil {
		return false
	}
	_, _ = io.CopyN(io.Discard, b, rest+1)
	if !b.done.Load() || b.read.Load() != b.length {
		return false
	}
	_ = rc.SetReadDeadline(time.Time{}) // the server sets the next request's own deadline
	return true
}

// unreadBody prepares an answer to a request whose body was not read to its end: the
// connection closes after the answer, and the rest of the body is not waited for. Without
// this the server reads what remains before it answers, so a client that declares a body and
// sends nothing holds its 401 until the read timeout.
func unreadBody(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	http.NewResponseController(w).SetReadDeadline(time.Now())
}

// retryAfter sets Retry-After on answers that ask the client to come back.
func retryAfter(w http.ResponseWriter, status int, seconds int) {
	if status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests {
		if w.Header().Get("Retry-After") == "" {
			w.Header().Set("Retry-After", strconv.Itoa(max(seconds, 1)))
		}
	}
}
