package contenttree

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestOrderBetween(t *testing.T) {
	t.Parallel()
	tests := []struct{ before, after string }{
		{"", ""}, {"", "V"}, {"V", ""}, {"1", "2"}, {"", "1"}, {"", "01"}, {"0V", "1"}, {"1V", "1W"},
		{"1", "1V"}, {"z", ""}, {"zz", ""}, {"", "001"}, {"a", "a1"}, {"a1", "a2"}, {"y", "z"},
	}
	for _, tc := range tests {
		got, err := OrderBetween(tc.before, tc.after)
		if err != nil {
			t.Fatalf("OrderBetween(%q, %q): %v", tc.before, tc.after, err)
		}
		if !validOrder(got) || got == "" || got <= tc.before || (tc.after != "" && got >= tc.after) {
			t.Errorf("OrderBetween(%q, %q) = %q, not strictly between", tc.before, tc.after, got)
		}
	}
}

func TestOrderBetweenRejectsBadKeys(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ before, after string }{
		{"b", "a"}, {"a", "a"}, {"a0", ""}, {"", "10"}, {"a-b", ""}, {"é", ""},
	} {
		if got, err := OrderBetween(tc.before, tc.after); err == nil {
			t.Errorf("OrderBetween(%q, %q) = %q, want an error", tc.before, tc.after, got)
		}
	}
}

// TestOrderBetweenKeepsRoom inserts many keys at random places, and often at the same place, which
// makes keys grow: every new key must fall strictly between its neighbours.
func TestOrderBetweenKeepsRoom(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	var keys []string
	for range 2000 {
		i := r.IntN(len(keys) + 1)
		if r.IntN(3) == 0 {
			i = min(len(keys), 1) // crowd the front
		}
		var before, after string
		if i > 0 {
			before = keys[i-1]
		}
		if i < len(keys) {
			after = keys[i]
		}
		k, err := OrderBetween(before, after)
		if err != nil {
			t.Fatal(err)
		}
		keys = slices.Insert(keys, i, k)
	}
	if !slices.IsSorted(keys) || len(slices.Compact(slices.Clone(keys))) != len(keys) {
		t.Fatal("keys are not strictly increasing")
	}
}
