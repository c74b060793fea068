package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
)

// newSpace creates a space in orgID as actor and returns its id.
func newSpace(t testing.TB, e *apitest.Env, a apitest.Actor, orgID string, body map[string]any) string {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return e.Post(a, "/v1/orgs/"+orgID+"/spaces", body).Expect(201).Str("id")
}

// newCollection creates a collection in orgID as actor and returns its id.
func newCollection(t testing.TB, e *apitest.Env, a apitest.Actor, orgID string, body map[string]any) string {
	t.Helper()
	if body == nil {
		body = map[string]any{}
	}
	return e.Post(a, "/v1/orgs/"+orgID+"/collections", body).Expect(201).Str("id")
}

// newTeam creates a team of orgID (whose admin e.Admin owns it) with members.
func newTeam(t testing.TB, e *apitest.Env, orgID, title string, members ...apitest.Actor) string {
	t.Helper()
	ids := []string{}
	for _, m := range members {
		ids = append(ids, m.ID)
	}
	return e.Put(e.Admin, "/v1/orgs/"+orgID+"/teams", map[string]any{"title": title, "members": ids}).Expect(201).Str("id")
}

// grant gives users or teams a role on a space or collection path ("/v1/spaces/ID").
func grant(t testing.TB, e *apitest.Env, a apitest.Actor, path, role string, users, teams []string) {
	t.Helper()
	body := map[string]any{"role": role}
	if users != nil {
		body["users"] = users
	}
	if teams != nil {
		body["teams"] = teams
	}
	e.Post(a, path+"/permissions", body).Expect(204)
}
