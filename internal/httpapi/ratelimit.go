package httpapi

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/ratelimit"
)

// RateLimits are requests per minute; 0 turns a limit off.
type RateLimits struct {
	Token     int64 // per API token, on every route
	Address   int64 // per client address, on every route, with or without a token
	Expensive int64 // per token (or address, without one) on imports, PDF, search and exports
}

// expensiveRoute reports whether a route pattern does work far above a plain read or write:
// those share a stricter limit of their own.
func expensiveRoute(pattern string) bool {
	for _, part := range []string{"/import", "/pdf", "/search", "/export"} {
		if strings.Contains(pattern, part) {
			return true
		}
	}
	return false
}

// unlimitedRoute reports whether a route is for the operator's monitoring, which is never
// limited.
func unlimitedRoute(pattern string) bool {
	switch pattern {
	case "GET /metrics", "GET /healthz", "GET /readyz":
		return true
	}
	return false
}

// rateLimit counts the request against its buckets and answers 429 when one is spent. It
// reports whether the request may go on. Every answer carries the X-RateLimit-* headers of
// the strictest bucket that applies to it.
func (s *Server) rateLimit(w http.ResponseWriter, r *http.Request, pattern string) bool {
	if s.RateLimiter == nil || unlimitedRoute(pattern) {
		return true
	}
	type bucket struct {
		name, key string
		limit     int64
	}
	buckets := make([]bucket, 0, 3)
	addr := r.RemoteAddr
	if host, _, err := net.SplitHostPort(addr); err == nil {
		addr = host
	}
	if s.RateLimits.Address > 0 {
		buckets = append(buckets, bucket{"address", "a:" + addr, s.RateLimits.Address})
	}
	who := "a:" + addr
	if tok, ok := auth.BearerToken(r.Header.Get("Authorization")); ok {
		// Hashed, so that no token reaches the database or a log through its counts.
		sum := sha256.Sum256([]byte(tok))
		who = "t:" + hex.EncodeToString(sum[:12])
		if s.RateLimits.Token > 0 {
			buckets = append(buckets, bucket{"token", who, s.RateLimits.Token})
		}
	}
	if s.RateLimits.Expensive > 0 && expensiveRoute(pattern) {
		buckets = append(buckets, bucket{"expensive", "x:" + who, s.RateLimits.Expensive})
	}
	var shown ratelimit.Decision
	for _, b := range buckets {
		d := s.RateLimiter.Allow(r.Context(), b.key, b.limit)
		if !d.Allowed {
			setRateHeaders(w, d)
			wait := int(math.Ceil(d.Reset.Sub(s.RateLimiter.Now()).Seconds()))
			w.Header().Set("Retry-After", strconv.Itoa(max(wait, 1)))
			s.metrics.rateLimited.WithLabelValues(b.name).Inc()
			writeError(w, r, s.log, apperr.New(apperr.TooManyRequests,
				"rate limit: at most %d requests a minute per %s; retry in %d seconds", b.limit, b.name, max(wait, 1)))
			return false
		}
		shown = d
	}
	if len(buckets) > 0 {
		setRateHeaders(w, shown)
	}
	return true
}

func setRateHeaders(w http.ResponseWriter, d ratelimit.Decision) {
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.FormatInt(d.Limit, 10))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(max(d.Remaining, 0), 10))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(d.Reset.Unix(), 10))
}
