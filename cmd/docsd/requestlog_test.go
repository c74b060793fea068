package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The server writes a JSON line per request through jsonlog's fast path (a path slog would
// escape through the JSON handler's own), and both reach the log by the time serve returns.
func TestServeLogsEachRequestAsAJSONLine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, logs lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-data-dir", dir}, func(string) string { return "" }, &out, &logs)
	}()
	serving := regexp.MustCompile(`serving the API at (http://\S+)/v1 `)
	deadline := time.Now().Add(30 * time.Second)
	var base string
	for base == "" {
		if m := serving.FindStringSubmatch(out.String()); m != nil {
			base = m[1]
		} else if time.Now().After(deadline) {
			cancel()
			t.Fatalf("docsd did not start; stdout: %s", out.String())
		} else {
			time.Sleep(10 * time.Millisecond)
		}
	}
	client := &http.Client{Timeout: 10 * time.Second}
	ids := map[string]int{}
	for path, status := range map[string]int{"/healthz": 200, `/v1/no"such\path`: 404} {
		req, _ := http.NewRequest("GET", base+path, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != status {
			t.Fatalf("GET %s: %d, want %d", path, resp.StatusCode, status)
		}
		ids[resp.Header.Get("X-Request-Id")] = status
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	type line struct {
		Time, Level, Msg, RequestID, Method, Path, Route, Duration string
		Status, Bytes                                              int
	}
	found := map[string]line{}
	sc := bufio.NewScanner(strings.NewReader(logs.String()))
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("a log line is not JSON: %v: %s", err, sc.Text())
		}
		if l.Msg == "request" {
			found[l.RequestID] = l
		}
	}
	for id, status := range ids {
		l, ok := found[id]
		if !ok {
			t.Fatalf("no request line for request %s in\n%s", id, logs.String())
		}
		if _, err := time.Parse(time.RFC3339Nano, l.Time); err != nil || l.Level != "INFO" || l.Method != "GET" ||
			l.Status != status || !strings.HasSuffix(l.Duration, "ms") {
			t.Errorf("request line %+v (time: %v)", l, err)
		}
		switch status {
		case 200:
			if l.Path != "/healthz" || l.Route != "GET /healthz" || l.Bytes == 0 {
				t.Errorf("health line %+v", l)
			}
		case 404:
			if l.Path != `/v1/no"such\path` || l.Route != "unmatched" {
				t.Errorf("escaped line %+v", l)
			}
		}
	}
}
