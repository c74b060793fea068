package content

import "sync"

// cache is a bounded map for immutable values (snapshots by revision id, trie nodes and
// markdown by hash): entries never go stale, so the only policy needed is a size bound.
// When full, it drops an arbitrary quarter of its entries. Entries weigh 1 each unless a
// weigh function says otherwise (snapshots weigh their pages, so that the bound holds memory
// rather than a count of spaces of any size).
type cache[V any] struct {
	mu     sync.Mutex
	max    int
	m      map[string]V
	weigh  func(V) int
	weight int
}

func newCache[V any](max int) *cache[V] { return &cache[V]{max: max, m: map[string]V{}} }

func newWeighedCache[V any](max int, weigh func(V) int) *cache[V] {
	return &cache[V]{max: max, m: map[string]V{}, weigh: weigh}
}

func (c *cache[V]) weightOf(v V) int {
	if c.weigh == nil {
		return 1
	}
	return max(c.weigh(v), 1)
}

func (c *cache[V]) get(k string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *cache[V]) put(k string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k]; ok {
		c.weight -= c.weightOf(old)
	}
	w := c.weightOf(v)
	if c.weight+w > c.max {
		drop := max(len(c.m)/4, 1)
		for key, old := range c.m {
			if drop <= 0 && c.weight+w <= c.max {
				break
			}
			delete(c.m, key)
			c.weight -= c.weightOf(old)
			drop--
		}
	}
	c.m[k] = v
	c.weight += w
}

func (c *cache[V]) remove(k string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k]; ok {
		delete(c.m, k)
		c.weight -= c.weightOf(old)
	}
}
