package httpapi_test

import (
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// interfaceAddress is an address of one of this host's interfaces other than loopback, the
// kind of target the outbound policy missed: a server listening there is the host itself.
func interfaceAddress(t *testing.T) netip.Addr {
	t.Helper()
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatalf("InterfaceAddrs: %v", err)
	}
	for _, a := range addrs {
		if ipn, ok := a.(*net.IPNet); ok {
			if ip, ok := netip.AddrFromSlice(ipn.IP); ok && !ip.Unmap().IsLoopback() && ip.Unmap().Is4() {
				return ip.Unmap()
			}
		}
	}
	t.Fatal("this host has no IPv4 interface address besides loopback")
	return netip.Addr{}
}

// countingServer listens on addr and counts the requests that reach it.
func countingServer(t *testing.T, addr string, h http.Handler) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen on %s: %v", addr, err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, &hits
}

func TestOutboundFetchesRefuseThisHostAndPrivateTargets(t *testing.T) {
	t.Parallel()
	inner, innerHits := countingServer(t, net.JoinHostPort(interfaceAddress(t).String(), "0"),
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	// outer plays an outside server (the policy is told to treat it as public) that redirects
	// wherever the path says.
	outer, outerHits := countingServer(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := map[string]string{
			"/to-interface/info/refs": inner.URL + "/repo.git/info/refs?service=git-upload-pack",
			"/to-loopback/info/refs":  "http://127.0.0.1:9/repo.git/info/refs?service=git-upload-pack",
			"/to-private/info/refs":   "http://10.0.0.1/repo.git/info/refs?service=git-upload-pack",
			"/to-zone/info/refs":      "http://[fe80::1%25eth0]/repo.git/info/refs?service=git-upload-pack",
			"/to-testnet/info/refs":   "http://198.51.100.7/repo.git/info/refs?service=git-upload-pack",
		}[r.URL.Path]
		if target == "" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, target, http.StatusFound)
	}))
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.FetchAllowPrivate = false
		c.FetchTestPublic = []netip.AddrPort{netip.MustParseAddrPort(strings.TrimPrefix(outer.URL, "http://"))}
	})
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)

	innerHost := strings.TrimPrefix(inner.URL, "http://")
	refused := func(url string, fragments ...string) {
		t.Helper()
		gitImport(e, e.Admin, sp, map[string]any{"url": url, "ref": "main"}).ExpectError(400).
			ExpectMessage(append([]string{"url", "refused"}, fragments...)...)
	}
	t.Run("this host's interface address", func(t *testing.T) {
		refused(inner.URL+"/repo.git", innerHost[:strings.LastIndex(innerHost, ":")])
	})
	t.Run("upper-case schemes get the policy's refusal", func(t *testing.T) {
		refused("HTTP://"+innerHost+"/repo.git", "address of this host")
		refused("Http://127.0.0.1:9/repo.git", "loopback")
	})
	t.Run("literal addresses with a zone id, and special-purpose ranges", func(t *testing.T) {
		refused("http://[fe80::1%25eth0]/repo.git", "zone id")
		refused("http://[::ffff:127.0.0.1]:9/repo.git", "loopback")
		refused("http://198.18.0.1/repo.git", "benchmarking")
		refused("http://192.0.0.8/repo.git", "IETF protocol assignments")
		refused("http://[64:ff9b::7f00:1]/repo.git", "NAT64")
		refused("http://[2001:db8::1]/repo.git", "documentation")
	})
	t.Run("a redirect from an outside server to a private target", func(t *testing.T) {
		refused(outer.URL+"/to-interface", "address of this host")
		refused(outer.URL+"/to-loopback", "loopback")
		refused(outer.URL+"/to-private", "RFC 1918")
		refused(outer.URL+"/to-zone", "zone id")
		refused(outer.URL+"/to-testnet", "TEST-NET-2")
		if outerHits.Load() != 5 {
			t.Errorf("the outside server had %d requests, want 5", outerHits.Load())
		}
	})
	t.Run("a timestamp that is not a date-time is 400 before any fetch", func(t *testing.T) {
		before := outerHits.Load()
		for _, ts := range []any{"yesterday", "2026-13-01T00:00:00Z", 12, true} {
			gitImport(e, e.Admin, sp, map[string]any{"url": outer.URL + "/to-loopback", "ref": "main", "timestamp": ts}).
				ExpectError(400).ExpectMessage("timestamp", "date-time")
		}
		if outerHits.Load() != before {
			t.Error("the server was fetched")
		}
	})
	if n := innerHits.Load(); n != 0 {
		t.Errorf("the server on this host's interface address had %d requests, want 0", n)
	}
	if headOf(e, sp) != head {
		t.Error("the head moved")
	}
}

// Outbound fetches are bounded in number: with one allowed and one held by a server that does
// not answer, another import waits briefly, then gets 503 with Retry-After.
func TestGitImportsBeyondTheFetchLimitGet503(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	entered := make(chan struct{}, 1)
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case entered <- struct{}{}:
		default:
		}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer silent.Close()
	defer close(release)
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.FetchMaxConcurrent = 1 })
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	first := make(chan int, 1)
	go func() {
		r := e.Post(e.Admin, "/v1/spaces/"+sp+"/git/import", map[string]any{"url": silent.URL + "/repo.git", "ref": "main"})
		first <- r.Status
	}()
	<-entered
	r := gitImport(e, e.Admin, sp, map[string]any{"url": silent.URL + "/other.git", "ref": "main"}).ExpectError(503).
		ExpectMessage("url", "outbound fetches", "DOCSD_FETCH_MAX_CONCURRENT")
	if r.Header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
	release <- struct{}{} // the silent server lets the first import go; it fails as no Git
	if s := <-first; s != 502 && s != 400 {
		t.Errorf("the first import: %d, want the remote's failure", s)
	}
}
