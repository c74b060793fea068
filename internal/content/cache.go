package content

import "sync"

// cache is a bounded map for immutable values (snapshots by revision id, trie nodes and
// markdown by hash): entries never go stale, so the only policy needed is a size bound.
// When full, it drops an arbitrary quarter of its entries.
type cache[V any] struct {
	mu  sync.Mutex
	max int
	m   map[string]V
}

func newCache[V any](max int) *cache[V] { return &cache[V]{max: max, m: map[string]V{}} }

func (c *cache[V]) get(k string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache[V]) put(k string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		drop := len(c.m) / 4
		for key := range c.m {
			if drop <= 0 {
				break
			}
			delete(c.m, key)
			drop--
		}
	}
	c.m[k] = v
}
