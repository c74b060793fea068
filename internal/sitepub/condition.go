package sitepub

import (
	"fmt"
	"sync"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/vm"
)

// Conditions are written by site editors (at most 1024 characters) and run on every page
// view, so each is compiled once and run under budgets: a bounded syntax tree and a bounded
// VM memory, which also bounds the work a range or a map over a range can do.
const (
	maxConditionNodes  = 256
	conditionMemBudget = 10_000
	maxCachedPrograms  = 4096
)

// Evaluator runs visibility conditions against a reader's claims.
type Evaluator struct {
	mu       sync.Mutex
	programs map[string]*vm.Program
}

// NewEvaluator returns an evaluator with an empty program cache.
func NewEvaluator() *Evaluator { return &Evaluator{programs: map[string]*vm.Program{}} }

// Visible reports whether condition holds for claims. An empty condition always holds. A
// condition that does not compile, fails, exceeds its budget or is not true hides what it
// guards: an editor's mistake must never show content meant for someone else.
func (e *Evaluator) Visible(condition string, c Claims) bool {
	if condition == "" {
		return true
	}
	p, err := e.program(condition)
	if err != nil {
		return false
	}
	machine := vm.VM{MemoryBudget: conditionMemBudget}
	out, err := machine.Run(p, c.env())
	if err != nil {
		return false
	}
	b, ok := out.(bool)
	return ok && b
}

func (e *Evaluator) program(condition string) (*vm.Program, error) {
	e.mu.Lock()
	p, ok := e.programs[condition]
	e.mu.Unlock()
	if ok {
		return p, nil
	}
	// No clock: what a reader sees is a function of the content and their claims alone, so a
	// rendered page can be kept for the reader's segment (sitehttp's cache) and its ETag holds.
	p, err := expr.Compile(condition, expr.AllowUndefinedVariables(), expr.MaxNodes(maxConditionNodes),
		expr.DisableBuiltin("now"))
	if err != nil {
		return nil, fmt.Errorf("condition %q: %w", condition, err)
	}
	e.mu.Lock()
	if len(e.programs) >= maxCachedPrograms {
		clear(e.programs)
	}
	e.programs[condition] = p
	e.mu.Unlock()
	return p, nil
}
