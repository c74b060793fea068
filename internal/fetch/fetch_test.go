package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"docsd/internal/config"
	"docsd/internal/fetch"
)

// server answers "hello" and counts the requests that reached it.
func server(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "hello")
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

// expectKind checks that err is an *fetch.Error of the given kind whose message mentions each
// of the fragments.
func expectKind(t *testing.T, err error, kind error, fragments ...string) *fetch.Error {
	t.Helper()
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		t.Fatalf("err = %v (%T), want a *fetch.Error", err, err)
	}
	if !errors.Is(err, kind) {
		t.Fatalf("err = %v, want kind %v", err, kind)
	}
	t.Logf("%v", err)
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("err = %q, want it to mention %q", err, f)
		}
	}
	return fe
}

func TestLoopback(t *testing.T) {
	t.Parallel()
	srv, hits := server(t)
	host := strings.TrimPrefix(srv.URL, "http://")

	t.Run("refused by default, before any request is sent", func(t *testing.T) {
		c := fetch.New(fetch.FromConfig(config.Defaults()))
		_, err := c.Get(context.Background(), srv.URL+"/spec.json")
		fe := expectKind(t, err, fetch.ErrForbiddenAddress, host, "127.0.0.1", "loopback", "DOCSD_FETCH_ALLOW_PRIVATE")
		if !fe.CallerFault() {
			t.Error("CallerFault() = false for a forbidden address, want true (a 400)")
		}
		if hits.Load() != 0 {
			t.Fatalf("the server saw %d requests, want none", hits.Load())
		}
	})

	t.Run("refused through HTTPClient too", func(t *testing.T) {
		c := fetch.New(fetch.Options{})
		_, err := c.HTTPClient().Get(srv.URL)
		expectKind(t, c.Classify(host, err), fetch.ErrForbiddenAddress, "loopback")
	})

	t.Run("allowed when the operator allows private targets", func(t *testing.T) {
		cfg := config.Defaults()
		cfg.FetchAllowPrivate = true
		c := fetch.New(fetch.FromConfig(cfg))
		res, err := c.Get(context.Background(), srv.URL+"/spec.json")
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Body) != "hello" || res.StatusCode != 200 || res.ContentType != "text/plain" {
			t.Fatalf("res = %+v", res)
		}
	})
}

func TestHostNameResolvingToLoopbackRefusedAtDial(t *testing.T) {
	t.Parallel()
	srv, hits := server(t)
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	c := fetch.New(fetch.Options{})
	_, err := c.Get(context.Background(), "http://localhost:"+port+"/")
	expectKind(t, err, fetch.ErrForbiddenAddress, "localhost", "loopback")
	if hits.Load() != 0 {
		t.Fatalf("the server saw %d requests, want none", hits.Load())
	}
}

func TestRedirects(t *testing.T) {
	t.Parallel()
	inner, innerHits := server(t)
	// outer stands in for a public server: the client treats its address as allowed.
	outer := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/to-inner":
			http.Redirect(w, r, inner.URL+"/secret", http.StatusFound)
		case "/to-localhost":
			http.Redirect(w, r, strings.Replace(inner.URL, "127.0.0.1", "localhost", 1), http.StatusFound)
		case "/to-file":
			http.Redirect(w, r, "file:///etc/passwd", http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		default:
			fmt.Fprint(w, "outer")
		}
	}))
	t.Cleanup(outer.Close)
	u, _ := url.Parse(outer.URL)
	public := netip.MustParseAddrPort(u.Host)
	c := fetch.NewExempting(fetch.Options{MaxRedirects: 3}, public)

	t.Run("the exempted server itself is reachable", func(t *testing.T) {
		res, err := c.Get(context.Background(), outer.URL+"/")
		if err != nil || string(res.Body) != "outer" {
			t.Fatalf("res, err = %v, %v", res, err)
		}
	})
	t.Run("redirect to a loopback address refused", func(t *testing.T) {
		_, err := c.Get(context.Background(), outer.URL+"/to-inner")
		expectKind(t, err, fetch.ErrForbiddenAddress, strings.TrimPrefix(inner.URL, "http://"), "loopback")
	})
	t.Run("redirect to a name resolving to loopback refused", func(t *testing.T) {
		_, err := c.Get(context.Background(), outer.URL+"/to-localhost")
		expectKind(t, err, fetch.ErrForbiddenAddress, "localhost", "loopback")
	})
	t.Run("redirect to another scheme refused", func(t *testing.T) {
		_, err := c.Get(context.Background(), outer.URL+"/to-file")
		expectKind(t, err, fetch.ErrUnsupportedScheme, u.Host, "redirected", `"file"`)
	})
	t.Run("redirects beyond the limit refused", func(t *testing.T) {
		_, err := c.Get(context.Background(), outer.URL+"/loop")
		fe := expectKind(t, err, fetch.ErrTooManyRedirects, "more than 3 redirects")
		if fe.CallerFault() {
			t.Error("CallerFault() = true for a redirect loop, want false (a 502)")
		}
	})
	if innerHits.Load() != 0 {
		t.Fatalf("the inner server saw %d requests, want none", innerHits.Load())
	}
}

func TestRedirectsWithinLimitFollowed(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/%d", &n)
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("/%d", n-1), http.StatusFound)
			return
		}
		fmt.Fprint(w, "landed")
	}))
	t.Cleanup(srv.Close)
	c := fetch.New(fetch.Options{AllowPrivate: true, MaxRedirects: 2})
	res, err := c.Get(context.Background(), srv.URL+"/2")
	if err != nil || string(res.Body) != "landed" || res.URL != srv.URL+"/0" {
		t.Fatalf("at the limit: res, err = %+v, %v", res, err)
	}
	_, err = c.Get(context.Background(), srv.URL+"/3")
	expectKind(t, err, fetch.ErrTooManyRedirects, "more than 2 redirects")

	none := fetch.New(fetch.Options{AllowPrivate: true, MaxRedirects: -1})
	_, err = none.Get(context.Background(), srv.URL+"/1")
	expectKind(t, err, fetch.ErrTooManyRedirects, "more than 0 redirects")

	// KeepRedirects hands the redirect back as the answer, unfollowed.
	kept := fetch.New(fetch.Options{AllowPrivate: true, MaxRedirects: -1, KeepRedirects: true})
	req, _ := http.NewRequest("GET", srv.URL+"/1", nil)
	resp, err := kept.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/0" {
		t.Fatalf("kept redirect: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
}

func TestSizeCap(t *testing.T) {
	t.Parallel()
	const limit = 1024
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Query().Get("n"), "%d", &n)
		body := strings.Repeat("x", n)
		if r.URL.Query().Get("chunked") != "" {
			// Flushing first leaves the length unknown, so only counting can catch it.
			w.(http.Flusher).Flush()
			for i := 0; i < n; i += 100 {
				fmt.Fprint(w, body[i:min(i+100, n)])
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(n))
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	c := fetch.New(fetch.Options{AllowPrivate: true, MaxBytes: limit})
	for _, mode := range []string{"", "&chunked=1"} {
		res, err := c.Get(context.Background(), fmt.Sprintf("%s/?n=%d%s", srv.URL, limit, mode))
		if err != nil || len(res.Body) != limit {
			t.Fatalf("at the limit (%q): err = %v", mode, err)
		}
		_, err = c.Get(context.Background(), fmt.Sprintf("%s/?n=%d%s", srv.URL, limit+1, mode))
		fe := expectKind(t, err, fetch.ErrTooLarge, "1 KiB (1024 bytes)", "127.0.0.1")
		if fe.CallerFault() {
			t.Error("CallerFault() = true for a large response, want false (a 502)")
		}
	}
}

func TestTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow-body" {
			w.(http.Flusher).Flush()
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	c := fetch.New(fetch.Options{AllowPrivate: true, Timeout: 100 * time.Millisecond})
	for _, path := range []string{"/slow-headers", "/slow-body"} {
		start := time.Now()
		_, err := c.Get(context.Background(), srv.URL+path)
		expectKind(t, err, fetch.ErrTimeout, "100ms")
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s: gave up after %s, want about 100ms", path, d)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := fetch.New(fetch.Options{AllowPrivate: true}).Get(ctx, srv.URL+"/slow-headers")
	expectKind(t, err, fetch.ErrTimeout, "before the deadline")
}

func TestURLsRefusedBeforeAnyConnection(t *testing.T) {
	t.Parallel()
	c := fetch.New(fetch.Options{AllowPrivate: true})
	cases := []struct {
		url  string
		kind error
		want string
	}{
		{"ftp://example.com/spec.json", fetch.ErrUnsupportedScheme, `"ftp"`},
		{"file:///etc/passwd", fetch.ErrUnsupportedScheme, `"file"`},
		{"gopher://example.com", fetch.ErrUnsupportedScheme, "only http and https"},
		{"/relative/path", fetch.ErrUnsupportedScheme, `""`},
		{"http:///no-host", fetch.ErrInvalidURL, "no host"},
		{"http://exa mple.com/", fetch.ErrInvalidURL, "does not parse"},
	}
	for _, tc := range cases {
		_, err := c.Get(context.Background(), tc.url)
		fe := expectKind(t, err, tc.kind, tc.want)
		if !fe.CallerFault() {
			t.Errorf("%s: CallerFault() = false, want true", tc.url)
		}
	}
}

func TestRemoteStatusIsAnError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	_, err := fetch.New(fetch.Options{AllowPrivate: true}).Get(context.Background(), srv.URL+"/missing")
	fe := expectKind(t, err, fetch.ErrStatus, "404 Not Found")
	if fe.StatusCode != 404 || fe.CallerFault() {
		t.Fatalf("fe = %+v", fe)
	}
}

func TestUnreachable(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.NotFoundHandler())
	addr := srv.URL
	srv.Close() // nothing listens there any more
	_, err := fetch.New(fetch.Options{AllowPrivate: true}).Get(context.Background(), addr)
	expectKind(t, err, fetch.ErrUnreachable, "connection failed")
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	o := fetch.New(fetch.Options{}).Options()
	if o.Timeout != fetch.DefaultTimeout || o.MaxBytes != fetch.DefaultMaxBytes || o.MaxRedirects != fetch.DefaultMaxRedirects || o.AllowPrivate {
		t.Fatalf("Options() = %+v", o)
	}
}

func TestUnresolvableHost(t *testing.T) {
	t.Parallel()
	// .invalid never resolves (RFC 2606).
	_, err := fetch.New(fetch.Options{Timeout: 10 * time.Second}).Get(context.Background(), "http://docsd-test.invalid/spec.json")
	fe := expectKind(t, err, fetch.ErrUnreachable, "docsd-test.invalid", "does not resolve")
	if fe.CallerFault() {
		t.Error("CallerFault() = true for a name that does not resolve, want false (a 502)")
	}
}

// Spellings of refused targets get the policy's refusal before any connection: an upper-case
// scheme, a literal address with a zone id, mapped and NAT64 forms.
func TestURLTricksRefusedByThePolicy(t *testing.T) {
	t.Parallel()
	c := fetch.New(fetch.Options{})
	for _, tc := range []struct{ url, want string }{
		{"HTTP://127.0.0.1:9/x", "loopback"},
		{"hTTpS://10.1.2.3/x", "RFC 1918"},
		{"http://[fe80::1%25eth0]/x", "zone id"},
		{"http://[fe80::1%25lo]:8080/x", "zone id"},
		{"http://[::ffff:7f00:1]:9/x", "loopback"},
		{"http://[64:ff9b::a9fe:a9fe]/x", "link-local behind the NAT64 prefix"},
		{"http://192.0.2.10/x", "TEST-NET-1"},
		{"http://[2001:db8::1]/x", "documentation"},
		{"http://0x7f.1/x", ""}, // not an address literal: resolved, then refused at dial or unresolvable
	} {
		_, err := c.Get(context.Background(), tc.url)
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: fetched", tc.url)
			}
			continue
		}
		fe := expectKind(t, err, fetch.ErrForbiddenAddress, tc.want)
		if !fe.CallerFault() {
			t.Errorf("%s: not the caller's fault", tc.url)
		}
	}
}

func TestGateBoundsConcurrentFetches(t *testing.T) {
	t.Parallel()
	g := fetch.NewGate(2, 50*time.Millisecond)
	r1, err1 := g.Enter(context.Background(), "h")
	r2, err2 := g.Enter(context.Background(), "h")
	if err1 != nil || err2 != nil {
		t.Fatalf("two slots: %v, %v", err1, err2)
	}
	start := time.Now()
	if _, err := g.Enter(context.Background(), "h"); !errors.Is(err, fetch.ErrBusy) {
		t.Fatalf("third fetch: %v, want ErrBusy", err)
	}
	if d := time.Since(start); d < 40*time.Millisecond || d > 5*time.Second {
		t.Errorf("refused after %s, want about the 50ms wait", d)
	}
	r1()
	r3, err := g.Enter(context.Background(), "h")
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	r2()
	r3()
	var none *fetch.Gate
	if rel, err := none.Enter(context.Background(), "h"); err != nil {
		t.Fatalf("nil gate: %v", err)
	} else {
		rel()
	}
}
