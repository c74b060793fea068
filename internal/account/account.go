// Package account holds users and their API tokens: who may call the API, and as whom.
package account

import (
	"context"
	"errors"
	"net/mail"
	"strings"
	"time"

	"docsd/internal/apperr"
	"docsd/internal/auth"
	"docsd/internal/clock"
	"docsd/internal/ids"
	"docsd/internal/validate"
)

// User is a person who can call the API.
type User struct {
	ID            string
	Email         string
	EmailVerified bool
	DisplayName   string
	PhotoURL      string
	CreatedAt     time.Time
}

// EmailDomain is the part of the email after the @, lower-cased.
func (u User) EmailDomain() string { return DomainOf(u.Email) }

// DomainOf returns the lower-cased domain of an email address.
func DomainOf(email string) string {
	_, d, _ := strings.Cut(email, "@")
	return strings.ToLower(d)
}

// ErrNotFound is returned by a Tx when the user or token does not exist.
var ErrNotFound = errors.New("account: not found")

// ErrEmailTaken is returned by a Tx when the email belongs to another user.
var ErrEmailTaken = errors.New("account: email already in use")

// Tx is the storage the account service needs.
type Tx interface {
	InsertUser(ctx context.Context, u User) error
	User(ctx context.Context, id string) (User, error)
	UserByEmail(ctx context.Context, email string) (User, error)
	UpdateUser(ctx context.Context, u User) error
	InsertToken(ctx context.Context, id, userID, hash string, at time.Time) error
	// UserIDForToken returns the user and token id for a token hash.
	UserIDForToken(ctx context.Context, hash string) (userID, tokenID string, err error)
	// ShareOrganization reports whether two users are members of a common organization.
	ShareOrganization(ctx context.Context, a, b string) (bool, error)
}

// Store runs account reads and write transactions.
type Store interface {
	Read() Tx
	Write(ctx context.Context, now time.Time, fn func(Tx) error) error
}

// Service implements the account rules.
type Service struct {
	store  Store
	clock  clock.Clock
	tokens *tokenCache
}

// NewService returns the account service.
func NewService(s Store, c clock.Clock) *Service {
	return &Service{store: s, clock: c, tokens: newTokenCache()}
}

// NormalizeEmail validates an email address and lower-cases it.
func NormalizeEmail(email string) (string, error) {
	email = strings.TrimSpace(email)
	a, err := mail.ParseAddress(email)
	if err != nil || a.Address != email || !strings.Contains(email, "@") {
		return "", apperr.Invalidf("email: must be an email address (got %q)", email)
	}
	return strings.ToLower(email), nil
}

// CreateUser adds a user. Users made by an administrator have a verified email domain.
func (s *Service) CreateUser(ctx context.Context, email, name string, verified bool) (User, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return User{}, err
	}
	name = strings.TrimSpace(name)
	if err := validate.Length("name", name, 1, 255); err != nil {
		return User{}, err
	}
	u := User{ID: ids.New(), Email: email, EmailVerified: verified, DisplayName: name, CreatedAt: s.clock.Now()}
	err = s.store.Write(ctx, u.CreatedAt, func(tx Tx) error { return tx.InsertUser(ctx, u) })
	if errors.Is(err, ErrEmailTaken) {
		return User{}, apperr.Conflictf("email: a user with email %s already exists", email)
	}
	return u, err
}

// CreateToken makes a new API token for the user with the given email and returns it. The
// token is shown only here; the store keeps its hash.
func (s *Service) CreateToken(ctx context.Context, email string) (string, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return "", err
	}
	tok := auth.NewToken()
	now := s.clock.Now()
	err = s.store.Write(ctx, now, func(tx Tx) error {
		u, err := tx.UserByEmail(ctx, email)
		if errors.Is(err, ErrNotFound) {
			return apperr.NotFoundf("email: no user with email %s", email)
		}
		if err != nil {
			return err
		}
		return tx.InsertToken(ctx, ids.New(), u.ID, auth.HashToken(tok), now)
	})
	if err != nil {
		return "", err
	}
	return tok, nil
}

// Authenticate resolves an API token to its caller, reading the token's row: a token deleted
// by any process of a fleet is refused by the next request that presents it.
func (s *Service) Authenticate(ctx context.Context, token string) (auth.Caller, error) {
	hash := auth.HashToken(token)
	uid, tid, err := s.store.Read().UserIDForToken(ctx, hash)
	if errors.Is(err, ErrNotFound) {
		return auth.Caller{}, apperr.New(apperr.Unauthorized, "invalid API token")
	}
	if err != nil {
		return auth.Caller{}, err
	}
	c := auth.Caller{UserID: uid, TokenID: tid}
	s.tokens.put(hash, c)
	return c, nil
}

// Known returns the caller a token names if this process has authenticated it before,
// without reading the database. It says nothing of whether the token still exists: whoever
// acts on it must still Authenticate it before anything of the answer leaves (a read can do
// both at once, see httpapi).
func (s *Service) Known(token string) (auth.Caller, bool) {
	return s.tokens.get(auth.HashToken(token))
}

// Me returns the caller's own user.
func (s *Service) Me(ctx context.Context, c auth.Caller) (User, error) {
	if c.UserID == "" {
		// An integration installation's token acts for no user.
		return User{}, apperr.NotFoundf("no user: an installation token acts for its installation, not for a user")
	}
	return s.store.Read().User(ctx, c.UserID)
}

// ByEmail returns the user with that email.
func (s *Service) ByEmail(ctx context.Context, email string) (User, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return User{}, err
	}
	u, err := s.store.Read().UserByEmail(ctx, email)
	if errors.Is(err, ErrNotFound) {
		return User{}, apperr.NotFoundf("email: no user with email %s", email)
	}
	return u, err
}

// Get returns a user the caller may see: themselves, or someone in a shared organization.
func (s *Service) Get(ctx context.Context, c auth.Caller, id string) (User, error) {
	tx := s.store.Read()
	if id != c.UserID {
		shared, err := tx.ShareOrganization(ctx, c.UserID, id)
		if err != nil {
			return User{}, err
		}
		if !shared {
			return User{}, apperr.NotFoundf("user %s not found", id)
		}
	}
	u, err := tx.User(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return User{}, apperr.NotFoundf("user %s not found", id)
	}
	return u, err
}

// DisplayNameMax is the longest display name a user may set (the public API's limit).
const DisplayNameMax = 64

// Update holds the changes a user may make to their own profile.
type Update struct {
	DisplayName *string
	PhotoURL    *string
}

// UpdateSelf changes the caller's profile; other users' profiles are not theirs to change.
func (s *Service) UpdateSelf(ctx context.Context, c auth.Caller, id string, upd Update) (User, error) {
	if id != c.UserID {
		if _, err := s.Get(ctx, c, id); err != nil {
			return User{}, err
		}
		return User{}, apperr.Forbiddenf("only the user themselves may update their profile")
	}
	if upd.DisplayName != nil {
		name := strings.TrimSpace(*upd.DisplayName)
		if err := validate.Length("displayName", name, 1, DisplayNameMax); err != nil {
			return User{}, err
		}
		upd.DisplayName = &name
	}
	if upd.PhotoURL != nil && *upd.PhotoURL != "" {
		if err := validate.HTTPURL("photoURL", *upd.PhotoURL, 2048); err != nil {
			return User{}, err
		}
	}
	var u User
	err := s.store.Write(ctx, s.clock.Now(), func(tx Tx) error {
		var err error
		u, err = tx.User(ctx, id)
		if err != nil {
			return err
		}
		if upd.DisplayName != nil {
			u.DisplayName = *upd.DisplayName
		}
		if upd.PhotoURL != nil {
			u.PhotoURL = *upd.PhotoURL
		}
		return tx.UpdateUser(ctx, u)
	})
	return u, err
}
