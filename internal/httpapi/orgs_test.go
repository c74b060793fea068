package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestOrganizationGet(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	r := e.Get(e.Admin, "/v1/orgs/"+e.Org).Expect(200)
	if r.Str("object") != "organization" || r.Str("id") != e.Org || r.Str("title") != "Test Organization" {
		t.Fatalf("unexpected organization: %s", r.Body)
	}
	if got := r.Str("urls.location"); got != e.URL+"/v1/orgs/"+e.Org {
		t.Errorf("urls.location = %q", got)
	}
	if !strings.HasPrefix(r.Str("urls.app"), e.URL+"/") {
		t.Errorf("urls.app = %q, want an absolute URL on the server", r.Str("urls.app"))
	}
	if !r.Bool("permissions.admin") || !r.Bool("permissions.view") {
		t.Errorf("admin permissions wrong: %s", r.Body)
	}
	if r.Str("trial.status") != "notapplicable" || r.Str("plan") == "" || r.Str("mergeRules.type") != "rules" {
		t.Errorf("self-hosted fields wrong: %s", r.Body)
	}
	if ca := r.Str("createdAt"); !strings.HasSuffix(ca, "Z") || len(ca) != len("2006-01-02T15:04:05.000Z") {
		t.Errorf("createdAt %q is not ISO 8601 UTC", ca)
	}

	t.Run("member sees reduced permissions", func(t *testing.T) {
		reader := e.Member("reader", auth.Read)
		r := e.Get(reader, "/v1/orgs/"+e.Org).Expect(200)
		if r.Bool("permissions.admin") || r.Bool("permissions.createContent") || !r.Bool("permissions.listMembers") {
			t.Errorf("reader permissions wrong: %s", r.Body)
		}
		creator := e.Member("creator", auth.Create)
		if !e.Get(creator, "/v1/orgs/"+e.Org).Expect(200).Bool("permissions.createContent") {
			t.Error("create role should have createContent")
		}
		guest := e.Member("guest", auth.Guest)
		r = e.Get(guest, "/v1/orgs/"+e.Org).Expect(200)
		if r.Bool("permissions.listMembers") {
			t.Errorf("guest should not list members: %s", r.Body)
		}
	})
	t.Run("outsider gets 404", func(t *testing.T) {
		outsider := e.NewUser("outsider")
		e.Get(outsider, "/v1/orgs/"+e.Org).Expect(404)
	})
	t.Run("absent organization is 404", func(t *testing.T) {
		e.Get(e.Admin, "/v1/orgs/doesnotexist").Expect(404)
	})
	t.Run("no token is 401", func(t *testing.T) {
		e.Get(apitest.Anonymous, "/v1/orgs/"+e.Org).Expect(401)
		e.Get(apitest.Actor{Token: "dsd_wrong"}, "/v1/orgs/"+e.Org).Expect(401)
	})
}

func TestOrganizationPatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := "/v1/orgs/" + e.Org
	r := e.Patch(e.Admin, path, map[string]any{
		"title": "Renamed", "emailDomains": []string{"Example.COM", "docs.example.org"}, "hostname": "renamed-org",
		"defaultRole": "edit", "defaultContent": map[string]any{"type": "site", "site": "site123"},
		"logo": "https://example.com/logo.png", "sso": true, "ai": true, "inviteLinks": false,
		"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "require_specific_reviewers", "users": []string{e.Admin.ID}}}},
	}).Expect(200)
	want := map[string]any{"title": "Renamed", "hostname": "renamed-org", "defaultRole": "edit", "defaultContent.site": "site123",
		"urls.logo": "https://example.com/logo.png", "sso": true, "ai": true, "inviteLinks": false,
		"emailDomains.0": "example.com", "emailDomains.1": "docs.example.org", "mergeRules.rules.0.users.0": e.Admin.ID}
	after := e.Get(e.Admin, path).Expect(200)
	for _, got := range []*apitest.Resp{r, after} {
		for k, v := range want {
			if x, _ := got.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
	}

	t.Run("null removes and resets", func(t *testing.T) {
		r := e.Patch(e.Admin, path, map[string]any{"defaultRole": nil, "defaultContent": nil, "logo": nil}).Expect(200)
		if v, ok := r.Get("defaultRole"); !ok || v != nil {
			t.Errorf("defaultRole = %v, want null", v)
		}
		if r.Has("defaultContent") || r.Has("urls.logo") {
			t.Errorf("defaultContent and logo should be gone: %s", r.Body)
		}
		if r.Str("title") != "Renamed" {
			t.Errorf("absent field changed: %s", r.Body)
		}
	})
	t.Run("validation", func(t *testing.T) {
		cases := []struct {
			name string
			body any
			msg  []string
		}{
			{"title too short", map[string]any{"title": "x"}, []string{"title", "2", "255"}},
			{"title too long", map[string]any{"title": strings.Repeat("t", 256)}, []string{"title", "255"}},
			{"title wrong type", map[string]any{"title": 5}, []string{"title", "string"}},
			{"hostname too short", map[string]any{"hostname": "ab"}, []string{"hostname", "3", "32"}},
			{"hostname too long", map[string]any{"hostname": strings.Repeat("h", 33)}, []string{"hostname", "32"}},
			{"hostname bad pattern", map[string]any{"hostname": "Bad_Host"}, []string{"hostname"}},
			{"unknown role", map[string]any{"defaultRole": "owner"}, []string{"defaultRole", "owner"}},
			{"bad logo", map[string]any{"logo": "not a url"}, []string{"logo"}},
			{"logo too long", map[string]any{"logo": "https://e.com/" + strings.Repeat("a", 2048)}, []string{"logo", "2048"}},
			{"bad default content", map[string]any{"defaultContent": map[string]any{"type": "space", "site": "x"}}, []string{"defaultContent.type"}},
			{"bad email domain", map[string]any{"emailDomains": []string{"not a domain"}}, []string{"emailDomains[0]"}},
			{"bad merge rule", map[string]any{"mergeRules": map[string]any{"type": "rules", "rules": []any{map[string]any{"rule": "nope"}}}}, []string{"mergeRules.rules[0].rule"}},
			{"inherit not for orgs", map[string]any{"mergeRules": map[string]any{"type": "inherit"}}, []string{"mergeRules.type"}},
			{"unknown field", map[string]any{"color": "red"}, []string{"color", "unknown"}},
			{"invalid JSON", `{"title": `, []string{"JSON"}},
			{"not an object", `[1,2]`, []string{"object"}},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				e.Patch(e.Admin, path, c.body).Expect(400).ExpectMessage(c.msg...)
			})
		}
		if e.Get(e.Admin, path).Expect(200).Str("title") != "Renamed" {
			t.Error("a refused patch changed the organization")
		}
	})
	t.Run("hostname taken is 409", func(t *testing.T) {
		other := e.NewOrg(e.Admin, "Other")
		e.Patch(e.Admin, "/v1/orgs/"+other, map[string]any{"hostname": "renamed-org"}).Expect(409)
	})
	t.Run("non-admin member is 403, outsider 404", func(t *testing.T) {
		editor := e.Member("editor", auth.Edit)
		e.Patch(editor, path, map[string]any{"title": "Nope"}).Expect(403)
		e.Patch(e.NewUser("outsider"), path, map[string]any{"title": "Nope"}).Expect(404)
	})
}

func TestOrganizationList(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	want := map[string]bool{e.Org: true}
	for i := 0; i < 7; i++ {
		want[e.NewOrg(e.Admin, "Org number "+string(rune('A'+i)))] = true
	}
	e.NewOrg(e.NewUser("stranger"), "Not mine")
	items := e.WalkList(e.Admin, "/v1/orgs", 3)
	if len(items) != len(want) {
		t.Fatalf("walked %d organizations, want %d", len(items), len(want))
	}
	seen := map[string]bool{}
	for _, it := range items {
		id := it["id"].(string)
		if !want[id] || seen[id] {
			t.Fatalf("unexpected or repeated organization %s", id)
		}
		seen[id] = true
	}
	if n := e.Get(e.Admin, "/v1/orgs?limit=2").Expect(200).Num("count"); n != 8 {
		t.Errorf("count = %v, want 8 (all pages)", n)
	}
}
