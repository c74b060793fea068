package account

import (
	"sync"

	"docsd/internal/auth"
)

// tokenCacheSize bounds the cache's memory (an entry is about 150 bytes).
const tokenCacheSize = 10_000

// tokenCache maps token hashes to the callers they name. A token's row is never changed, only
// deleted, so what a hash names never goes stale; whether the token still exists is not
// cached at all (see Service.Known). Unknown tokens are never cached.
type tokenCache struct {
	mu      sync.RWMutex
	entries map[string]auth.Caller
}

func newTokenCache() *tokenCache { return &tokenCache{entries: map[string]auth.Caller{}} }

func (c *tokenCache) get(hash string) (auth.Caller, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	caller, ok := c.entries[hash]
	return caller, ok
}

func (c *tokenCache) put(hash string, caller auth.Caller) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.entries[hash]; !ok && len(c.entries) >= tokenCacheSize {
		// More distinct tokens than the cache holds: start over rather than grow.
		clear(c.entries)
	}
	c.entries[hash] = caller
}
