package httpapi_test

import (
	"slices"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestIntegrationInstallOnOrganization(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "acme", nil)
	publish(e, "secret-tool", map[string]any{"visibility": "private"})
	customer := e.NewUser("Cora")
	corp := e.NewOrg(customer, "Cora Corp")
	reader := e.NewUser("Rudi")
	e.AddMember(corp, reader, auth.Read)
	stranger := e.NewUser("Stan")

	// A private integration cannot be installed outside its organization; non-admins install nothing.
	e.Post(customer, "/v1/integrations/secret-tool/installations", map[string]any{"organization": corp}).ExpectError(404)
	e.Post(reader, "/v1/integrations/acme/installations", map[string]any{"organization": corp}).ExpectError(403)
	e.Post(stranger, "/v1/integrations/acme/installations", map[string]any{"organization": corp}).ExpectError(404)
	e.Post(customer, "/v1/integrations/acme/installations", map[string]any{}).ExpectError(400)

	r := e.Post(customer, "/v1/integrations/acme/installations", map[string]any{"organization": corp}).Expect(201)
	id := r.Str("id")
	if r.Header.Get("Location") != r.Str("urls.location") || r.Str("target.organization") != corp || r.Str("status") != "active" ||
		r.Num("spaces") != 0 || r.Str("space_selection") != "selected" {
		t.Fatalf("installation: %s", r.Body)
	}
	if again := e.Post(customer, "/v1/integrations/acme/installations", map[string]any{"organization": corp}).Expect(201); again.Str("id") != id {
		t.Fatalf("a second install made another installation: %s", again.Body)
	}
	inst := "/v1/integrations/acme/installations/" + id
	// Read by the organization's members and the integration's owner; not by others.
	e.Get(reader, inst).Expect(200)
	e.Get(e.Admin, inst).Expect(200)
	e.Get(stranger, inst).ExpectError(404)

	// The configuration is checked against the account form: apiKey is required, level an enum.
	e.Patch(customer, inst, map[string]any{"configuration": map[string]any{"level": "high"}}).ExpectError(400).ExpectMessage("apiKey")
	e.Patch(customer, inst, map[string]any{"configuration": map[string]any{"apiKey": "k", "level": "extreme"}}).ExpectError(400).ExpectMessage("configuration.level")
	e.Patch(customer, inst, map[string]any{"space_selection": "some"}).ExpectError(400)
	e.Patch(customer, inst, map[string]any{"externalIds": []string{"a", "b", "c", "d", "e", "f"}}).ExpectError(400)
	e.Patch(reader, inst, map[string]any{"externalIds": []string{"x"}}).ExpectError(403)
	u := e.Patch(customer, inst, map[string]any{"configuration": map[string]any{"apiKey": "k", "level": "high"},
		"externalIds": []string{"acct-42"}, "space_selection": "all"}).Expect(200)
	if u.Str("configuration.level") != "high" || u.Str("space_selection") != "all" {
		t.Fatalf("updated: %s", u.Body)
	}

	// Lists: the integration's installations (the owner sees every organization's), by external id.
	if ids := e.Get(e.Admin, "/v1/integrations/acme/installations?externalId=acct-42").Expect(200).IDs(); !slices.Equal(ids, []string{id}) {
		t.Fatalf("by external id: %v", ids)
	}
	if ids := e.Get(e.Admin, "/v1/integrations/acme/installations?externalId=other").Expect(200).IDs(); len(ids) != 0 {
		t.Fatalf("by another external id: %v", ids)
	}
	if items := e.Get(customer, "/v1/orgs/"+corp+"/installations?search=acm").Expect(200).Items(); len(items) != 1 ||
		items[0]["installation"].(map[string]any)["id"] != id || items[0]["integration"].(map[string]any)["name"] != "acme" {
		t.Fatalf("organization's installations: %v", items)
	}
	e.Get(stranger, "/v1/orgs/"+corp+"/installations").ExpectError(404)
	if st := e.Get(reader, "/v1/orgs/"+corp+"/integrations/acme/installation_status").Expect(200); st.Str("status") != "active" {
		t.Fatalf("status: %s", st.Body)
	}
	e.Get(customer, "/v1/orgs/"+corp+"/integrations/secret-tool/installation_status").ExpectError(404)
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/integrations/acme/installation_status").ExpectError(404)
	items := e.Get(customer, "/v1/orgs/"+corp+"/integrations/installations-status").Expect(200).Items()
	if len(items) != 1 || items[0]["status"] != "active" || items[0]["integration"].(map[string]any)["name"] != "acme" {
		t.Fatalf("installations-status: %v", items)
	}
	if n := len(e.Get(customer, "/v1/orgs/"+corp+"/integrations/installations-status?target=space").Expect(200).Items()); n != 0 {
		t.Fatalf("space installations-status: %d items", n)
	}

	// Uninstall: 205, then 204; the installation is gone.
	e.Delete(reader, inst).ExpectError(403)
	e.Delete(customer, inst).Expect(205)
	e.Delete(customer, inst).Expect(204)
	e.Get(customer, inst).ExpectError(404)
}

func TestIntegrationInstallOnSpacesAndSites(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "acme", map[string]any{"scopes": []string{"space:content:read", "site:script:inject"},
		"contentSecurityPolicy": map[string]any{"script-src": "'self' https://cdn.acme.test"}})
	publish(e, "site-only", map[string]any{"target": "site"})
	in := e.Post(e.Admin, "/v1/integrations/acme/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	siteOnly := e.Post(e.Admin, "/v1/integrations/site-only/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	sp := titledSpace(t, e, "Handbook")
	site := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs"}).Expect(201).Str("id")
	other := e.NewUser("Otto")
	foreignSpace := newSpace(t, e, other, e.NewOrg(other, "Otto's"), map[string]any{"title": "Foreign"})
	base := "/v1/integrations/acme/installations/" + in
	// The space's first content is a change from before the integration was installed on it.
	// The consumer decides who hears of a change when it comes to it: left to the background
	// worker, it came after the installation once in a loaded CI run, and the list below had
	// a space_content_updated more.
	e.RunDue()

	e.Post(e.Admin, base+"/spaces", map[string]any{"space": foreignSpace}).ExpectError(404)
	e.Post(e.Admin, "/v1/integrations/site-only/installations/"+siteOnly+"/spaces", map[string]any{"space": sp}).ExpectError(400)
	r := e.Post(e.Admin, base+"/spaces", map[string]any{"space": sp}).Expect(201)
	if r.Str("space") != sp || r.Str("installation") != in || r.Str("integration") != "acme" || r.Header.Get("Location") != r.Str("urls.location") {
		t.Fatalf("space installation: %s", r.Body)
	}
	if x := e.Get(e.Admin, base+"/spaces/"+sp+"?extended=true").Expect(200); x.Str("space.id") != sp || x.Str("space.title") != "Handbook" {
		t.Fatalf("extended: %s", x.Body)
	}
	e.Patch(e.Admin, base+"/spaces/"+sp, map[string]any{"configuration": map[string]any{"tracked": "yes"}}).ExpectError(400).ExpectMessage("configuration.tracked")
	if p := e.Patch(e.Admin, base+"/spaces/"+sp, map[string]any{"configuration": map[string]any{"tracked": true}, "externalIds": []string{"sp-1"}}).Expect(200); !p.Bool("configuration.tracked") {
		t.Fatalf("patched: %s", p.Body)
	}
	if g := e.Get(e.Admin, base).Expect(200); g.Num("spaces") != 1 {
		t.Fatalf("installation's space count: %s", g.Body)
	}
	if items := e.Get(e.Admin, base+"/spaces").Expect(200).Items(); len(items) != 1 || items[0]["space"] != sp {
		t.Fatalf("installation's spaces: %v", items)
	}
	if items := e.Get(e.Admin, "/v1/integrations/acme/spaces?externalId=sp-1&extended=true").Expect(200).Items(); len(items) != 1 ||
		items[0]["space"].(map[string]any)["id"] != sp {
		t.Fatalf("integration's spaces: %v", items)
	}
	if n := len(e.Get(e.Admin, "/v1/integrations/acme/spaces?externalId=nope").Expect(200).Items()); n != 0 {
		t.Fatalf("external id filter: %d", n)
	}
	names := func(path string) string {
		var out []string
		for _, it := range e.Get(e.Admin, path).Expect(200).Items() {
			out = append(out, it["name"].(string))
		}
		return strings.Join(out, ",")
	}
	if got := names("/v1/spaces/" + sp + "/integrations"); got != "acme" {
		t.Fatalf("space's integrations: %s", got)
	}
	blocks := e.Get(e.Admin, "/v1/spaces/"+sp+"/integration-blocks").Expect(200)
	if !strings.Contains(string(blocks.Body), `"name":"acme"`) || !strings.Contains(string(blocks.Body), `"id":"chart"`) {
		t.Fatalf("blocks: %s", blocks.Body)
	}
	e.Get(other, "/v1/spaces/"+sp+"/integrations").ExpectError(404)

	// Sites.
	sr := e.Post(e.Admin, base+"/sites?extended=true", map[string]any{"siteId": site}).Expect(201)
	if sr.Str("site.id") != site {
		t.Fatalf("site installation: %s", sr.Body)
	}
	e.Post(e.Admin, "/v1/integrations/site-only/installations/"+siteOnly+"/sites", map[string]any{"siteId": site}).Expect(201)
	if got := names("/v1/orgs/" + e.Org + "/sites/" + site + "/integrations"); got != "acme,site-only" {
		t.Fatalf("site's integrations: %s", got)
	}
	scripts := e.Get(e.Admin, "/v1/orgs/"+e.Org+"/sites/"+site+"/integration-scripts").Expect(200)
	if !strings.Contains(string(scripts.Body), `"contentSecurityPolicy":"script-src 'self' https://cdn.acme.test"`) ||
		strings.Count(string(scripts.Body), `"script"`) != 1 {
		t.Fatalf("scripts: %s", scripts.Body)
	}
	if items := e.Get(e.Admin, "/v1/integrations/acme/sites").Expect(200).Items(); len(items) != 1 || items[0]["site"] != site {
		t.Fatalf("integration's sites: %v", items)
	}
	e.Get(e.Admin, base+"/sites/"+site).Expect(200)
	e.Patch(e.Admin, base+"/sites/"+site, map[string]any{"externalIds": []string{"s"}}).Expect(200)
	if n := len(e.Get(e.Admin, base+"/sites").Expect(200).Items()); n != 1 {
		t.Fatalf("installation's sites: %d", n)
	}

	// Removing them: 205, then 204.
	e.Delete(other, base+"/sites/"+site).Expect(204) // as for nothing: it is not theirs to see
	e.Get(e.Admin, base+"/sites/"+site).Expect(200)
	e.Delete(e.Admin, base+"/sites/"+site).Expect(205)
	e.Delete(e.Admin, base+"/sites/"+site).Expect(204)
	e.Delete(e.Admin, base+"/spaces/"+sp).Expect(205)
	e.Delete(e.Admin, base+"/spaces/"+sp).Expect(204)
	e.Get(e.Admin, base+"/spaces/"+sp).ExpectError(404)
	if got := names("/v1/spaces/" + sp + "/integrations"); got != "" {
		t.Fatalf("space's integrations after removal: %s", got)
	}

	// Every change was recorded as an event for the owner to read, newest first.
	e.RunDue() // the list shows events with an outcome
	var types []string
	for _, it := range e.Get(e.Admin, "/v1/integrations/acme/events").Expect(200).Items() {
		types = append(types, it["payload"].(map[string]any)["type"].(string))
	}
	want := "space_installation_deleted,site_installation_deleted,site_installation_setup,site_installation_setup,space_installation_setup,space_installation_setup,installation_setup"
	if strings.Join(types, ",") != want {
		t.Fatalf("events: %v", types)
	}
}
