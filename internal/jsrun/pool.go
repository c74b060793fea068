package jsrun

import (
	"context"
	"sync"
	"time"

	"modernc.org/quickjs"
)

// A warm pool keeps, per script, VMs that have the web APIs and the script already evaluated,
// so an invocation starts at the dispatch. Each VM still runs exactly one invocation and is
// closed after it: a pooled VM is fresh, nothing of one event reaches the next. The pool is
// refilled in the background after each take, so the cost of loading moves off the caller's
// wait, not out of the process.
type vmPool struct {
	per int // VMs kept warm per script

	mu      sync.Mutex
	scripts map[*Script]*warmSet
	hits    int // invocations that found a warm VM, for tests
}

type warmSet struct {
	vms     []warmVM
	filling bool
	used    time.Time
}

// warmVM is a loaded VM and the invocation its host calls go to, which the invocation that
// takes it becomes.
type warmVM struct {
	vm  *quickjs.VM
	inv *invocation
}

// poolScripts bounds the scripts with warm VMs; the one used least recently loses its VMs
// when another needs room.
const poolScripts = 16

// WithWarmVMs returns a Runner that keeps n VMs per script loaded ahead of its invocations
// (0: none, every invocation loads its own).
func (r *Runner) WithWarmVMs(n int) *Runner {
	c := *r
	c.pool = nil
	if n > 0 {
		c.pool = &vmPool{per: n, scripts: map[*Script]*warmSet{}}
	}
	return &c
}

// take returns a warm VM for script, if one is ready, and starts refilling.
func (p *vmPool) take(r *Runner, script *Script) (warmVM, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	set := p.scripts[script]
	if set == nil {
		p.evictFor()
		set = &warmSet{}
		p.scripts[script] = set
	}
	set.used = time.Now()
	var w warmVM
	ok := len(set.vms) > 0
	if ok {
		p.hits++
		w = set.vms[len(set.vms)-1]
		set.vms = set.vms[:len(set.vms)-1]
	}
	if !set.filling && len(set.vms) < p.per {
		set.filling = true
		go p.fill(r, script, set)
	}
	return w, ok
}

// evictFor closes the VMs of the script used least recently when the pool is full; p.mu is
// held.
func (p *vmPool) evictFor() {
	if len(p.scripts) < poolScripts {
		return
	}
	var oldest *Script
	for s, set := range p.scripts {
		if !set.filling && (oldest == nil || set.used.Before(p.scripts[oldest].used)) {
			oldest = s
		}
	}
	if oldest == nil {
		return
	}
	for _, w := range p.scripts[oldest].vms {
		w.vm.Close()
	}
	delete(p.scripts, oldest)
}

// fill loads VMs for script until its set holds p.per. A script that fails to load gets none:
// its invocations load it themselves and report the failure.
func (p *vmPool) fill(r *Runner, script *Script, set *warmSet) {
	for {
		p.mu.Lock()
		if p.scripts[script] != set || len(set.vms) >= p.per {
			set.filling = false
			p.mu.Unlock()
			return
		}
		p.mu.Unlock()
		inv := r.newInvocation(context.Background(), Request{}, nil)
		vm, err := inv.load(script)
		p.mu.Lock()
		if err != nil || p.scripts[script] != set {
			set.filling = false
			p.mu.Unlock()
			if vm != nil {
				vm.Close()
			}
			return
		}
		set.vms = append(set.vms, warmVM{vm: vm, inv: inv})
		p.mu.Unlock()
	}
}

// ready reports how many warm VMs script has and how many invocations found one.
func (p *vmPool) ready(script *Script) (vms, hits int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if set := p.scripts[script]; set != nil {
		vms = len(set.vms)
	}
	return vms, p.hits
}
