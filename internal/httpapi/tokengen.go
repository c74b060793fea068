package httpapi

import "sync"

// Where the database has a generation (SQLite, see respcache.go), a token need not be read
// again while nothing has been written: a token read live after a check that returned
// generation G is still live at any later check that returns G, since deleting it is a write.
// tokenGenerations remembers, by token id, the generation each token was last read live at,
// so that a client's stream of GETs reads its token once per write to the database.
const maxTokenGenerations = 10_000

type tokenGenerations struct {
	mu  sync.Mutex
	gen map[string]uint64
}

func newTokenGenerations() *tokenGenerations {
	return &tokenGenerations{gen: map[string]uint64{}}
}

// liveAt reports whether the token was read live at generation gen.
func (t *tokenGenerations) liveAt(tokenID string, gen uint64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.gen[tokenID]
	return ok && g == gen
}

// readLive records that the token was read live after a check that returned gen.
func (t *tokenGenerations) readLive(tokenID string, gen uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, ok := t.gen[tokenID]; !ok && len(t.gen) >= maxTokenGenerations {
		clear(t.gen) // more tokens than kept: start over rather than grow
	}
	t.gen[tokenID] = gen
}
