package store

import (
	"context"

	"docsd/internal/apperr"
	"docsd/internal/auth"
)

// confirmCallerToken is the last thing a write does before it may commit. A change may be
// served for a caller whose API token this process knew, before the token was read again
// (auth.TokenCheck): the first role lookup reads it in the same statement. Where nothing
// read it on the way, it is read here, in the write's own transaction, so that no write of a
// deleted token ever commits: the write is refused with 401 and rolled back.
func (q *Q) confirmCallerToken(ctx context.Context) error {
	c, ok := auth.CallerFrom(ctx)
	if !ok {
		return nil
	}
	tokenID := c.TokenToCheck()
	if tokenID == "" {
		return nil
	}
	var n int
	if err := q.QueryRow(ctx, `SELECT COUNT(*) FROM api_tokens WHERE id = ? AND user_id = ?`, tokenID, c.UserID).Scan(&n); err != nil {
		return err
	}
	c.TokenChecked(n > 0)
	if n == 0 {
		return apperr.New(apperr.Unauthorized, "invalid API token")
	}
	return nil
}
