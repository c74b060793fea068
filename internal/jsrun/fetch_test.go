package jsrun

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"docsd/internal/fetch"
)

// fetchServer is a loopback server the policy treats as public (as tests do everywhere in
// docsd), and a Runner whose fetch goes through that policy.
func fetchServer(t *testing.T, opts fetch.Options, limits Limits) (*httptest.Server, *Runner) {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Served", "yes")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]string{"method": r.Method, "auth": r.Header.Get("Authorization"), "type": r.Header.Get("Content-Type"), "body": string(body)})
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(strings.Repeat("x", 4096))) })
	mux.HandleFunc("/moved", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/echo", http.StatusFound) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	opts.TestPublic = []netip.AddrPort{netip.MustParseAddrPort(srv.Listener.Addr().String())}
	return srv, NewRunner(fetch.New(opts), limits)
}

func TestFetchThroughThePolicy(t *testing.T) {
	srv, r := fetchServer(t, fetch.Options{}, Limits{})
	res, trace, err := invokeSrc(t, r, `export default { async fetch() {
  const a = await fetch("`+srv.URL+`/echo", {method: "POST", headers: {authorization: "Bearer t"}, body: JSON.stringify({x: 1})});
  const j = await a.json();
  const b = await fetch(new Request("`+srv.URL+`/moved"));
  const m = await fetch("`+srv.URL+`/moved", {redirect: "manual"});
  const form = new URLSearchParams({k: "v"});
  const c = await (await fetch("`+srv.URL+`/echo", {method: "PUT", body: form})).json();
  return Response.json([a.status, a.ok, a.headers.get("x-served"), j, b.redirected, b.url.endsWith("/echo"), m.status, m.headers.get("location"), c.type, c.body]);
} };`)
	if err != nil {
		t.Fatalf("%v %+v", err, trace)
	}
	want := `[201,true,"yes",{"auth":"Bearer t","body":"{\"x\":1}","method":"POST","type":"text/plain;charset=UTF-8"},true,true,302,"/echo","application/x-www-form-urlencoded;charset=UTF-8","k=v"]`
	if string(res.Body) != want {
		t.Fatalf("got  %s\nwant %s", res.Body, want)
	}
	if len(trace.Fetches) != 4 || trace.Fetches[0].Method != "POST" || trace.Fetches[0].Status != 201 || trace.Fetches[0].Bytes == 0 ||
		trace.Fetches[0].Host != srv.Listener.Addr().String() || trace.Fetches[2].Status != 302 {
		t.Fatalf("trace fetches %+v", trace.Fetches)
	}
}

// fetchError runs one fetch and returns the message the script caught, and the trace.
func fetchError(t *testing.T, r *Runner, url string) (string, *Trace) {
	t.Helper()
	res, trace, err := invokeSrc(t, r, `export default { async fetch() {
  try { await fetch("`+url+`"); return new Response("no error"); } catch (e) { return new Response(e.name + ": " + e.message); }
} };`)
	if err != nil {
		t.Fatal(err)
	}
	return string(res.Body), trace
}

func TestFetchRefusals(t *testing.T) {
	srv, r := fetchServer(t, fetch.Options{Timeout: 300 * time.Millisecond, MaxBytes: 1024}, Limits{})
	cases := []struct{ name, url, want string }{
		{"a private address is refused", "http://10.0.0.1/", "private"},
		{"loopback not allowed by the policy is refused", "http://127.0.0.1:1/", "loopback"},
		{"a host resolving to loopback is refused at dial time", "http://localhost:1/", "loopback"},
		{"a scheme other than http(s) is refused", "file:///etc/passwd", "scheme"},
		{"a server slower than the timeout fails", srv.URL + "/slow", "no complete answer within"},
		{"a body over the size cap fails", srv.URL + "/big", "larger than the limit"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg, trace := fetchError(t, r, c.url)
			if !strings.HasPrefix(msg, "TypeError: fetch failed") || !strings.Contains(msg, c.want) {
				t.Fatalf("script caught %q, want a TypeError naming %q", msg, c.want)
			}
			if len(trace.Fetches) != 1 || trace.Fetches[0].Error == "" {
				t.Fatalf("trace fetches %+v", trace.Fetches)
			}
		})
	}
}

func TestFetchCountLimit(t *testing.T) {
	srv, r := fetchServer(t, fetch.Options{}, Limits{Fetches: 2})
	res, trace, err := invokeSrc(t, r, `export default { async fetch() {
  const out = [];
  for (let i = 0; i < 3; i++) { try { out.push((await fetch("`+srv.URL+`/echo")).status); } catch (e) { out.push(e.message); } }
  return Response.json(out);
} };`)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.Body); got != `[201,201,"fetch failed: more than 2 requests in one invocation"]` {
		t.Fatalf("got %s", got)
	}
	if len(trace.Fetches) != 3 {
		t.Fatalf("trace fetches %+v", trace.Fetches)
	}
}

func TestFetchWithoutAClientFails(t *testing.T) {
	msg, _ := fetchError(t, newTestRunner(Limits{}), "https://example.com/")
	if !strings.Contains(msg, "not available") {
		t.Fatalf("got %q", msg)
	}
}

func TestFetchToDocsdsOwnAPIIsServedInProcess(t *testing.T) {
	api := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/v1/big" {
			w.Write([]byte(strings.Repeat("x", 2048)))
			return
		}
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("X-Local", "yes")
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte(r.Method + " " + r.URL.RequestURI() + " " + r.Header.Get("Authorization") + " " + string(body)))
	})
	// docsd's own address here is a private one, which the outbound policy refuses (before any
	// connection, as it is a literal): only the local route can answer it.
	r, err := NewRunner(fetch.New(fetch.Options{MaxBytes: 1024}), Limits{}).WithLocal("http://10.255.0.1/v1", api)
	if err != nil {
		t.Fatal(err)
	}
	res, trace, err := invokeSrc(t, r, `export default { async fetch() {
  const out = [];
  const a = await fetch("http://10.255.0.1/v1/spaces/a?x=1", {method: "POST", headers: {authorization: "Bearer inst"}, body: "hi"});
  out.push(a.status, a.headers.get("x-local"), await a.text());
  for (const u of ["http://10.255.0.1/v1x", "http://10.255.0.10/v1/a", "https://10.255.0.1/v1/a", "http://10.255.0.1/v1/big"]) {
    try { await fetch(u); out.push("served " + u); } catch (e) { out.push(e.message.includes("private") ? "refused" : e.message.includes("larger than") ? "too large" : e.message); }
  }
  return Response.json(out);
} };`)
	if err != nil {
		t.Fatal(err)
	}
	want := `[418,"yes","POST /v1/spaces/a?x=1 Bearer inst hi","refused","refused","refused","too large"]`
	if string(res.Body) != want {
		t.Fatalf("got  %s\nwant %s", res.Body, want)
	}
	if len(trace.Fetches) != 5 || trace.Fetches[0].Status != http.StatusTeapot || trace.Fetches[0].Host != "10.255.0.1" || !strings.Contains(trace.Fetches[4].Error, "larger than") {
		t.Fatalf("trace %+v", trace.Fetches)
	}
	if _, err := newTestRunner(Limits{}).WithLocal("docsd.internal", api); err == nil {
		t.Fatal("a base without a scheme was taken")
	}
}
