package orderkey

import (
	"math/rand"
	"sort"
	"testing"
)

func checkBetween(t *testing.T, a, b string) string {
	t.Helper()
	k := Between(a, b)
	if !Valid(k) {
		t.Fatalf("Between(%q, %q) = %q, not a valid key", a, b, k)
	}
	if (a != "" && k <= a) || (b != "" && k >= b) {
		t.Fatalf("Between(%q, %q) = %q, not strictly between", a, b, k)
	}
	return k
}

func TestBetweenOpenEnds(t *testing.T) {
	if got := Between("", ""); got != First {
		t.Fatalf("Between of nothing = %q, want %q", got, First)
	}
	for _, k := range []string{"V", "1", "z", "zz", "0z", "001", "zzzz1", "1V", "10V"} {
		checkBetween(t, k, "")
		checkBetween(t, "", k)
	}
}

func TestBetweenKnownPairs(t *testing.T) {
	pairs := [][2]string{
		{"V", "W"}, {"V", "V1"}, {"V", "V01"}, {"1", "2"}, {"0z", "1"}, {"y", "z"}, {"z", "z1"},
		{"V", "z"}, {"a", "az"}, {"az", "b"}, {"0001", "0002"}, {"Vzzzz", "W"}, {"V", "Vzzzz"},
	}
	for _, p := range pairs {
		checkBetween(t, p[0], p[1])
	}
}

func randomKey(r *rand.Rand) string {
	n := 1 + r.Intn(6)
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.Intn(base)]
	}
	if b[n-1] == '0' {
		b[n-1] = '1'
	}
	return string(b)
}

// Property: for any two distinct valid keys, Between finds a valid key strictly between them.
func TestBetweenRandomPairs(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 200000; i++ {
		a, b := randomKey(r), randomKey(r)
		if a == b {
			continue
		}
		if a > b {
			a, b = b, a
		}
		checkBetween(t, a, b)
	}
}

func FuzzBetween(f *testing.F) {
	f.Add("V", "W")
	f.Add("0z", "1")
	f.Fuzz(func(t *testing.T, a, b string) {
		if !Valid(a) || !Valid(b) || a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		checkBetween(t, a, b)
	})
}

// list simulates the siblings of one level: items kept in key order, moved one at a time.
type list struct{ keys []string }

func (l *list) moveTo(from, to int) string {
	k := l.keys[from]
	rest := append(append([]string{}, l.keys[:from]...), l.keys[from+1:]...)
	prev, next := "", ""
	if to > 0 {
		prev = rest[to-1]
	}
	if to < len(rest) {
		next = rest[to]
	}
	k = Between(prev, next)
	l.keys = append(rest[:to], append([]string{k}, rest[to:]...)...)
	return k
}

func (l *list) check(t *testing.T, step int) {
	t.Helper()
	if !sort.StringsAreSorted(l.keys) {
		t.Fatalf("step %d: keys out of order", step)
	}
	for i := 1; i < len(l.keys); i++ {
		if l.keys[i] == l.keys[i-1] {
			t.Fatalf("step %d: duplicate key %q", step, l.keys[i])
		}
	}
}

func newList(n int) *list {
	l := &list{}
	prev := ""
	for i := 0; i < n; i++ {
		prev = Between(prev, "")
		l.keys = append(l.keys, prev)
	}
	return l
}

func maxLen(keys []string) int {
	m := 0
	for _, k := range keys {
		m = max(m, len(k))
	}
	return m
}

// Thousands of moves of each kind: the order stays right and the keys stay short. Moves to
// either end grow keys by a character every 61 moves; random moves keep them near log62(n).
// Moving item after item into the same gap is the worst case of any scheme that never
// renumbers: halving the gap costs a character about every 6 moves.
func TestThousandsOfMoves(t *testing.T) {
	const moves = 5000
	cases := []struct {
		name   string
		maxLen int
		pick   func(r *rand.Rand, n int) (from, to int)
	}{
		{"random moves", 6, func(r *rand.Rand, n int) (int, int) { return r.Intn(n), r.Intn(n) }},
		{"always to the top", moves/61 + 3, func(r *rand.Rand, n int) (int, int) { return n - 1, 0 }},
		{"always to the bottom", moves/61 + 3, func(r *rand.Rand, n int) (int, int) { return 0, n - 1 }},
		{"always to second place", moves/5 + 10, func(r *rand.Rand, n int) (int, int) { return n - 1, 1 }},
		{"always before the last", moves/5 + 10, func(r *rand.Rand, n int) (int, int) { return 0, n - 2 }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(7))
			l := newList(50)
			for i := 0; i < moves; i++ {
				from, to := c.pick(r, len(l.keys))
				l.moveTo(from, to)
				l.check(t, i)
			}
			if m := maxLen(l.keys); m > c.maxLen {
				t.Errorf("longest key has %d characters after %d moves, want at most %d", m, moves, c.maxLen)
			} else {
				t.Logf("%d moves: longest key %d characters", moves, m)
			}
		})
	}
}

func TestValid(t *testing.T) {
	for k, want := range map[string]bool{"V": true, "0z": true, "": false, "V0": false, "a-b": false, "0": false} {
		if Valid(k) != want {
			t.Errorf("Valid(%q) = %v, want %v", k, !want, want)
		}
	}
}
