package jsrun

import (
	"context"
	"net/http"
	"testing"
)

// mustPrepare prepares src or fails the test.
func mustPrepare(tb testing.TB, src string) *Script {
	tb.Helper()
	s, err := Prepare(src)
	if err != nil {
		tb.Fatalf("Prepare: %v", err)
	}
	return s
}

// mustEval runs body as the inside of an async fetch handler whose return value (any JSON-able
// value) is answered as JSON, and returns the decoded answer as a string.
func mustEval(tb testing.TB, r *Runner, body string) string {
	tb.Helper()
	return mustEvalEnv(tb, r, body, nil)
}

// mustEvalEnv is mustEval with env handed to the handler (as env).
func mustEvalEnv(tb testing.TB, r *Runner, body string, env any) string {
	tb.Helper()
	src := "export default { async fetch(request, env, ctx) {\n const ENV = env; const __v = await (async () => {\n" + body + "\n})();\n return new Response(typeof __v === 'string' ? __v : JSON.stringify(__v)); } };"
	res, trace, err := r.Invoke(context.Background(), mustPrepare(tb, src), Request{Method: "GET", URL: "https://integration.test/v1"}, env)
	if err != nil {
		tb.Fatalf("Invoke: %v (logs %+v)", err, trace.Logs)
	}
	if res.Status != http.StatusOK {
		tb.Fatalf("status %d", res.Status)
	}
	return string(res.Body)
}

func newTestRunner(limits Limits) *Runner { return NewRunner(nil, limits) }
