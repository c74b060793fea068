package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// server is a server under test, running as a child process.
type server struct {
	name string
	cmd  *exec.Cmd
	addr string // host:port it listens on
	done chan struct{}
	err  error // how the process ended, once done is closed
}

// pid names the process for processCPU.
func (s *server) pid() string { return strconv.Itoa(s.cmd.Process.Pid) }

// start runs cmd and reads its stdout until every prefix in want has begun a line, returning
// the rest of each such line. stdout is drained afterwards so the child never blocks on it.
func start(ctx context.Context, name string, cmd *exec.Cmd, want ...string) (*server, map[string]string, error) {
	setParentDeathSignal(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("start %s: %w", name, err)
	}
	s := &server{name: name, cmd: cmd, done: make(chan struct{})}
	found := make(chan map[string]string, 1)
	go func() {
		got := map[string]string{}
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			for _, p := range want {
				if v, ok := strings.CutPrefix(sc.Text(), p); ok {
					got[p] = v
				}
			}
			if len(got) == len(want) {
				found <- got
				got = nil
				break
			}
		}
		io.Copy(io.Discard, out)
		s.err = cmd.Wait()
		close(s.done)
	}()
	timeout := time.NewTimer(60 * time.Second)
	defer timeout.Stop()
	select {
	case got := <-found:
		return s, got, nil
	case <-s.done:
		return nil, nil, fmt.Errorf("%s exited before it was ready: %v", name, s.err)
	case <-timeout.C:
		s.stop()
		return nil, nil, fmt.Errorf("%s did not print %q within 60s", name, want)
	case <-ctx.Done():
		s.stop()
		return nil, nil, ctx.Err()
	}
}

// stop asks the server to shut down (SIGTERM: docsd drains and writes its CPU profile), and
// kills it if it has not ended within 30 seconds.
func (s *server) stop() error {
	if s == nil {
		return nil
	}
	select {
	case <-s.done:
		return s.exitErr()
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
		return s.exitErr()
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
		return fmt.Errorf("%s did not stop within 30s of SIGTERM and was killed", s.name)
	}
}

func (s *server) exitErr() error {
	var exit *exec.ExitError
	if errors.As(s.err, &exit) && !exit.Success() {
		return fmt.Errorf("%s ended with %v", s.name, s.err)
	}
	return s.err
}

// childEnv is this process's environment without any DOCSD_* variable, plus extra: the
// servers under test must not pick up a database URL or other settings from the caller.
func childEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DOCSD_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}
