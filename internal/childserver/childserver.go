// Package childserver runs the docsd binary as a child process on a loopback port, for the
// programs that test the server as it is shipped (crash loops, benchmarks): it reads the
// address and the first start's API token from the child's output, and stops or kills it.
package childserver

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

// Options say how to run the child.
type Options struct {
	Bin         string   // the docsd binary
	DataDir     string   // -data-dir
	DatabaseURL string   // -database-url; "" for SQLite in DataDir
	LogPath     string   // the child's stderr is appended here
	Env         []string // DOCSD_* settings; the parent's own DOCSD_* variables are not passed on
}

// Child is docsd running as a child process.
type Child struct {
	Base  string // http://host:port
	Token string // the API token a first start prints; "" on later starts
	PID   int
	cmd   *exec.Cmd
	done  chan struct{}
}

const tokenLine, serveLine = "API token: ", "docsd is serving the API at "

// Start runs `docsd serve` on a free loopback port and returns once it answers requests,
// or fails after a minute.
func Start(ctx context.Context, o Options) (*Child, error) {
	logFile, err := os.OpenFile(o.LogPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	defer logFile.Close()
	args := []string{"serve", "-addr", "127.0.0.1:0", "-data-dir", o.DataDir}
	if o.DatabaseURL != "" {
		args = append(args, "-database-url", o.DatabaseURL)
	}
	cmd := exec.Command(o.Bin, args...)
	cmd.Env = Environ(o.Env...)
	cmd.Stderr = logFile
	// The kernel kills the child if the parent dies, so no server outlives a run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &Child{cmd: cmd, PID: cmd.Process.Pid, done: make(chan struct{})}
	ready := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, tokenLine); ok {
				c.Token = strings.TrimSpace(v)
			}
			if v, ok := strings.CutPrefix(line, serveLine); ok {
				apiURL, _, _ := strings.Cut(v, " ")
				if u, err := url.Parse(apiURL); err == nil {
					c.Base = "http://" + u.Host
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
		return nil, fmt.Errorf("docsd exited before serving; see %s", o.LogPath)
	case <-time.After(60 * time.Second):
		c.Kill()
		return nil, fmt.Errorf("docsd did not start within 60s; see %s", o.LogPath)
	case <-ctx.Done():
		c.Kill()
		return nil, ctx.Err()
	}
}

// Environ is this process's environment without its DOCSD_* settings, then extra: what a
// docsd command run by a test program sees, so that it runs with the settings the program
// chose whatever the shell holds.
func Environ(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DOCSD_") {
			env = append(env, kv)
		}
	}
	return append(env, extra...)
}

// Memory reads the child's peak (VmHWM) and current (VmRSS) resident set sizes, in bytes.
func (c *Child) Memory() (peak, now int64, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.PID))
	if err != nil {
		return 0, 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		for key, dst := range map[string]*int64{"VmHWM:": &peak, "VmRSS:": &now} {
			if v, ok := strings.CutPrefix(line, key); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
				if err != nil {
					return 0, 0, err
				}
				*dst = kb << 10
			}
		}
	}
	if peak == 0 {
		return 0, 0, fmt.Errorf("no VmHWM in /proc/%d/status", c.PID)
	}
	return peak, now, nil
}

// Kill ends the child with SIGKILL, as a crash or an out-of-memory kill would, and waits
// until it is gone.
func (c *Child) Kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
}

// Stop sends SIGTERM (docsd drains and exits) and kills the child after 30 seconds.
func (c *Child) Stop() {
	c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.done:
	case <-time.After(30 * time.Second):
		c.Kill()
	}
}

// Done is closed when the child has exited.
func (c *Child) Done() <-chan struct{} { return c.done }
