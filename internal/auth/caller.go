package auth

import "context"

// Caller is the authenticated user behind a request.
type Caller struct {
	UserID  string
	TokenID string
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
