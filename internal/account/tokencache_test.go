package account

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
)

// tokenStore is a Store holding only API tokens, counting how often they are read.
type tokenStore struct {
	tokens map[string][2]string // hash → user id, token id
	reads  int
}

func (s *tokenStore) Read() Tx { return tokenTx{s} }
func (s *tokenStore) Write(ctx context.Context, now time.Time, fn func(Tx) error) error {
	return fn(tokenTx{s})
}

type tokenTx struct{ s *tokenStore }

var errUnused = errors.New("not used by these tests")

func (t tokenTx) InsertUser(context.Context, User) error            { return errUnused }
func (t tokenTx) User(context.Context, string) (User, error)        { return User{}, errUnused }
func (t tokenTx) UserByEmail(context.Context, string) (User, error) { return User{}, errUnused }
func (t tokenTx) UpdateUser(context.Context, User) error            { return errUnused }
func (t tokenTx) ShareOrganization(context.Context, string, string) (bool, error) {
	return false, errUnused
}
func (t tokenTx) InsertToken(ctx context.Context, id, userID, hash string, at time.Time) error {
	t.s.tokens[hash] = [2]string{userID, id}
	return nil
}
func (t tokenTx) UserIDForToken(ctx context.Context, hash string) (string, string, error) {
	t.s.reads++
	v, ok := t.s.tokens[hash]
	if !ok {
		return "", "", ErrNotFound
	}
	return v[0], v[1], nil
}

func newTokenService(t *testing.T) (*Service, *tokenStore, *clock.Fake) {
	t.Helper()
	st := &tokenStore{tokens: map[string][2]string{}}
	clk := clock.NewFake()
	clk.Set(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return NewService(st, clk), st, clk
}

func TestAuthenticateReadsAKnownTokenOncePerTTL(t *testing.T) {
	t.Parallel()
	s, st, clk := newTokenService(t)
	st.tokens[auth.HashToken("dsd_a")] = [2]string{"user-a", "token-a"}
	for range 3 {
		c, err := s.Authenticate(context.Background(), "dsd_a")
		if err != nil || c.UserID != "user-a" || c.TokenID != "token-a" {
			t.Fatalf("Authenticate = %+v, %v", c, err)
		}
		clk.Advance(TokenCacheTTL / 4)
	}
	if st.reads != 1 {
		t.Fatalf("the token was read %d times within the TTL, want 1", st.reads)
	}
	clk.Advance(TokenCacheTTL)
	if _, err := s.Authenticate(context.Background(), "dsd_a"); err != nil || st.reads != 2 {
		t.Fatalf("after the TTL: %v, %d reads; want a second read", err, st.reads)
	}
}

func TestAuthenticateNoticesADeletedTokenWithinTheTTL(t *testing.T) {
	t.Parallel()
	s, st, clk := newTokenService(t)
	st.tokens[auth.HashToken("dsd_b")] = [2]string{"user-b", "token-b"}
	if _, err := s.Authenticate(context.Background(), "dsd_b"); err != nil {
		t.Fatal(err)
	}
	delete(st.tokens, auth.HashToken("dsd_b")) // as another process of the fleet would
	clk.Advance(TokenCacheTTL)
	_, err := s.Authenticate(context.Background(), "dsd_b")
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Unauthorized {
		t.Fatalf("a deleted token after the TTL: %v, want unauthorized", err)
	}
}

func TestAuthenticateDoesNotCacheUnknownTokens(t *testing.T) {
	t.Parallel()
	s, st, _ := newTokenService(t)
	if _, err := s.Authenticate(context.Background(), "dsd_new"); err == nil {
		t.Fatal("an unknown token was accepted")
	}
	st.tokens[auth.HashToken("dsd_new")] = [2]string{"user-n", "token-n"} // made meanwhile, perhaps elsewhere
	if c, err := s.Authenticate(context.Background(), "dsd_new"); err != nil || c.UserID != "user-n" {
		t.Fatalf("a token made after a failed attempt: %+v, %v", c, err)
	}
}

func TestAuthenticateDistrustsEntriesWhenTheClockGoesBack(t *testing.T) {
	t.Parallel()
	s, st, clk := newTokenService(t)
	st.tokens[auth.HashToken("dsd_c")] = [2]string{"user-c", "token-c"}
	s.Authenticate(context.Background(), "dsd_c")
	clk.Set(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	s.Authenticate(context.Background(), "dsd_c")
	if st.reads != 2 {
		t.Fatalf("after the clock went back a year the token was read %d times, want 2", st.reads)
	}
}

func TestTokenCacheStaysBounded(t *testing.T) {
	t.Parallel()
	c := newTokenCache()
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range tokenCacheSize {
		c.put(fmt.Sprint("old", i), auth.Caller{UserID: fmt.Sprint(i)}, now)
	}
	// Full of stale entries: they are swept, and nothing fresh is lost.
	later := now.Add(TokenCacheTTL)
	c.put("a", auth.Caller{UserID: "a"}, later)
	c.put("b", auth.Caller{UserID: "b"}, later)
	if _, ok := c.get("a", later); !ok || len(c.entries) != 2 {
		t.Fatalf("after the sweep: %d entries, a kept: %v; want 2 and true", len(c.entries), ok)
	}
	// Full of fresh entries: the cache starts over rather than grow.
	for i := range tokenCacheSize + 10 {
		c.put(fmt.Sprint("new", i), auth.Caller{UserID: fmt.Sprint(i)}, later)
		if len(c.entries) > tokenCacheSize {
			t.Fatalf("%d entries, more than %d", len(c.entries), tokenCacheSize)
		}
	}
}
