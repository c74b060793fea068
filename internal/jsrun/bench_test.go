package jsrun

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Benchmarks of the engine. Run them with
//
//	go test ./internal/jsrun -run '^$' -bench . -benchtime 2s
//
// (test/jsrun/run.sh prints them in CI). Each reports events/s beside ns/op.

// reportRate adds events/s, and the process's CPU time per event: on a shared machine the wall
// time swings with the load, the CPU time much less.
func reportRate(b *testing.B, cpuStart time.Duration) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
	b.ReportMetric(float64((cpuTime()-cpuStart).Microseconds())/float64(b.N), "cpu-µs/op")
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// A small script: a fresh VM, the web APIs, the script, one request and its response.
func BenchmarkInvokeSmallScript(b *testing.B) {
	s := mustPrepare(b, `export default { async fetch(request) {
  const url = new URL(request.url);
  return Response.json({ path: url.pathname, method: request.method });
} };`)
	benchInvoke(b, s, Request{Method: "GET", URL: "https://i.test/v1/hello"})
}

// benchInvoke invokes s with req b.N times: with a fresh VM loaded by each invocation, and with
// VMs warmed ahead by the pool (whose loading, in the background, counts in the CPU time).
func benchInvoke(b *testing.B, s *Script, req Request) {
	for _, c := range []struct {
		name string
		warm int
		idle bool // the pool is refilled between events, outside the timer: an event's own wait
	}{{"fresh VM", 0, false}, {"warm pool, back to back", 2, false}, {"warm pool, spaced events", 2, true}} {
		b.Run(c.name, func(b *testing.B) {
			r := newTestRunner(Limits{}).WithWarmVMs(c.warm)
			b.ResetTimer()
			cpu := cpuTime()
			for i := 0; i < b.N; i++ {
				if c.idle {
					b.StopTimer()
					for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Microsecond) {
						if n, _ := r.pool.ready(s); n > 0 {
							break
						}
					}
					b.StartTimer()
				}
				if _, _, err := r.Invoke(context.Background(), s, req, nil); err != nil {
					b.Fatal(err)
				}
			}
			reportRate(b, cpu)
		})
	}
}

// An event through the real @gitbook/runtime (multipart parsing, createIntegration's
// dispatcher, the handler); skips without npm's packages.
func BenchmarkInvokeRuntimeEvent(b *testing.B) {
	s, err := Prepare(bundleTestIntegration(b))
	if err != nil {
		b.Fatal(err)
	}
	req, err := EventRequest("https://integrations.docsd.test", fetchEvent(), testEnvironment("https://api.docsd.test"), []byte(`{"hello":"world"}`))
	if err != nil {
		b.Fatal(err)
	}
	benchInvoke(b, s, req)
}

func fetchEvent() map[string]any {
	return map[string]any{
		"eventId": "bench", "type": "fetch", "installationId": "inst1",
		"request": map[string]any{"url": "https://docsd.test/hook?q=1", "method": "POST", "headers": map[string]string{"content-type": "application/json"}},
	}
}

// A fetch event's round trip over HTTP on loopback: a client's request to a server that hands
// it to the integration through the runtime, beside the same server answering with a plain Go
// handler, measured in the same run.
func BenchmarkFetchEventRoundTrip(b *testing.B) {
	plain := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusAccepted)
		w.Write([]byte(`{"method":"POST","path":"/hook"}`))
	})
	b.Run("plain Go handler", func(b *testing.B) { benchRoundTrip(b, plain) })
	b.Run("integration script", func(b *testing.B) {
		s, err := Prepare(bundleTestIntegration(b))
		if err != nil {
			b.Fatal(err)
		}
		r := newTestRunner(Limits{})
		env := testEnvironment("https://api.docsd.test")
		h := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
			body, _ := io.ReadAll(req.Body)
			ev := fetchEvent()
			ev["request"].(map[string]any)["url"] = "https://docsd.test" + req.URL.RequestURI()
			ereq, err := EventRequest("https://integrations.docsd.test", ev, env, body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			res, _, err := r.Invoke(req.Context(), s, ereq, nil)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			for k, vs := range res.Headers {
				w.Header()[k] = vs
			}
			w.WriteHeader(res.Status)
			w.Write(res.Body)
		})
		benchRoundTrip(b, h)
	})
}

func benchRoundTrip(b *testing.B, h http.Handler) {
	srv := httptest.NewServer(h)
	defer srv.Close()
	client := srv.Client()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; i < b.N; i++ {
		res, err := client.Post(srv.URL+"/hook?q=1", "application/json", strings.NewReader(`{"hello":"world"}`))
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusAccepted {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	reportRate(b, cpu)
}
