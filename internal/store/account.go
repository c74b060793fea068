package store

import (
	"context"
	"errors"
	"time"

	"docsd/internal/account"
)

// Accounts adapts the DB to account.Store.
type Accounts struct{ DB *DB }

func (s Accounts) Read() account.Tx { return accountTx{s.DB.Read()} }

func (s Accounts) Write(ctx context.Context, now time.Time, fn func(account.Tx) error) error {
	return s.DB.Write(ctx, now, func(q *Q) error { return fn(accountTx{q}) })
}

type accountTx struct{ q *Q }

const userColumns = `id, email, email_verified, display_name, photo_url, created_at`

// ScanUser reads the columns of userColumns (other stores embed users in their rows).
func ScanUser(scan func(...any) error) (account.User, error) {
	var u account.User
	var created int64
	if err := scan(&u.ID, &u.Email, &u.EmailVerified, &u.DisplayName, &u.PhotoURL, &created); err != nil {
		return u, err
	}
	u.CreatedAt = FromMicros(created)
	return u, nil
}

func (t accountTx) InsertUser(ctx context.Context, u account.User) error {
	_, err := t.q.Exec(ctx, `INSERT INTO users (id, email, email_domain, email_verified, display_name, photo_url, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`, u.ID, u.Email, u.EmailDomain(), u.EmailVerified, u.DisplayName, u.PhotoURL, Micros(u.CreatedAt))
	if errors.Is(err, ErrUniqueViolation) {
		return account.ErrEmailTaken
	}
	return err
}

func (t accountTx) user(ctx context.Context, where string, arg any) (account.User, error) {
	u, err := ScanUser(t.q.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE `+where, arg).Scan)
	if errors.Is(err, ErrNotFound) {
		return u, account.ErrNotFound
	}
	return u, err
}

func (t accountTx) User(ctx context.Context, id string) (account.User, error) {
	return t.user(ctx, `id = ?`, id)
}

func (t accountTx) UserByEmail(ctx context.Context, email string) (account.User, error) {
	return t.user(ctx, `email = ?`, email)
}

func (t accountTx) UpdateUser(ctx context.Context, u account.User) error {
	_, err := t.q.Exec(ctx, `UPDATE users SET display_name = ?, photo_url = ? WHERE id = ?`, u.DisplayName, u.PhotoURL, u.ID)
	return err
}

func (t accountTx) InsertToken(ctx context.Context, id, userID, hash string, at time.Time) error {
	_, err := t.q.Exec(ctx, `INSERT INTO api_tokens (id, user_id, token_hash, created_at) VALUES (?, ?, ?, ?)`,
		id, userID, hash, Micros(at))
	return err
}

func (t accountTx) UserIDForToken(ctx context.Context, hash string) (string, string, error) {
	var uid, tid string
	err := t.q.QueryRow(ctx, `SELECT user_id, id FROM api_tokens WHERE token_hash = ?`, hash).Scan(&uid, &tid)
	if errors.Is(err, ErrNotFound) {
		return "", "", account.ErrNotFound
	}
	return uid, tid, err
}

func (t accountTx) ShareOrganization(ctx context.Context, a, b string) (bool, error) {
	var n int
	err := t.q.QueryRow(ctx, `SELECT COUNT(*) FROM members ma JOIN members mb ON mb.organization_id = ma.organization_id
		WHERE ma.user_id = ? AND mb.user_id = ?`, a, b).Scan(&n)
	return n > 0, err
}
