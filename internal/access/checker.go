package access

import (
	"context"
	"sync"

	"docsd/internal/auth"
)

// Store is what the access component reads besides the facts of a space (which the space
// store reads with the space, in one statement). It is the only reader of a member's role.
type Store interface {
	// MemberRole is userID's role in orgID and whether they are an enabled member.
	MemberRole(ctx context.Context, orgID, userID string) (role auth.Role, member bool, err error)
}

// Checker holds the decisions' cache. The facts behind a user's role on a space (membership,
// grants, the collections above it) are kept with the access generation they were read at:
// a counter the database adds one to, in the same transaction, whenever a grant, a role, a
// team, a collection's place or default level, or a space's place changes (migration
// 00130). A request reads the generation with the space's row, one cheap statement; while it
// is unchanged the cached facts still hold, on every instance sharing the database, and the
// recursive climb of the collection tree is skipped.
type Checker struct {
	mu     sync.Mutex
	spaces map[factsKey]cachedFacts
	hits   uint64
	misses uint64
}

type factsKey struct{ user, space string }

type cachedFacts struct {
	gen   uint64
	facts *Facts
}

// maxCached bounds the cache; when full it starts again empty, which costs one recursive
// query per (user, space) pair in use.
const maxCached = 1 << 16

// NewChecker returns an access component with an empty cache.
func NewChecker() *Checker { return &Checker{spaces: map[factsKey]cachedFacts{}} }

// OrgRole is the caller's role in orgID and whether they are an enabled member of it.
func (k *Checker) OrgRole(ctx context.Context, q Store, c auth.Caller, orgID string) (auth.Role, bool, error) {
	if c.UserID == "" {
		return auth.Guest, false, nil
	}
	return q.MemberRole(ctx, orgID, c.UserID)
}

// Cached reports whether facts for userID on spaceID are cached (at some generation), so
// that the caller reads the space with the generation alone.
func (k *Checker) Cached(userID, spaceID string) bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	_, ok := k.spaces[factsKey{userID, spaceID}]
	return ok
}

// At returns the cached facts for userID on spaceID when they were read at generation gen.
func (k *Checker) At(userID, spaceID string, gen uint64) (*Facts, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.spaces[factsKey{userID, spaceID}]
	if ok && e.gen == gen {
		k.hits++
		return e.facts, true
	}
	k.misses++
	return nil, false
}

// Remember caches facts read at generation gen.
func (k *Checker) Remember(userID, spaceID string, gen uint64, f *Facts) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.spaces) >= maxCached {
		clear(k.spaces)
	}
	k.spaces[factsKey{userID, spaceID}] = cachedFacts{gen, f}
}

// Stats returns the cache's hits and misses since it started, for tests and metrics.
func (k *Checker) Stats() (hits, misses uint64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.hits, k.misses
}
