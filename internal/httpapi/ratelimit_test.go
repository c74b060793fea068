package httpapi_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// withLimits starts a server with the given limits a minute, and its clock frozen halfway
// through a window, so that no window ends during the test unless it says so.
func withLimits(t *testing.T, token, address, expensive int64) *apitest.Env {
	t.Helper()
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.RateLimitToken, c.RateLimitAddress, c.RateLimitExpensive = token, address, expensive
	})
	e.Clock.Set(time.Now().UTC().Truncate(time.Minute).Add(30 * time.Second))
	return e
}

// expectLimited checks a 429's body and headers against the limit it names.
func expectLimited(t *testing.T, r *apitest.Resp, limit int64, bucket string) {
	t.Helper()
	r.Expect(429).ExpectMessage("at most "+strconv.FormatInt(limit, 10)+" requests a minute per "+bucket, "retry in 30 seconds")
	if got := r.Header.Get("Retry-After"); got != "30" {
		t.Errorf("Retry-After = %q, want 30 (the window's end)", got)
	}
	if got := r.Header.Get("X-RateLimit-Limit"); got != strconv.FormatInt(limit, 10) {
		t.Errorf("X-RateLimit-Limit = %q, want %d", got, limit)
	}
	if got := r.Header.Get("X-RateLimit-Remaining"); got != "0" {
		t.Errorf("X-RateLimit-Remaining = %q, want 0", got)
	}
	reset, err := strconv.ParseInt(r.Header.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset%60 != 0 {
		t.Errorf("X-RateLimit-Reset = %q, want the epoch second of the window's end", r.Header.Get("X-RateLimit-Reset"))
	}
}

func TestRateLimitPerToken(t *testing.T) {
	e := withLimits(t, 5, 1000, 1000)
	u := e.NewUser("busy")
	for i := 0; i < 5; i++ {
		r := e.Get(u, "/v1/user").Expect(200)
		if got, want := r.Header.Get("X-RateLimit-Remaining"), strconv.Itoa(4-i); got != want {
			t.Fatalf("request %d: X-RateLimit-Remaining = %q, want %s", i+1, got, want)
		}
		if r.Header.Get("X-RateLimit-Limit") != "5" {
			t.Fatalf("X-RateLimit-Limit = %q, want 5", r.Header.Get("X-RateLimit-Limit"))
		}
	}
	expectLimited(t, e.Get(u, "/v1/user"), 5, "token")
	// Writes count too, and another token has its own count.
	expectLimited(t, e.Patch(u, "/v1/orgs/"+e.Org, map[string]any{"title": "x"}), 5, "token")
	e.Get(e.NewUser("other"), "/v1/user").Expect(200)
	// The next window starts afresh.
	e.Clock.Advance(time.Minute)
	e.Get(u, "/v1/user").Expect(200)
}

func TestRateLimitPerAddress(t *testing.T) {
	e := withLimits(t, 1000, 3, 1000)
	// Without a token, each request counts against the address (and is refused for lack
	// of one), so a client cannot try tokens without end.
	for i := 0; i < 3; i++ {
		e.Get(apitest.Anonymous, "/v1/user").Expect(401)
	}
	expectLimited(t, e.Get(apitest.Anonymous, "/v1/user"), 3, "address")
	expectLimited(t, e.Get(e.Admin, "/v1/user"), 3, "address")
	// Monitoring is never limited.
	e.Get(apitest.Anonymous, "/healthz").Expect(200)
}

func TestRateLimitExpensiveRoutes(t *testing.T) {
	e := withLimits(t, 1000, 1000, 2)
	u := e.Member("searcher", "read")
	for i := 0; i < 2; i++ {
		r := e.Get(u, "/v1/orgs/"+e.Org+"/search?query=x").Expect(200)
		if r.Header.Get("X-RateLimit-Limit") != "2" {
			t.Fatalf("X-RateLimit-Limit = %q on an expensive route, want its own limit 2", r.Header.Get("X-RateLimit-Limit"))
		}
	}
	expectLimited(t, e.Get(u, "/v1/orgs/"+e.Org+"/search?query=x"), 2, "expensive")
	// Plain routes are still open to the same token.
	if r := e.Get(u, "/v1/user").Expect(200); r.Header.Get("X-RateLimit-Limit") != "1000" {
		t.Fatalf("X-RateLimit-Limit = %q on a plain route, want the token's 1000", r.Header.Get("X-RateLimit-Limit"))
	}
}

func TestRateLimitSharedByServersOnOneDatabase(t *testing.T) {
	if apitest.PostgresURL() == "" {
		t.Skip("SQLite serves one process: its counts are in memory (DOCSD_TEST_POSTGRES runs this)")
	}
	a := withLimits(t, 10, 1000, 1000)
	b := a.Peer()
	u := a.NewUser("fleet")
	for i := 0; i < 6; i++ {
		a.Get(u, "/v1/user").Expect(200)
	}
	allowed := 0
	for i := 0; i < 10; i++ {
		r := b.Get(u, "/v1/user")
		if r.Status == 429 {
			expectLimited(t, r, 10, "token")
			break
		}
		r.Expect(200)
		allowed++
	}
	if allowed != 4 {
		t.Fatalf("the second server allowed %d requests after the first's 6, want 4 (a limit of 10 shared)", allowed)
	}
	expectLimited(t, a.Get(u, "/v1/user"), 10, "token")
	if !strings.Contains(b.Get(b.Admin, "/v1/user").Expect(200).Header.Get("X-RateLimit-Limit"), "10") {
		t.Fatal("another token lost its own count")
	}
}
