package gencache

import (
	"fmt"
	"testing"
)

func TestServesOnlyAtItsGeneration(t *testing.T) {
	c := New[string](1<<20, 100)
	c.Put("k", 7, "seven", 5)
	if v, ok := c.Get("k", 7); !ok || v != "seven" {
		t.Fatalf("at its generation: got %q, %v", v, ok)
	}
	if _, ok := c.Get("k", 8); ok {
		t.Fatal("served at a newer generation")
	}
	if _, ok := c.Get("other", 7); ok {
		t.Fatal("served for another key")
	}
}

func TestStaysWithinBudget(t *testing.T) {
	c := New[int](1000, 10)
	for i := range 50 {
		c.Put(fmt.Sprint("key", i), uint64(i/20), i, 50)
		if c.bytes > c.maxBytes || len(c.entries) > c.maxEntries {
			t.Fatalf("after %d puts: %d bytes in %d entries", i+1, c.bytes, len(c.entries))
		}
	}
	if v, ok := c.Get("key49", 2); !ok || v != 49 {
		t.Fatalf("the newest value is gone: %v %v", v, ok)
	}
	c.Put("huge", 2, 0, 5000)
	if _, ok := c.Get("huge", 2); ok {
		t.Fatal("kept a value larger than the whole budget")
	}
}
