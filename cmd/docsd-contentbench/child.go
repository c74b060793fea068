package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// child is docsd running as a child process.
type child struct {
	cmd   *exec.Cmd
	base  string // http://host:port
	token string // printed on a first start only
	done  chan struct{}
	log   string
}

// startDocsd runs `docsd serve` on a free loopback port. Uploaded imports are committed
// within their request (the benchmark times them), whatever their size.
func startDocsd(ctx context.Context, bin, dataDir, dbURL, logPath, cpuProfile string) (*child, error) {
	logFile, err := os.OpenFile(logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-data-dir", dataDir, "-database-url", dbURL)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DOCSD_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	// One token makes every edit, far past the default rate limits: they are set out of
	// reach, so that each request still pays for counting.
	cmd.Env = append(cmd.Env, "DOCSD_LOG_LEVEL=warn", "DOCSD_IMPORT_SYNC_PAGES=1000000", "DOCSD_MAX_BODY_BYTES=268435456",
		"DOCSD_RATE_LIMIT_TOKEN=1000000000", "DOCSD_RATE_LIMIT_ADDRESS=1000000000", "DOCSD_RATE_LIMIT_EXPENSIVE=1000000000",
		"DOCSD_CPU_PROFILE="+cpuProfile)
	cmd.Stderr = logFile
	// The kernel kills the child if the benchmark dies, so no server outlives a run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &child{cmd: cmd, done: make(chan struct{}), log: logPath}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "API token: "); ok {
				c.token = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, "docsd is serving the API at "); ok {
				apiURL, _, _ := strings.Cut(v, " ")
				if u, err := url.Parse(apiURL); err == nil {
					c.base = "http://" + u.Host
				}
				close(ready)
				break
			}
		}
		io.Copy(io.Discard, out)
		cmd.Wait()
		close(c.done)
	}()
	select {
	case <-ready:
		return c, nil
	case <-c.done:
		return nil, fmt.Errorf("docsd exited before serving; see %s", logPath)
	case <-time.After(60 * time.Second):
		c.stop()
		return nil, fmt.Errorf("docsd did not start within 60s; see %s", logPath)
	case <-ctx.Done():
		c.stop()
		return nil, ctx.Err()
	}
}

// stop sends SIGTERM (docsd drains and exits) and kills it after 30 seconds.
func (c *child) stop() {
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		<-c.done
	}
}

// peakRSS is the child's peak resident set size (VmHWM), in bytes.
func (c *child) peakRSS() (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmHWM in /proc/%d/status", c.cmd.Process.Pid)
}
