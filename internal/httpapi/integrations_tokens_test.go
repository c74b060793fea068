package httpapi_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestIntegrationInstallationTokens(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "reader-app", map[string]any{"scopes": []string{"space:content:read"}})
	publish(e, "script-app", map[string]any{"scopes": []string{"site:script:inject"}})
	covered, uncovered := titledSpace(t, e, "Covered"), titledSpace(t, e, "Not covered")
	installOn := func(name string) (string, string) {
		in := e.Post(e.Admin, "/v1/integrations/"+name+"/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
		e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/spaces", map[string]any{"space": covered}).Expect(201)
		tok := e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/tokens", nil).Expect(200).Str("token")
		return in, tok
	}
	readerIn, readerTok := installOn("reader-app")
	_, scriptTok := installOn("script-app")
	reader, script := apitest.Actor{Name: "reader-app token", Token: readerTok}, apitest.Actor{Name: "script-app token", Token: scriptTok}

	// With space:content:read, the covered space reads; its content too; nothing is writable.
	if g := e.Get(reader, "/v1/spaces/"+covered).Expect(200); g.Str("id") != covered {
		t.Fatalf("space: %s", g.Body)
	}
	e.Get(reader, "/v1/spaces/"+covered+"/content").Expect(200)
	e.Patch(reader, "/v1/spaces/"+covered, map[string]any{"title": "Renamed"}).ExpectError(403)
	e.Post(reader, "/v1/spaces/"+covered+"/comments", map[string]any{"body": map[string]any{"markdown": "hi"}}).ExpectError(403)
	// A space the installation does not cover does not exist for the token.
	e.Get(reader, "/v1/spaces/"+uncovered).ExpectError(404)
	// Without the scope, not even the covered space.
	e.Get(script, "/v1/spaces/"+covered).ExpectError(404)
	// The token reads its own installation, and no other; it is no member of the organization.
	e.Get(reader, "/v1/integrations/reader-app/installations/"+readerIn).Expect(200)
	e.Get(script, "/v1/integrations/reader-app/installations/"+readerIn).ExpectError(404)
	e.Get(reader, "/v1/orgs/"+e.Org).ExpectError(404)
	// It may change its own installation's configuration and queue its integration's tasks.
	e.Patch(reader, "/v1/integrations/reader-app/installations/"+readerIn, map[string]any{"externalIds": []string{"ext"}}).Expect(200)
	e.Post(reader, "/v1/integrations/reader-app/tasks", map[string]any{"task": map[string]any{"kind": "sync"}}).Expect(204)
	e.Post(reader, "/v1/integrations/script-app/tasks", map[string]any{"task": map[string]any{}}).ExpectError(404)

	// Only the integration's owner admins make tokens.
	customer := e.NewUser("Cleo")
	corp := e.NewOrg(customer, "Cleo Co")
	corpIn := e.Post(customer, "/v1/integrations/reader-app/installations", map[string]any{"organization": corp}).Expect(201).Str("id")
	e.Post(customer, "/v1/integrations/reader-app/installations/"+corpIn+"/tokens", nil).ExpectError(403)
	e.Post(e.Admin, "/v1/integrations/reader-app/installations/"+corpIn+"/tokens", nil).Expect(200)
	e.Post(e.Admin, "/v1/integrations/reader-app/installations/nosuchinstallation0000/tokens", nil).ExpectError(404)

	// Tokens are short-lived.
	e.Clock.Advance(61 * time.Minute)
	e.Get(reader, "/v1/spaces/"+covered).ExpectError(401)
	e.Get(apitest.Actor{Name: "forged", Token: "dsdi_" + "x"}, "/v1/spaces/"+covered).ExpectError(401)
}

// The installation tokens' matrix: each scope set, on a space the installation covers and on one
// it does not, against reads and changes. Without read access the space
// does not exist (404). Changes outside the integration operations need an author, which an
// installation is not yet: every one is refused (403), whatever the scopes and the space.
func TestIntegrationInstallationTokenMatrix(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	covered, uncovered := titledSpace(t, e, "Covered"), titledSpace(t, e, "Elsewhere")
	type op struct {
		name, method, path string
		body               any
		ok                 int
	}
	ops := []op{
		{"read the space", "GET", "/v1/spaces/%s", nil, 200},
		{"read its content", "GET", "/v1/spaces/%s/content", nil, 200},
		{"change its language", "PATCH", "/v1/spaces/%s", map[string]any{"language": "fr"}, 200},
		{"rename it", "PATCH", "/v1/spaces/%s", map[string]any{"title": "Renamed"}, 200},
		{"open a change request", "POST", "/v1/spaces/%s/change-requests", map[string]any{"subject": "x"}, 201},
	}
	scopeSets := map[string][]string{
		"no space scope":      {"site:script:inject"},
		"space:metadata:read": {"space:metadata:read"},
		"space:content:read":  {"space:content:read"},
		"space:content:write": {"space:content:write", "space:content:read"},
	}
	roles := map[string]auth.Role{"no space scope": auth.Guest, "space:metadata:read": auth.Read,
		"space:content:read": auth.Read, "space:content:write": auth.Edit}
	cases := 0
	for label, scopes := range scopeSets {
		name := "matrix-" + strings.ReplaceAll(strings.ReplaceAll(label, ":", "-"), " ", "-")
		publish(e, name, map[string]any{"scopes": scopes})
		in := e.Post(e.Admin, "/v1/integrations/"+name+"/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
		e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/spaces", map[string]any{"space": covered}).Expect(201)
		tok := apitest.Actor{Name: name, Token: e.Post(e.Admin, "/v1/integrations/"+name+"/installations/"+in+"/tokens", nil).Expect(200).Str("token")}
		for _, target := range []string{covered, uncovered} {
			role := auth.Guest
			if target == covered {
				role = roles[label]
			}
			for _, o := range ops {
				want := o.ok
				switch {
				case o.method != "GET":
					want = 403
				case !role.AtLeast(auth.Read):
					want = 404
				}
				t.Run(label+"/"+o.name+"/"+map[bool]string{true: "covered", false: "not covered"}[target == covered], func(t *testing.T) {
					env := *e
					env.T = t
					r := env.Do(tok, o.method, fmt.Sprintf(o.path, target), o.body)
					if want >= 400 {
						r.ExpectError(want)
					} else {
						r.Expect(want)
					}
				})
				cases++
			}
		}
	}
	t.Logf("installation token matrix: %d cases", cases)
}
