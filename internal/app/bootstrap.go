package app

import (
	"context"
	"fmt"
	"io"
)

// Bootstrap account made on the first start against an empty database.
const (
	BootstrapEmail    = "admin@docsd.localhost"
	BootstrapName     = "Administrator"
	BootstrapOrgTitle = "My Organization"
)

// Bootstrap makes, on the first start against an empty database, an administrator, an
// organization they own and an API token, and prints the token once to out. Later starts,
// and starts against a database that already has users, print nothing. When several
// processes start at once against one PostgreSQL database, exactly one of them does it.
func (a *App) Bootstrap(ctx context.Context, out io.Writer) error {
	first, err := a.DB.ClaimFirstStart(ctx, a.Clock.Now())
	if err != nil || !first {
		return err
	}
	u, err := a.Accounts.CreateUser(ctx, BootstrapEmail, BootstrapName, true)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	o, err := a.Orgs.Create(ctx, BootstrapOrgTitle, u.ID)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	tok, err := a.Accounts.CreateToken(ctx, u.Email)
	if err != nil {
		return fmt.Errorf("bootstrap: %w", err)
	}
	fmt.Fprintf(out, "First start: created the administrator %s and the organization %q (%s).\n", u.Email, o.Title, o.ID)
	fmt.Fprintf(out, "API token: %s\n", tok)
	fmt.Fprintf(out, "Use it as a bearer token, for example: curl -H 'Authorization: Bearer %s' %s/v1/user\n", tok, a.BaseURL)
	fmt.Fprintf(out, "The token is shown only this once; make more with: docsd admin create-token --email %s\n", u.Email)
	return nil
}
