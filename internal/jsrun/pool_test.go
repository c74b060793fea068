package jsrun

import (
	"context"
	"strings"
	"testing"
	"time"
)

// waitWarm waits, boundedly, until the pool holds n warm VMs for s.
func waitWarm(t *testing.T, r *Runner, s *Script, n int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if vms, _ := r.pool.ready(s); vms >= n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the pool did not warm %d VMs in 10s", n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Warm VMs are fresh: each runs one invocation, so nothing one event leaves (globals, changed
// built-ins, timers) reaches the next, and each invocation sees its own request. What the
// script logged while its VM was warmed is in the trace of the invocation that used it.
func TestWarmVMsAreFresh(t *testing.T) {
	r := newTestRunner(Limits{}).WithWarmVMs(2)
	s := mustPrepare(t, `
console.log("loaded");
let count = 0;
export default { async fetch(request) {
  count++;
  const seen = [count, typeof globalThis.leaked, typeof Array.prototype.leaked, await request.text()];
  globalThis.leaked = 1;
  Array.prototype.leaked = 1;
  return new Response(JSON.stringify(seen));
} };`)
	for i := 0; i < 6; i++ {
		if i > 0 {
			waitWarm(t, r, s, 1)
		}
		body := strings.Repeat("x", i)
		res, trace, err := r.Invoke(context.Background(), s, Request{Method: "POST", URL: "https://i.test/", Body: []byte(body)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(res.Body), `[1,"undefined","undefined","`+body+`"]`; got != want {
			t.Fatalf("invocation %d saw %s, want %s", i+1, got, want)
		}
		if logs := logText(trace); strings.Count(logs, "log:loaded") != 1 {
			t.Fatalf("invocation %d logs %q", i+1, logs)
		}
	}
	if _, hits := r.pool.ready(s); hits != 5 {
		t.Fatalf("%d of the 5 later invocations used a warm VM", hits)
	}
}

// A warm VM is held to the limits of the invocation that takes it, from when it takes it.
func TestWarmVMsKeepTheLimits(t *testing.T) {
	r := newTestRunner(Limits{Time: 300 * time.Millisecond}).WithWarmVMs(1)
	s := mustPrepare(t, `export default { fetch(request) { if (request.url.endsWith("/loop")) for (;;) {} return new Response("ok"); } };`)
	if _, _, err := r.Invoke(context.Background(), s, Request{URL: "https://i.test/"}, nil); err != nil {
		t.Fatal(err)
	}
	waitWarm(t, r, s, 1)
	time.Sleep(400 * time.Millisecond) // longer than the time limit: the warm VM's own clock must not count
	_, trace, err := r.Invoke(context.Background(), s, Request{URL: "https://i.test/loop"}, nil)
	wantFailure(t, trace, err, ErrTimeLimit, 3*time.Second)
	if trace.Duration < 250*time.Millisecond {
		t.Fatalf("the invocation stopped after %s, before its own time limit", trace.Duration)
	}
	if _, hits := r.pool.ready(s); hits != 1 {
		t.Fatalf("hits %d", hits)
	}
}
