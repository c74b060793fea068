package jsrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// invokeSrc runs a whole module source and returns what Invoke returned.
func invokeSrc(t *testing.T, r *Runner, src string) (*Response, *Trace, error) {
	t.Helper()
	return r.Invoke(context.Background(), mustPrepare(t, src), Request{Method: "GET", URL: "https://integration.test/v1"}, nil)
}

func wantFailure(t *testing.T, trace *Trace, err error, kind error, within time.Duration) {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error = %v, want %v", err, kind)
	}
	if !trace.Failed || trace.Error == "" {
		t.Fatalf("trace not marked failed: %+v", trace)
	}
	if trace.Duration > within {
		t.Fatalf("took %s, want under %s", trace.Duration, within)
	}
}

func TestInvokeLimits(t *testing.T) {
	quick := newTestRunner(Limits{Time: 300 * time.Millisecond, Memory: 16 << 20, ResponseBytes: 1000})
	// The memory and stack cases run with time to spare: on a loaded machine filling 16 MiB or
	// the stack can take longer than the quick runner's 300ms, and the limit under test must be
	// the one that stops them.
	roomy := newTestRunner(Limits{Time: 10 * time.Second, Memory: 16 << 20, ResponseBytes: 1000})
	cases := []struct {
		name string
		src  string
		kind error
	}{
		{"an infinite loop is stopped by the time limit",
			`export default { fetch() { for (;;) {} } };`, ErrTimeLimit},
		{"an infinite loop in a promise job is stopped by the time limit",
			`export default { async fetch() { await null; for (;;) {} } };`, ErrTimeLimit},
		{"an infinite loop at the top level is stopped by the time limit",
			`for (;;) {} export default { fetch() {} };`, ErrTimeLimit},
		{"a loop that catches the interrupt is still stopped",
			`export default { fetch() { for (;;) { try { for (;;) {} } catch (e) {} } } };`, ErrTimeLimit},
		{"a chain of timers is stopped by the time limit",
			`export default { fetch() { return new Promise(() => { const tick = () => setTimeout(tick, 5); tick(); }); } };`, ErrTimeLimit},
		{"a timer due after the deadline is the time limit",
			`export default { fetch() { return new Promise((ok) => setTimeout(() => ok(new Response("late")), 60000)); } };`, ErrTimeLimit},
		{"an allocation loop is stopped by the memory limit",
			`export default { fetch() { const a = []; for (let i = 0; ; i++) a.push("x".repeat(1 << 16) + i); } };`, ErrMemoryLimit},
		{"an allocation loop in a promise job is stopped by the memory limit",
			`export default { async fetch() { await null; const a = []; for (let i = 0; ; i++) a.push(new Array(1 << 14).fill(i)); } };`, ErrMemoryLimit},
		{"runaway recursion is stopped by the stack limit",
			`function f(n) { return f(n + 1) + 1; } export default { fetch() { return f(0); } };`, ErrStackLimit},
		{"a response over the size limit is refused",
			`export default { fetch() { return new Response("x".repeat(2000)); } };`, ErrResponseLimit},
		{"a thrown error fails the invocation",
			`export default { fetch() { throw new Error("boom"); } };`, ErrThrown},
		{"a script's error that mentions a limit is the script's",
			`export default { fetch() { throw new Error("interrupted: out of memory, stack overflow"); } };`, ErrThrown},
		{"a rejected promise fails the invocation",
			`export default { async fetch() { await null; throw new TypeError("async boom"); } };`, ErrThrown},
		{"a throw at the top level fails the invocation",
			`throw new Error("top"); export default { fetch() {} };`, ErrThrown},
		{"a handler that is not a Response fails the invocation",
			`export default { fetch() { return "plain"; } };`, ErrThrown},
		{"Response.error() fails the invocation",
			`export default { fetch() { return Response.error(); } };`, ErrThrown},
		{"a promise nothing will settle fails the invocation",
			`export default { fetch() { return new Promise(() => {}); } };`, ErrNoResponse},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, within := quick, 5*time.Second
			if c.kind == ErrMemoryLimit || c.kind == ErrStackLimit {
				r, within = roomy, 10*time.Second
			}
			_, trace, err := invokeSrc(t, r, c.src)
			wantFailure(t, trace, err, c.kind, within)
		})
	}
}

func TestInvokeThrownErrorIsInTheTrace(t *testing.T) {
	r := newTestRunner(Limits{})
	res, trace, err := invokeSrc(t, r, `export default { fetch() { console.log("before"); throw new RangeError("the reason"); } };`)
	if res != nil || !errors.Is(err, ErrThrown) {
		t.Fatalf("res %v err %v", res, err)
	}
	if !strings.Contains(trace.Error, "RangeError: the reason") || !strings.Contains(trace.Error, "fetch") {
		t.Fatalf("trace error %q does not name the error and its stack", trace.Error)
	}
	if len(trace.Logs) != 1 || trace.Logs[0].Message != "before" {
		t.Fatalf("logs before the throw are kept: %+v", trace.Logs)
	}
}

func TestInvokeCancelledContext(t *testing.T) {
	r := newTestRunner(Limits{Time: 10 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, trace, err := r.Invoke(ctx, mustPrepare(t, `export default { fetch() { for (;;) {} } };`), Request{URL: "https://i.test/"}, nil)
	wantFailure(t, trace, err, ErrTimeLimit, 3*time.Second)
}

func TestInvokeNoStateLeaksBetweenInvocations(t *testing.T) {
	r := newTestRunner(Limits{})
	s := mustPrepare(t, `
let count = 0;
export default { fetch() {
  count++;
  const seen = [count, typeof globalThis.leaked, typeof Array.prototype.leaked, typeof URL.leaked, typeof globalThis.fetch];
  globalThis.leaked = 1;
  Array.prototype.leaked = 1;
  URL.leaked = 1;
  globalThis.fetch = null;
  setTimeout(() => { globalThis.fromTimer = 1; }, 0);
  return new Response(JSON.stringify(seen) + " " + typeof globalThis.fromTimer);
} };`)
	for i := 0; i < 3; i++ {
		res, _, err := r.Invoke(context.Background(), s, Request{URL: "https://i.test/"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(res.Body); got != `[1,"undefined","undefined","undefined","function"] undefined` {
			t.Fatalf("invocation %d saw %s", i+1, got)
		}
	}
}

func TestInvokeAwaitsWaitUntil(t *testing.T) {
	r := newTestRunner(Limits{})
	res, trace, err := invokeSrc(t, r, `export default { fetch(req, env, ctx) {
  ctx.waitUntil(new Promise((ok) => setTimeout(() => { console.log("first done"); ok(); }, 30)));
  ctx.waitUntil(Promise.reject(new Error("side failure")));
  ctx.waitUntil((async () => { await null; ctx.waitUntil(new Promise((ok) => setTimeout(() => { console.log("nested done"); ok(); }, 10))); })());
  return new Response("answered");
} };`)
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Body) != "answered" {
		t.Fatalf("body %q", res.Body)
	}
	var msgs []string
	for _, l := range trace.Logs {
		msgs = append(msgs, l.Level+":"+strings.SplitN(l.Message, "\n", 2)[0])
	}
	joined := strings.Join(msgs, "|")
	for _, want := range []string{"log:first done", "log:nested done", "error:Uncaught (in waitUntil) Error: side failure"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("logs %q lack %q", joined, want)
		}
	}
}

func TestInvokeWaitUntilPastTheTimeLimitFails(t *testing.T) {
	r := newTestRunner(Limits{Time: 200 * time.Millisecond})
	_, trace, err := invokeSrc(t, r, `export default { fetch(req, env, ctx) {
  ctx.waitUntil(new Promise((ok) => setTimeout(ok, 60000)));
  return new Response("answered");
} };`)
	wantFailure(t, trace, err, ErrTimeLimit, 3*time.Second)
}

func TestPrepareRefusesWhatDoesNotParse(t *testing.T) {
	_, err := Prepare("export default {\n  fetch() {\n    return new Response(;\n  }\n};\n")
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v is not a ParseError", err)
	}
	if pe.Line != 3 || !strings.Contains(pe.Error(), "line 3") {
		t.Fatalf("parse error %q does not name line 3", pe.Error())
	}
}

func TestPrepareRefusesAScriptWithoutDefaultExport(t *testing.T) {
	for _, src := range []string{
		"export const handler = { fetch() {} };",
		`export const handler = "default"; // the word alone is no default export`,
		"const x = { fetch() {} };",
	} {
		_, err := Prepare(src)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(pe.Message, "default export") {
			t.Fatalf("%s: error %v", src, err)
		}
	}
	for _, src := range []string{
		"const worker = { fetch() { return new Response('a'); } }; export { worker as default };",
		"export default { fetch() { return new Response('a'); } };",
	} {
		if _, err := Prepare(src); err != nil {
			t.Fatalf("%s: %v", src, err)
		}
	}
}

func TestInvokeLogsAreCappedAndLevelled(t *testing.T) {
	r := newTestRunner(Limits{LogBytes: 300})
	_, trace, err := invokeSrc(t, r, `export default { fetch() {
  console.debug("d"); console.info("i"); console.log("l %s=%d", "n", 5); console.warn("w", {a: [1]}); console.error(new Error("e"));
  for (let i = 0; i < 100; i++) console.log("filler filler filler");
  return new Response("");
} };`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"debug:d", "info:i", "log:l n=5", `warn:w {"a":[1]}`, "error:Error: e"}
	for i, w := range want {
		got := trace.Logs[i].Level + ":" + strings.SplitN(trace.Logs[i].Message, "\n", 2)[0]
		if got != w {
			t.Fatalf("log %d = %q, want %q", i, got, w)
		}
	}
	total := 0
	for _, l := range trace.Logs {
		total += len(l.Message)
	}
	last := trace.Logs[len(trace.Logs)-1].Message
	if total > 300 || !strings.Contains(last, "logs cut") {
		t.Fatalf("logs not capped: %d bytes, last %q", total, last)
	}
	_, trace, err = invokeSrc(t, r, `export default { fetch() { for (let i = 0; i < 100000; i++) console.log(""); return new Response(""); } };`)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(trace.Logs); n > 300/logEntryCost+1 {
		t.Fatalf("%d empty log entries kept", n)
	}
}

func TestInvokeConcurrentInvocationsAreIndependent(t *testing.T) {
	r := newTestRunner(Limits{Time: 2 * time.Second})
	s := mustPrepare(t, `let n = 0; export default { async fetch(request) {
  n++;
  await new Promise((ok) => setTimeout(ok, 20));
  return new Response(new URL(request.url).searchParams.get("i") + ":" + n);
} };`)
	loop := mustPrepare(t, `export default { fetch() { for (;;) {} } };`)
	const workers = 6
	errs := make(chan error, workers+1)
	go func() {
		// A runaway script beside them stops at its own limit and stops no one else.
		_, _, err := r.Invoke(context.Background(), loop, Request{URL: "https://i.test/"}, nil)
		if !errors.Is(err, ErrTimeLimit) {
			errs <- fmt.Errorf("the runaway script ended with %v", err)
			return
		}
		errs <- nil
	}()
	for i := 0; i < workers; i++ {
		go func() {
			res, _, err := r.Invoke(context.Background(), s, Request{URL: fmt.Sprintf("https://i.test/?i=%d", i)}, nil)
			if err != nil {
				errs <- err
				return
			}
			if got, want := string(res.Body), fmt.Sprintf("%d:1", i); got != want {
				errs <- fmt.Errorf("invocation %d answered %q, want %q", i, got, want)
				return
			}
			errs <- nil
		}()
	}
	for i := 0; i < workers+1; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}

func TestEngineInterface(t *testing.T) {
	var e Engine = newTestRunner(Limits{})
	src := `export default { fetch() { return new Response("via the interface"); } };`
	a, err := e.Prepare(src)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := e.Prepare(src)
	c, _ := e.Prepare(src + "\n// another version")
	if a.Version() != b.Version() || a.Version() == c.Version() || len(a.Version()) != 64 {
		t.Fatalf("versions %q %q %q", a.Version(), b.Version(), c.Version())
	}
	res, _, err := e.Invoke(context.Background(), a, Request{URL: "https://i.test/"}, nil)
	if err != nil || string(res.Body) != "via the interface" {
		t.Fatalf("%v %v", res, err)
	}
	if _, err := e.Prepare("export default {"); err == nil {
		t.Fatal("a script that does not parse was prepared")
	}
}

func TestInvokeEntryPointsCannotBeReplaced(t *testing.T) {
	res, _, err := invokeSrc(t, newTestRunner(Limits{}), `
try { globalThis.__docsd_result = () => '{"status":200,"body":"forged"}'; } catch (e) {}
try { Object.defineProperty(globalThis, "__docsd_state", { value: () => "done" }); } catch (e) {}
export default { fetch() { return new Response("real"); } };`)
	if err != nil || string(res.Body) != "real" {
		t.Fatalf("%v %v", res, err)
	}
}

func TestHostOperationsSurviveBadArguments(t *testing.T) {
	inv := &invocation{limits: Limits{}.withDefaults()}
	for _, args := range [][]any{{}, {"crypto.rsa.verify"}, {"crypto.aes.encrypt", "", "k"}, {"fetch"}, {"no such op"}, {"text.decode", "€"}} {
		if _, err := inv.host(args); err == nil {
			t.Errorf("host(%q) did not fail", args)
		}
	}
}
