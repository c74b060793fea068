package apispec

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// Tally counts what a test process judged: answers, answers with a violation, and how often
// each operation of each document was called. Test processes write theirs to a directory
// (one file each); docsd-speccheck adds them up and lists the operations nobody called.
type Tally struct {
	mu        sync.Mutex
	Answers   int
	Violating int
	// Calls counts answers by document label, then operation id.
	Calls map[string]map[string]int
}

// NewTally returns an empty tally.
func NewTally() *Tally { return &Tally{Calls: map[string]map[string]int{}} }

// Answer records one judged answer and the operations it was judged by.
func (t *Tally) Answer(violating bool, ops ...*Operation) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.Answers++
	if violating {
		t.Violating++
	}
	for _, op := range ops {
		t.add(op.doc.Label, op.ID, 1)
	}
}

func (t *Tally) add(doc, op string, n int) {
	m := t.Calls[doc]
	if m == nil {
		m = map[string]int{}
		t.Calls[doc] = m
	}
	m[op] += n
}

// WriteFile writes the tally to path, replacing it whole (a rename), so a reader never sees
// half a file. Lines: "answers N", "violating N", "call DOC OPERATION N".
func (t *Tally) WriteFile(path string) error {
	// The lock is held through the rename: parallel tests write the same file, through the
	// same temporary name.
	t.mu.Lock()
	defer t.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "answers\t%d\nviolating\t%d\n", t.Answers, t.Violating)
	for doc, ops := range t.Calls {
		for op, n := range ops {
			fmt.Fprintf(&b, "call\t%s\t%s\t%d\n", doc, op, n)
		}
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, []byte(b.String()), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// ReadTallies adds up the tallies written to dir.
func ReadTallies(dir string) (*Tally, int, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.tally"))
	if err != nil {
		return nil, 0, err
	}
	sort.Strings(files)
	t := NewTally()
	for _, f := range files {
		if err := t.readFile(f); err != nil {
			return nil, 0, fmt.Errorf("%s: %w", f, err)
		}
	}
	return t, len(files), nil
}

func (t *Tally) readFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		n, err := strconv.Atoi(fields[len(fields)-1])
		if err != nil {
			return fmt.Errorf("line %d: %q", line, sc.Text())
		}
		switch {
		case fields[0] == "answers" && len(fields) == 2:
			t.Answers += n
		case fields[0] == "violating" && len(fields) == 2:
			t.Violating += n
		case fields[0] == "call" && len(fields) == 4:
			t.add(fields[1], fields[2], n)
		default:
			return fmt.Errorf("line %d: %q", line, sc.Text())
		}
	}
	return sc.Err()
}

// Uncalled lists the operations of doc that the tally has no call of.
func (t *Tally) Uncalled(doc *Doc) []*Operation {
	var out []*Operation
	for _, op := range doc.Operations() {
		if t.Calls[doc.Label][op.ID] == 0 {
			out = append(out, op)
		}
	}
	return out
}
