package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"time"

	"docsd/internal/auth"
	"docsd/internal/gencache"
)

// Authenticated GET answers are a function of the caller, the URL and the database, so an
// answer can be served again for as long as the database has not changed. The database's
// generation (store.DB.Generation) is read through a barrier that only accepts a check begun
// after the request arrived, so a cached answer is never older than the request itself: a
// write committed before a request arrives, by this process or another, is always seen.
//
// GET handlers must therefore depend on nothing else (not the clock, not headers other than
// Authorization). Both engines provide a generation: SQLite's data_version, and on PostgreSQL
// a counter that every write transaction moves (store/generation.go), so the cache stays
// correct with several instances on one database.
const (
	maxCachedBody  = 256 << 10
	maxCacheBytes  = 64 << 20
	maxCacheAnswer = 20_000
)

type cachedAnswer struct {
	contentType string
	body        []byte
}

func newResponseCache() *gencache.Cache[*cachedAnswer] {
	return gencache.New[*cachedAnswer](maxCacheBytes, maxCacheAnswer)
}

// generation is the database's generation as a GET found it (see requestGeneration).
type generation struct {
	n  uint64
	ok bool // false where there is none or it could not be read
}

// requestGeneration reads the generation once per GET, through the barrier that only accepts
// a check begun after the request arrived; the answer cache and the token (tokengen.go) both
// go by it. Without one, every answer is computed.
func (s *Server) requestGeneration(r *http.Request, arrived time.Time) (generation, error) {
	if r.Method != http.MethodGet || s.Generation == nil {
		return generation{}, nil
	}
	// Only the requests in flight can share a check: it waits for no more of them.
	n, err := s.Generation(r.Context(), arrived, s.active.Load())
	if err != nil {
		return generation{}, r.Context().Err() // nil unless the request went away
	}
	return generation{n: n, ok: true}, nil
}

// serveCached answers a GET from the cache when the database has not changed since the
// answer was computed, and otherwise runs h and keeps a successful answer.
func (s *Server) serveCached(w http.ResponseWriter, r *http.Request, c auth.Caller, gen uint64, h handlerFunc) error {
	key := c.UserID + "\n" + r.URL.Path + "?" + r.URL.RawQuery
	if a, ok := s.cache.Get(key, gen); ok {
		s.metrics.cacheHits.Inc()
		h := w.Header()
		h.Set("Content-Type", a.contentType)
		h.Set("Content-Length", strconv.Itoa(len(a.body))) // in one write (see writeLine)
		w.WriteHeader(http.StatusOK)
		w.Write(a.body)
		return nil
	}
	rec := &capturingWriter{ResponseWriter: w}
	if err := h(rec, r, c); err != nil {
		return err
	}
	if rec.status == http.StatusOK && !rec.overflow {
		// Labelled with the generation read before computing: if a write landed meanwhile,
		// the label is older than the data and the next check simply misses.
		a := &cachedAnswer{contentType: w.Header().Get("Content-Type"), body: rec.buf.Bytes()}
		s.cache.Put(key, gen, a, len(a.body))
	}
	return nil
}

// capturingWriter passes an answer through while keeping a copy of a small one.
type capturingWriter struct {
	http.ResponseWriter
	status   int
	buf      bytes.Buffer
	overflow bool
}

func (c *capturingWriter) WriteHeader(code int) {
	if c.status == 0 {
		c.status = code
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c *capturingWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	if !c.overflow {
		if c.buf.Len()+len(b) > maxCachedBody {
			c.overflow = true
			c.buf = bytes.Buffer{}
		} else {
			c.buf.Write(b)
		}
	}
	return c.ResponseWriter.Write(b)
}

func (c *capturingWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// generationFunc is store.DB.Generation's signature.
type generationFunc func(ctx context.Context, since time.Time, inFlight int64) (uint64, error)
