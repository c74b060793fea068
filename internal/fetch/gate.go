package fetch

import (
	"context"
	"errors"
	"time"
)

// ErrBusy is a fetch refused because as many as the operator allows are running already: no
// one's fault, try again shortly (a 503 for the API).
var ErrBusy = errors.New("too many outbound fetches at once")

// Gate bounds how many outbound fetches run at once across a process, so a burst of requests
// naming slow servers cannot hold every connection and goroutine. The zero Gate and a nil
// *Gate admit everything.
type Gate struct {
	slots chan struct{}
	wait  time.Duration
}

// DefaultMaxConcurrent and DefaultGateWait are the gate's defaults.
const (
	DefaultMaxConcurrent = 8
	DefaultGateWait      = 5 * time.Second
)

// NewGate admits n fetches at once (DefaultMaxConcurrent when n <= 0); a fetch that finds
// them all busy waits up to wait for one to finish, then is refused with ErrBusy.
func NewGate(n int, wait time.Duration) *Gate {
	if n <= 0 {
		n = DefaultMaxConcurrent
	}
	if wait < 0 {
		wait = 0
	}
	return &Gate{slots: make(chan struct{}, n), wait: wait}
}

// Enter takes a slot for one fetch to host; the caller calls release when the fetch is done.
func (g *Gate) Enter(ctx context.Context, host string) (release func(), err error) {
	if g == nil || g.slots == nil {
		return func() {}, nil
	}
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return func() { <-g.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
		return nil, newError(ErrBusy, host, "%d outbound fetches are running already, the most allowed at once (DOCSD_FETCH_MAX_CONCURRENT); try again shortly", cap(g.slots))
	}
}
