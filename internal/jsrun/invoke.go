package jsrun

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"modernc.org/quickjs"

	"docsd/internal/fetch"
)

// Runner invokes prepared scripts under one set of limits and one outbound policy. It is safe
// for concurrent use: every invocation has its own VM.
type Runner struct {
	fetcher *fetch.Client
	limits  Limits
	local   *localHandler
	pool    *vmPool // nil: every invocation loads its own VM
}

// NewRunner builds a Runner. fetcher is the outbound client scripts' fetch() goes through;
// nil makes every fetch fail.
func NewRunner(fetcher *fetch.Client, limits Limits) *Runner {
	return &Runner{fetcher: fetcher, limits: limits.withDefaults()}
}

// WithLocal returns a Runner whose scripts' requests to base (docsd's own API, the
// environment's apiEndpoint) are served by h in the process, without the network: docsd's own
// address is usually loopback or private, which the outbound policy rightly refuses to
// anyone else's URL. base is a scheme, host and optional path prefix.
func (r *Runner) WithLocal(base string, h http.Handler) (*Runner, error) {
	u, err := url.Parse(base)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("jsrun: the local base %q is not an http(s) URL", base)
	}
	c := *r
	c.local = &localHandler{scheme: u.Scheme, host: strings.ToLower(u.Host), prefix: strings.TrimSuffix(u.Path, "/"), h: h}
	return &c, nil
}

var _ Engine = (*Runner)(nil)

// Prepare is the package's Prepare, for callers that hold an Engine.
func (r *Runner) Prepare(source string) (Prepared, error) {
	s, err := Prepare(source)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// invocation is one run of a script: its VM's host state and its trace.
type invocation struct {
	ctx      context.Context
	deadline time.Time
	limits   Limits
	fetcher  *fetch.Client
	local    *localHandler
	req      Request
	env      any
	trace    Trace
	logBytes int
	vm       *quickjs.VM // for host operations that evaluate on it (Intl)
}

// Invoke runs script in a fresh VM: it evaluates the script, hands req to its default export's
// fetch(request, env, ctx), runs promise jobs and timers until the response and every
// ctx.waitUntil promise settle, and returns the response. The trace is always returned; a
// failed invocation (a thrown error, a limit reached) also returns an *InvokeError.
func (r *Runner) Invoke(ctx context.Context, prepared Prepared, req Request, env any) (*Response, *Trace, error) {
	start := time.Now()
	script, ok := prepared.(*Script)
	if !ok {
		return nil, &Trace{Failed: true, Error: "not a script this engine prepared"}, fmt.Errorf("jsrun: %T is not a script this engine prepared", prepared)
	}
	inv := r.newInvocation(ctx, req, env)
	var warm *quickjs.VM
	if r.pool != nil {
		if w, ok := r.pool.take(r, script); ok {
			// The VM's host calls go to the invocation it was loaded with: that one becomes
			// this one, keeping what the script logged while it loaded.
			logs, logBytes := w.inv.trace.Logs, w.inv.logBytes
			*w.inv = *inv
			w.inv.trace.Logs, w.inv.logBytes, w.inv.vm = logs, logBytes, w.vm
			inv, warm = w.inv, w.vm
		}
	}
	res, err := inv.run(script, warm)
	inv.trace.Duration = time.Since(start)
	if err != nil {
		inv.trace.Failed = true
		inv.trace.Error = err.Error()
		return nil, &inv.trace, err
	}
	return res, &inv.trace, nil
}

// newInvocation starts an invocation of req with env under r's limits, ending at ctx's
// deadline when that comes first.
func (r *Runner) newInvocation(ctx context.Context, req Request, env any) *invocation {
	inv := &invocation{ctx: ctx, deadline: time.Now().Add(r.limits.Time), limits: r.limits, fetcher: r.fetcher, local: r.local, req: req, env: env}
	if d, ok := ctx.Deadline(); ok && d.Before(inv.deadline) {
		inv.deadline = d
	}
	if inv.req.Method == "" {
		inv.req.Method = http.MethodGet
	}
	if inv.env == nil {
		inv.env = map[string]any{}
	}
	return inv
}

// run runs script in vm when one was warmed for it (see pool.go), else in a new VM, which it
// closes after.
func (inv *invocation) run(script *Script, warm *quickjs.VM) (*Response, error) {
	vm := warm
	if vm == nil {
		var err error
		if vm, err = inv.load(script); err != nil {
			return nil, err
		}
	} else {
		vm.SetMemoryLimit(uintptr(inv.limits.Memory))
		vm.SetMaxStackSize(uintptr(inv.limits.Stack))
	}
	defer vm.Close()
	return inv.dispatch(vm)
}

// load makes a VM with the web APIs and script evaluated, ready for dispatch; the VM's host
// calls go to inv.
func (inv *invocation) load(script *Script) (*quickjs.VM, error) {
	pre, err := preludeBytecode()
	if err != nil {
		return nil, fmt.Errorf("jsrun: the web APIs do not compile: %w", err)
	}
	vm, err := quickjs.NewVM()
	if err != nil {
		return nil, err
	}
	vm.SetMemoryLimit(uintptr(inv.limits.Memory))
	vm.SetMaxStackSize(uintptr(inv.limits.Stack))
	if err := vm.RegisterHostFunc("__docsd_host", inv.host); err != nil {
		vm.Close()
		return nil, err
	}
	inv.vm = vm
	stop := context.AfterFunc(inv.ctx, vm.Interrupt)
	defer stop()
	for _, bc := range [][]byte{pre, script.bytecode} {
		if err := inv.arm(vm); err != nil {
			vm.Close()
			return nil, err
		}
		if _, err := vm.EvalBytecode(bc); err != nil {
			vm.Close()
			return nil, inv.classifyErr(err)
		}
	}
	return vm, nil
}

// arm gives the next call into the engine what is left of the invocation's time.
func (inv *invocation) arm(vm *quickjs.VM) error {
	left := time.Until(inv.deadline)
	if err := inv.ctx.Err(); err != nil {
		return &InvokeError{Kind: ErrTimeLimit, Message: "the invocation was cancelled: " + err.Error()}
	}
	if left <= 0 {
		return inv.timeLimit()
	}
	return vm.SetEvalTimeout(left)
}

// dispatch hands the request to the loaded script's fetch handler and runs promise jobs and
// timers until the response and every ctx.waitUntil promise settle.
func (inv *invocation) dispatch(vm *quickjs.VM) (*Response, error) {
	// A cancelled caller stops the script at once; the loop below sees ctx.Err() after.
	stop := context.AfterFunc(inv.ctx, vm.Interrupt)
	defer stop()
	eval := func(code string) (string, error) {
		if err := inv.arm(vm); err != nil {
			return "", err
		}
		v, err := vm.Eval(code, quickjs.EvalGlobal)
		if err != nil {
			return "", inv.classifyErr(err)
		}
		s, _ := v.(string)
		return s, nil
	}
	if _, err := eval("__docsd_start()"); err != nil {
		return nil, err
	}
	for {
		if err := inv.arm(vm); err != nil {
			return nil, err
		}
		if _, err := vm.ExecutePendingJobs(); err != nil {
			// A job's exception that a promise did not take (an interrupt, a host panic) ends
			// the run; rejections the script handles never reach here.
			return nil, inv.classifyErr(err)
		}
		state, err := eval("__docsd_state()")
		if err != nil {
			return nil, err
		}
		if state == "done" {
			break
		}
		wait, ok := strings.CutPrefix(state, "timer:")
		if !ok {
			return nil, &InvokeError{Kind: ErrNoResponse, Message: "the script's response never settled: nothing is left to run (no timer, no pending request)"}
		}
		ms, _ := strconv.ParseFloat(wait, 64)
		d := time.Duration(ms * float64(time.Millisecond))
		if left := time.Until(inv.deadline); d > left {
			inv.sleep(left)
			return nil, inv.timeLimit()
		}
		inv.sleep(d)
		if _, err := eval("__docsd_timers()"); err != nil {
			return nil, err
		}
	}
	out, err := eval("__docsd_result()")
	if err != nil {
		return nil, err
	}
	return inv.response(out)
}

func (inv *invocation) sleep(d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-inv.ctx.Done():
	}
}
