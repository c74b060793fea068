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

func TestAuthenticateReadsTheTokenEveryTime(t *testing.T) {
	t.Parallel()
	s, st, _ := newTokenService(t)
	st.tokens[auth.HashToken("dsd_a")] = [2]string{"user-a", "token-a"}
	for range 3 {
		c, err := s.Authenticate(context.Background(), "dsd_a")
		if err != nil || c.UserID != "user-a" || c.TokenID != "token-a" {
			t.Fatalf("Authenticate = %+v, %v", c, err)
		}
	}
	if st.reads != 3 {
		t.Fatalf("the token was read %d times for 3 authentications, want 3", st.reads)
	}
}

func TestAuthenticateRefusesADeletedTokenAtOnce(t *testing.T) {
	t.Parallel()
	s, st, _ := newTokenService(t)
	st.tokens[auth.HashToken("dsd_b")] = [2]string{"user-b", "token-b"}
	if _, err := s.Authenticate(context.Background(), "dsd_b"); err != nil {
		t.Fatal(err)
	}
	delete(st.tokens, auth.HashToken("dsd_b")) // as another process of the fleet would
	_, err := s.Authenticate(context.Background(), "dsd_b")
	if e, ok := apperr.As(err); !ok || e.Code != apperr.Unauthorized {
		t.Fatalf("a deleted token: %v, want unauthorized", err)
	}
}

func TestKnownNamesOnlyTokensAuthenticatedBefore(t *testing.T) {
	t.Parallel()
	s, st, _ := newTokenService(t)
	if _, ok := s.Known("dsd_c"); ok {
		t.Fatal("a token never authenticated is known")
	}
	if _, err := s.Authenticate(context.Background(), "dsd_c"); err == nil {
		t.Fatal("an unknown token was accepted")
	}
	if _, ok := s.Known("dsd_c"); ok {
		t.Fatal("a refused token is known")
	}
	st.tokens[auth.HashToken("dsd_c")] = [2]string{"user-c", "token-c"} // made meanwhile, perhaps elsewhere
	if c, err := s.Authenticate(context.Background(), "dsd_c"); err != nil || c.UserID != "user-c" {
		t.Fatalf("a token made after a failed attempt: %+v, %v", c, err)
	}
	reads := st.reads
	if c, ok := s.Known("dsd_c"); !ok || c.UserID != "user-c" || c.TokenID != "token-c" || st.reads != reads {
		t.Fatalf("Known = %+v, %v after %d reads (%d before); want the caller without a read", c, ok, st.reads, reads)
	}
}

func TestTokenCacheStaysBounded(t *testing.T) {
	t.Parallel()
	c := newTokenCache()
	for i := range tokenCacheSize + 10 {
		c.put(fmt.Sprint("t", i), auth.Caller{UserID: fmt.Sprint(i)})
		if len(c.entries) > tokenCacheSize {
			t.Fatalf("%d entries, more than %d", len(c.entries), tokenCacheSize)
		}
	}
	if _, ok := c.get(fmt.Sprint("t", tokenCacheSize+9)); !ok {
		t.Fatal("the latest entry was lost")
	}
}
