package httpapi_test

import (
	"context"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/store"
)

// unverifiedUser creates a user whose email is not verified, with an API token.
func unverifiedUser(t *testing.T, e *apitest.Env, name, email string) apitest.Actor {
	t.Helper()
	ctx := context.Background()
	u, err := e.App.Accounts.CreateUser(ctx, email, name, false)
	if err != nil {
		t.Fatalf("create user: %v", err)
	}
	tok, err := e.App.Accounts.CreateToken(ctx, u.Email)
	if err != nil {
		t.Fatalf("create token: %v", err)
	}
	return apitest.Actor{ID: u.ID, Email: u.Email, Name: name, Token: tok}
}

// roleOf returns a's role in orgID as the server has it, and whether a is an enabled member.
func roleOf(t *testing.T, e *apitest.Env, orgID string, a apitest.Actor) (auth.Role, bool) {
	t.Helper()
	r, member, err := e.App.Orgs.Role(context.Background(), auth.Caller{UserID: a.ID}, orgID)
	if err != nil {
		t.Fatalf("role of %s: %v", a.Name, err)
	}
	return r, member
}

// expectRole fails unless a is an enabled member of orgID with role want.
func expectRole(t *testing.T, e *apitest.Env, orgID string, a apitest.Actor, want auth.Role) {
	t.Helper()
	got, member := roleOf(t, e, orgID, a)
	if !member || got != want {
		t.Fatalf("%s: member=%v role=%q, want an enabled member with role %q", a.Name, member, got, want)
	}
}

// expectNotMember fails if a belongs to orgID.
func expectNotMember(t *testing.T, e *apitest.Env, orgID string, a apitest.Actor) {
	t.Helper()
	if _, member := roleOf(t, e, orgID, a); member {
		t.Fatalf("%s is a member of %s, want not a member", a.Name, orgID)
	}
	e.Get(a, "/v1/orgs/"+orgID).Expect(404)
}

// disableMember marks a membership disabled, as an administrator would; no API here does it.
func disableMember(t *testing.T, e *apitest.Env, orgID string, a apitest.Actor) {
	t.Helper()
	err := e.App.DB.Write(context.Background(), time.Now(), func(q *store.Q) error {
		_, err := q.Exec(context.Background(), `UPDATE members SET disabled = TRUE WHERE organization_id = ? AND user_id = ?`, orgID, a.ID)
		return err
	})
	if err != nil {
		t.Fatalf("disable member: %v", err)
	}
}

// memberSSO reads a membership's SSO flag; no API in this part shows it.
func memberSSO(t *testing.T, e *apitest.Env, orgID, userID string) bool {
	t.Helper()
	var sso bool
	if err := e.App.DB.Read().QueryRow(context.Background(), `SELECT sso FROM members WHERE organization_id = ? AND user_id = ?`,
		orgID, userID).Scan(&sso); err != nil {
		t.Fatalf("read sso flag: %v", err)
	}
	return sso
}
