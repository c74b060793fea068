package account

import (
	"sync"
	"time"

	"docsd/internal/auth"
)

// TokenCacheTTL is how long a process trusts what it last read about an API token, so that a
// client's stream of requests does not read the token table on every one. Each process of a
// fleet sharing PostgreSQL keeps its own cache: a token deleted through one process keeps
// working on the others for at most this long (and code that deletes tokens must drop its
// own process's entries at once). Unknown tokens are never cached, so a token made on any
// process works everywhere immediately.
const TokenCacheTTL = 5 * time.Second

// tokenCacheSize bounds the cache's memory (an entry is about 150 bytes).
const tokenCacheSize = 10_000

// tokenCache maps token hashes to the callers they resolved to, and when.
type tokenCache struct {
	mu      sync.RWMutex
	entries map[string]cachedToken
}

type cachedToken struct {
	caller auth.Caller
	readAt time.Time
}

func newTokenCache() *tokenCache { return &tokenCache{entries: map[string]cachedToken{}} }

// fresh reports whether an entry read at readAt may still be trusted at now. A clock that
// moved backwards makes an entry stale rather than longer-lived.
func fresh(readAt, now time.Time) bool {
	age := now.Sub(readAt)
	return age >= 0 && age < TokenCacheTTL
}

func (c *tokenCache) get(hash string, now time.Time) (auth.Caller, bool) {
	c.mu.RLock()
	e, ok := c.entries[hash]
	c.mu.RUnlock()
	if !ok || !fresh(e.readAt, now) {
		return auth.Caller{}, false
	}
	return e.caller, true
}

func (c *tokenCache) put(hash string, caller auth.Caller, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= tokenCacheSize {
		for h, e := range c.entries {
			if !fresh(e.readAt, now) {
				delete(c.entries, h)
			}
		}
		// More distinct tokens within one TTL than the cache holds: start over rather
		// than grow.
		if len(c.entries) >= tokenCacheSize {
			clear(c.entries)
		}
	}
	c.entries[hash] = cachedToken{caller: caller, readAt: now}
}
