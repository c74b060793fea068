// Package gencache keeps values computed from the database, each labelled with the database
// generation (store.DB.Generation) it was computed at: a value is served only at that same
// generation, so any write, by this process or another on the same database, retires every
// value at once and nothing stale is ever served. Memory is bounded in bytes and entries.
package gencache

import (
	"context"
	"sync"
)

// Cache maps keys to values of one generation each.
type Cache[V any] struct {
	maxBytes, maxEntries int

	mu      sync.Mutex
	entries map[string]entry[V]
	bytes   int
}

type entry[V any] struct {
	gen  uint64
	size int
	v    V
}

// New returns a cache holding at most maxBytes (as callers size their values, plus keys) in
// at most maxEntries entries.
func New[V any](maxBytes, maxEntries int) *Cache[V] {
	return &Cache[V]{maxBytes: maxBytes, maxEntries: maxEntries, entries: map[string]entry[V]{}}
}

// Get returns the value kept for key when it was computed at gen.
func (c *Cache[V]) Get(key string, gen uint64) (V, bool) {
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if !ok || e.gen != gen {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put keeps v, of about size bytes, for key at gen. The caller labels a value with the
// generation read before computing it: if a write landed meanwhile, the label is older than
// the data and the next Get at the newer generation misses.
func (c *Cache[V]) Put(key string, gen uint64, v V, size int) {
	size += len(key)
	if size > c.maxBytes {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.entries[key]; ok {
		c.bytes -= old.size
	}
	c.entries[key] = entry[V]{gen: gen, size: size, v: v}
	c.bytes += size
	if c.bytes <= c.maxBytes && len(c.entries) <= c.maxEntries {
		return
	}
	// Over budget: values of other generations can never be served again (the generation
	// only moves forward); drop them, and everything else if that is not enough.
	for k, e := range c.entries {
		if e.gen != gen {
			c.bytes -= e.size
			delete(c.entries, k)
		}
	}
	if c.bytes > c.maxBytes || len(c.entries) > c.maxEntries {
		c.entries = map[string]entry[V]{key: {gen: gen, size: size, v: v}}
		c.bytes = size
	}
}

type generationKey struct{}

// WithGeneration returns ctx carrying the database generation a request read on arrival
// (store.DB.Generation, a check begun after it arrived). Services below the HTTP layer label
// what they cache for the request with it, as the answer cache does.
func WithGeneration(ctx context.Context, gen uint64) context.Context {
	return context.WithValue(ctx, generationKey{}, gen)
}

// GenerationOf is the generation WithGeneration put on ctx, if any.
func GenerationOf(ctx context.Context) (uint64, bool) {
	gen, ok := ctx.Value(generationKey{}).(uint64)
	return gen, ok
}
