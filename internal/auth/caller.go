package auth

import (
	"context"
	"sync"
)

// Caller is the authenticated user behind a request.
type Caller struct {
	UserID  string
	TokenID string
	// Installation is set, and UserID empty, for an integration installation's token.
	Installation *InstallationGrant
	// check is set while a read is served before its token was read (see TokenCheck).
	check *TokenCheck
}

// TokenCheck is the confirmation, still to be made, that a caller's API token exists. A read
// whose token this process has seen before is served without reading the token first: the
// first role lookup made for the caller reads the token in the same statement (the space
// service does), and whoever serves the read holds the answer back until the token is
// confirmed, reading it then if nothing did on the way.
type TokenCheck struct {
	mu      sync.Mutex
	checked bool
	live    bool
}

// WithTokenCheck returns the caller with a token check to make while serving a read.
func (c Caller) WithTokenCheck() (Caller, *TokenCheck) {
	c.check = &TokenCheck{}
	return c, c.check
}

// TokenToCheck is the id of the caller's token when a statement made for them should read
// it, and "" when no check is pending.
func (c Caller) TokenToCheck() string {
	if c.check == nil {
		return ""
	}
	c.check.mu.Lock()
	defer c.check.mu.Unlock()
	if c.check.checked {
		return ""
	}
	return c.TokenID
}

// TokenChecked records what a statement read of the caller's token: live is whether it
// still exists. A token found gone stays gone for the rest of the request.
func (c Caller) TokenChecked(live bool) {
	if c.check == nil {
		return
	}
	c.check.mu.Lock()
	defer c.check.mu.Unlock()
	c.check.live = live && (c.check.live || !c.check.checked)
	c.check.checked = true
}

// Outcome reports whether the token was read while serving, and whether it still exists.
func (t *TokenCheck) Outcome() (checked, live bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checked, t.live
}

type callerKey struct{}

// WithCaller attaches the caller to a request context.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the request's caller; ok is false for anonymous requests.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok && c.UserID != ""
}
