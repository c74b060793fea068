package content

import (
	"fmt"
	"testing"
)

func TestWeighedCacheHoldsItsWeight(t *testing.T) {
	c := newWeighedCache(100, func(v int) int { return v })
	for i := range 50 {
		c.put(fmt.Sprint(i), 30)
		if c.weight > 100 || c.weight != 30*len(c.m) {
			t.Fatalf("after %d puts: weight %d for %d entries", i+1, c.weight, len(c.m))
		}
	}
	c.put("big", 500) // heavier than the bound: kept alone
	if v, ok := c.get("big"); !ok || v != 500 || len(c.m) != 1 {
		t.Fatalf("big entry: %v %v, %d entries", v, ok, len(c.m))
	}
	c.put("big", 10) // replacing an entry replaces its weight
	if c.weight != 10 {
		t.Fatalf("weight %d after replacing, want 10", c.weight)
	}
}
