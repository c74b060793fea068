package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// loadSpec is a closed-loop load on one server: Connections keep-alive connections, each with
// one request in flight at a time.
type loadSpec struct {
	Addr        string // host:port on loopback
	Method      string // empty for GET
	Path        string
	Body        string // request body, sent as JSON
	Unique      bool   // a query parameter of its own on every request (see endpoint.Unique)
	Token       string // sent as a bearer token
	Connections int
	MaxRequests int64         // cap on requests sent over all phases, warm-up included
	BodyBytes   int64         // length every answer's body must have; negative for any
	Timeout     time.Duration // longest a request may take
	CPUOf       []string      // processes whose CPU time is read at each measured phase's edges ("self" is this one)
}

// loadResult adds up the measured phases.
type loadResult struct {
	Requests int64 // answered with 200 and the expected body, inside measured phases
	Errors   int64 // failed or unexpected answers, warm-up included
	FirstErr string
	Elapsed  time.Duration
	Latency  histogram
	CPU      []time.Duration // CPU time of each of CPUOf inside measured phases
	Dials    int             // connections opened; more than Connections means reconnects
	Phases   []float64       // requests/s of each measured phase
}

// perSecond is the measured throughput.
func (r *loadResult) perSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// cpuPerRequest is process i's CPU time per measured request.
func (r *loadResult) cpuPerRequest(i int) time.Duration {
	if r.Requests == 0 || i >= len(r.CPU) {
		return 0
	}
	return r.CPU[i] / time.Duration(r.Requests)
}

// load keeps a server's connections open across phases, so that phases on two servers can
// alternate: a noisy stretch of a shared machine then falls on both alike.
type load struct {
	spec    loadSpec
	request []byte
	conns   []*connection
	budget  atomic.Int64
	unique  atomic.Uint64 // numbers requests' URLs when spec.Unique
	result  loadResult
}

// connection is one closed loop's connection and tallies. Each has its own histogram, so the
// hot path takes no lock.
type connection struct {
	conn     net.Conn
	br       *bufio.Reader
	requests int64
	errors   int64
	firstErr error
	dials    int
	latency  histogram
}

// openLoad connects every connection before any phase, so none is made inside a measurement.
func openLoad(s loadSpec) (*load, error) {
	if s.Connections < 1 {
		return nil, errors.New("load: at least one connection is needed")
	}
	l := &load{spec: s, request: s.request(s.Path)}
	l.budget.Store(s.MaxRequests)
	l.result.CPU = make([]time.Duration, len(s.CPUOf))
	for range s.Connections {
		c := &connection{}
		if err := c.dial(s.Addr); err != nil {
			l.close()
			return nil, fmt.Errorf("load: connect to %s: %w", s.Addr, err)
		}
		l.conns = append(l.conns, c)
	}
	return l, nil
}

// request is the bytes of one request for path.
func (s loadSpec) request(path string) []byte {
	method, body := s.Method, ""
	if method == "" {
		method = http.MethodGet
	}
	if s.Body != "" {
		body = fmt.Sprintf("Content-Type: application/json\r\nContent-Length: %d\r\n", len(s.Body))
	}
	return []byte(fmt.Sprintf(
		"%s %s HTTP/1.1\r\nHost: %s\r\nUser-Agent: docsd-bench\r\nAccept: application/json\r\nAuthorization: Bearer %s\r\n%s\r\n%s",
		method, path, s.Addr, s.Token, body, s.Body))
}

// uniquePath is path with a query parameter no other request of the run has.
func uniquePath(path string, n uint64) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "bench=" + strconv.FormatUint(n, 10)
}

func (l *load) close() {
	for _, c := range l.conns {
		if c.conn != nil {
			c.conn.Close()
		}
	}
}

// phase drives the server for d. A measured phase adds its requests, latencies and CPU time
// to the result; a warm-up only counts errors. It ends early when MaxRequests is reached
// or ctx ends.
func (l *load) phase(ctx context.Context, d time.Duration, measured bool) error {
	var before []time.Duration
	if measured {
		var err error
		if before, err = sampleCPU(l.spec.CPUOf); err != nil {
			return err
		}
	}
	start := time.Now()
	end := start.Add(d)
	var stop atomic.Bool
	var wg sync.WaitGroup
	for _, c := range l.conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.loop(l, end, measured, &stop)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		// Closing the connections unblocks every loop at once.
		stop.Store(true)
		l.close()
		<-done
		return ctx.Err()
	}
	elapsed := time.Since(start)
	if !measured {
		return nil
	}
	after, err := sampleCPU(l.spec.CPUOf)
	if err != nil {
		return err
	}
	r := &l.result
	var requests int64
	for _, c := range l.conns {
		requests += c.requests
	}
	r.Phases = append(r.Phases, float64(requests-r.Requests)/elapsed.Seconds())
	r.Requests = requests
	r.Elapsed += elapsed
	for i := range after {
		r.CPU[i] += after[i] - before[i]
	}
	return nil
}

// finish gathers the tallies of every connection into the result.
func (l *load) finish() *loadResult {
	r := &l.result
	r.Errors, r.Dials, r.Latency = 0, 0, histogram{}
	for _, c := range l.conns {
		r.Errors += c.errors
		r.Dials += c.dials
		r.Latency.merge(&c.latency)
		if c.firstErr != nil && r.FirstErr == "" {
			r.FirstErr = c.firstErr.Error()
		}
	}
	return r
}

func sampleCPU(pids []string) ([]time.Duration, error) {
	out := make([]time.Duration, len(pids))
	for i, pid := range pids {
		d, err := processCPU(pid)
		if err != nil {
			return nil, err
		}
		out[i] = d
	}
	return out, nil
}

func (c *connection) dial(addr string) error {
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		return err
	}
	c.conn = conn
	c.dials++
	if c.br == nil {
		c.br = bufio.NewReaderSize(conn, 64<<10)
	} else {
		c.br.Reset(conn)
	}
	return nil
}

func (c *connection) loop(l *load, end time.Time, measured bool, stop *atomic.Bool) {
	s := l.spec
	for !stop.Load() {
		t0 := time.Now()
		if !t0.Before(end) || l.budget.Add(-1) < 0 {
			return
		}
		if c.conn == nil {
			if err := c.dial(s.Addr); err != nil {
				c.fail(err)
				time.Sleep(10 * time.Millisecond) // a server that is gone must not turn this into a spin
				continue
			}
		}
		c.conn.SetDeadline(t0.Add(s.Timeout))
		request := l.request
		if s.Unique {
			request = s.request(uniquePath(s.Path, l.unique.Add(1)))
		}
		n, keep, err := roundTrip(c.conn, c.br, request)
		elapsed := time.Since(t0)
		if err == nil && s.BodyBytes >= 0 && n != s.BodyBytes {
			err = fmt.Errorf("body of %d bytes, want %d", n, s.BodyBytes)
		}
		if err != nil {
			c.fail(err)
			keep = false
		} else if measured {
			c.requests++
			c.latency.record(elapsed)
		}
		if !keep {
			c.conn.Close()
			c.conn = nil
		}
	}
}

func (c *connection) fail(err error) {
	c.errors++
	if c.firstErr == nil {
		c.firstErr = err
	}
}

// roundTrip sends one request and reads its whole answer, returning the body's length and
// whether the connection may carry the next request.
func roundTrip(conn net.Conn, br *bufio.Reader, request []byte) (int64, bool, error) {
	if _, err := conn.Write(request); err != nil {
		return 0, false, err
	}
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		return 0, false, err
	}
	n, err := io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err != nil {
		return n, false, err
	}
	if resp.StatusCode != http.StatusOK {
		return n, !resp.Close, fmt.Errorf("status %d", resp.StatusCode)
	}
	return n, !resp.Close, nil
}
