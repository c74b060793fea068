package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
)

// bareEnv names the file of answers when this program runs as the bare handler. It is an
// environment variable rather than a flag so that it stays out of -h.
const bareEnv = "DOCSD_BENCH_BARE_ANSWERS"

// bareListening is the line the bare handler prints once it accepts connections.
const bareListening = "bare handler listening on "

// serveBare is the baseline: the standard library's HTTP server with a handler that only
// writes a fixed answer per path, the same bytes docsd sent for it. It runs until SIGTERM.
func serveBare(answersPath string) error {
	raw, err := os.ReadFile(answersPath)
	if err != nil {
		return err
	}
	var answers map[string][]byte // path → body
	if err := json.Unmarshal(raw, &answers); err != nil {
		return fmt.Errorf("read %s: %w", answersPath, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		// With its length, as docsd sends its answers: the same framing and writes.
		h := w.Header()
		h.Set("Content-Type", "application/json; charset=utf-8")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.Write(body)
	})}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	fmt.Printf("%s%s\n", bareListening, ln.Addr())
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		return err
	}
	return nil
}

// startBare runs this program again as the bare handler, answering what answersPath holds.
func startBare(ctx context.Context, answersPath string) (*server, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self)
	cmd.Env = childEnv(bareEnv + "=" + answersPath)
	cmd.Stderr = os.Stderr
	s, got, err := start(ctx, "bare handler", cmd, bareListening)
	if err != nil {
		return nil, err
	}
	s.addr = strings.TrimSpace(got[bareListening])
	return s, nil
}
