package httpapi_test

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestIntegrationPublishVersionsAndImages(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	icon := pngBase64(t, 16, 16)
	r := publish(e, "acme-analytics", map[string]any{"icon": icon, "previewImages": []string{pngBase64(t, 40, 20)}})
	if r.Str("object") != "integration" || r.Num("version") != 1 || r.Str("owner.id") != e.Org ||
		!r.Bool("permissions.admin") || r.Str("visibility") != "public" || r.Str("target") != "all" {
		t.Fatalf("published: %s", r.Body)
	}
	if strings.Contains(string(r.Body), "s3cr3t") || strings.Contains(string(r.Body), "export default") {
		t.Fatalf("the answer shows the secrets or the script: %s", r.Body)
	}
	// The icon is served back as the same image.
	resp, err := http.Get(r.Str("urls.icon"))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || len(got) == 0 {
		t.Fatalf("icon %s: %d %s (%d bytes) %s", r.Str("urls.icon"), resp.StatusCode, resp.Header.Get("Content-Type"), len(got), got)
	}
	if previews, _ := r.Get("previewImages"); len(previews.([]any)) != 1 {
		t.Fatalf("previewImages: %v", previews)
	}

	// A new version keeps what it does not send and counts up.
	r2 := e.Post(e.Admin, "/v1/integrations/acme-analytics", map[string]any{"title": "Acme Insights"}).Expect(200)
	if r2.Num("version") != 2 || r2.Str("title") != "Acme Insights" || r2.Str("description") != "Counts visits" ||
		r2.Str("urls.icon") != r.Str("urls.icon") {
		t.Fatalf("second version: %s", r2.Body)
	}
	if g := e.Get(e.Admin, "/v1/integrations/acme-analytics").Expect(200); g.Num("version") != 2 {
		t.Fatalf("get: %s", g.Body)
	}

	// Invalid publications name the field.
	bad := []struct {
		more map[string]any
		want string
	}{
		{map[string]any{"scopes": []string{"space:everything"}}, "scopes[0]"},
		{map[string]any{"title": "A"}, "title"},
		{map[string]any{"icon": "bm90IGFuIGltYWdl"}, "icon"},
		{map[string]any{"icon": "***"}, "icon"},
		{map[string]any{"previewImages": []string{icon, icon, icon, icon}}, "previewImages"},
		{map[string]any{"blocks": []map[string]any{{"id": "x", "title": "X"}}}, "blocks[0].title"},
		{map[string]any{"configurations": map[string]any{"account": map[string]any{"properties": map[string]any{"n": map[string]any{"type": "date"}}}}}, "configurations.account.properties.n.type"},
		{map[string]any{"configurations": map[string]any{"account": map[string]any{"properties": map[string]any{}, "required": []string{"missing"}}}}, "configurations.account.required"},
		{map[string]any{"contentSecurityPolicy": map[string]any{"script-srcx": "'self'"}}, "contentSecurityPolicy.script-srcx"},
		{map[string]any{"contentSecurityPolicy": "default-src 'self'\r\nX-Evil: 1"}, "contentSecurityPolicy"},
		{map[string]any{"externalLinks": []map[string]any{{"url": "javascript:alert(1)", "label": "x"}}}, "externalLinks[0].url"},
		{map[string]any{"visibility": "secret"}, "visibility"},
		{map[string]any{"script": nil}, "script"},
		{map[string]any{"script": "export default {\n  fetch() { return new Response('ok') \n}"}, "script: the script does not parse: line 3"},
		{map[string]any{"script": "export const x = 1;"}, "no default export"},
	}
	for _, b := range bad {
		e.Post(e.Admin, "/v1/integrations/fresh-one", integrationBody(e.Org, b.more)).ExpectError(400).ExpectMessage(b.want)
	}
	e.Post(e.Admin, "/v1/integrations/bad%20name", integrationBody(e.Org, nil)).ExpectError(400)
	e.Get(e.Admin, "/v1/integrations/fresh-one").ExpectError(404)
}

func TestIntegrationPublishPermissionsAndVisibility(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "private-tool", map[string]any{"visibility": "private"})
	publish(e, "public-tool", nil)
	editor := e.Member("Ed", auth.Edit)
	outsider := e.NewUser("Olga")
	otherOrg := e.NewOrg(outsider, "Olga's")

	// Members who are not admins may not publish; outsiders cannot publish under the org.
	e.Post(editor, "/v1/integrations/public-tool", map[string]any{"title": "Hijacked"}).ExpectError(403)
	e.Post(outsider, "/v1/integrations/newer", integrationBody(e.Org, nil)).ExpectError(404)
	// Another organization's admin cannot take a published name.
	e.Post(outsider, "/v1/integrations/public-tool", integrationBody(otherOrg, nil)).ExpectError(403)

	// A private integration exists only inside its organization.
	e.Get(editor, "/v1/integrations/private-tool").Expect(200)
	e.Get(outsider, "/v1/integrations/private-tool").ExpectError(404)
	if g := e.Get(outsider, "/v1/integrations/public-tool").Expect(200); g.Bool("permissions.admin") {
		t.Fatalf("an outsider administers it: %s", g.Body)
	}
	names := func(a apitest.Actor, q string) []string {
		var out []string
		for _, it := range e.Get(a, "/v1/integrations"+q).Expect(200).Items() {
			out = append(out, it["name"].(string))
		}
		return out
	}
	if got := names(outsider, ""); slices.Contains(got, "private-tool") || !slices.Contains(got, "public-tool") {
		t.Fatalf("outsider's list: %v", got)
	}
	if got := names(editor, ""); !slices.Contains(got, "private-tool") {
		t.Fatalf("member's list: %v", got)
	}
	// Unpublish: the owner's admins only; 205, then 204 once gone; an outsider's is as for nothing.
	e.Delete(editor, "/v1/integrations/public-tool").ExpectError(403)
	e.Delete(outsider, "/v1/integrations/private-tool").Expect(204)
	e.Get(e.Admin, "/v1/integrations/private-tool").Expect(200)
	e.Delete(e.Admin, "/v1/integrations/public-tool").Expect(205)
	e.Delete(e.Admin, "/v1/integrations/public-tool").Expect(204)
	e.Get(e.Admin, "/v1/integrations/public-tool").ExpectError(404)
}

func TestIntegrationListFilters(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "charts", nil)
	publish(e, "git-mirror", map[string]any{"title": "Git Mirror", "categories": []string{"content"}, "blocks": []any{},
		"scopes": []string{"space:git:sync"}, "target": "space",
		"contentSources": []map[string]any{{"id": "src", "title": "Repo", "configuration": map[string]any{"componentId": "cfg"}}}})
	publish(e, "site-tracker", map[string]any{"title": "Site Tracker", "target": "site", "categories": []string{"marketing"},
		"blocks": []any{}, "scopes": []string{"site:script:inject"}})
	other := e.NewUser("Other")
	otherOrg := e.NewOrg(other, "Other org")
	e.Post(other, "/v1/integrations/others-tool", integrationBody(otherOrg, map[string]any{"title": "Others Tool"})).Expect(200)

	check := func(q string, want ...string) {
		t.Helper()
		var got []string
		for _, it := range e.Get(e.Admin, "/v1/integrations"+q).Expect(200).Items() {
			got = append(got, it["name"].(string))
		}
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: got %v, want %v", q, got, want)
		}
	}
	check("", "charts", "git-mirror", "others-tool", "site-tracker")
	check("?search=MIRROR", "git-mirror")
	check("?category=content", "git-mirror")
	check("?blockDomain=acme.test", "charts", "others-tool")
	check("?blockDomain=charts.acme.test", "charts", "others-tool")
	check("?blockDomain=example.org")
	check("?blocks=true", "charts", "others-tool")
	check("?blocks=false", "git-mirror", "site-tracker")
	check("?contentSources=true", "git-mirror")
	check("?owner="+otherOrg, "others-tool")
	check("?scope=site:script:inject", "site-tracker")
	check("?target=site", "charts", "others-tool", "site-tracker")
	check("?target=space&owner="+e.Org, "charts", "git-mirror")
	check("?limit=2", "charts", "git-mirror")
	e.Get(e.Admin, "/v1/integrations?category=nope").ExpectError(400)
	e.Get(e.Admin, "/v1/integrations?blockDomain=a/b").ExpectError(400)
	e.Get(e.Admin, "/v1/integrations?blocks=maybe").ExpectError(400)
	if n := len(e.WalkList(e.Admin, "/v1/integrations", 1)); n != 4 {
		t.Fatalf("walk by one: %d integrations", n)
	}
	// listOrganizationIntegrations: what the organization may install (public ones and its own),
	// to its members.
	e.Post(other, "/v1/integrations/others-secret", integrationBody(otherOrg, map[string]any{"visibility": "private"})).Expect(200)
	avail := func(a apitest.Actor, org, q string) string {
		var out []string
		for _, it := range e.Get(a, "/v1/orgs/"+org+"/integrations"+q).Expect(200).Items() {
			out = append(out, it["name"].(string))
		}
		return strings.Join(out, ",")
	}
	if got := avail(e.Admin, e.Org, "?target=site"); got != "charts,others-tool,site-tracker" {
		t.Fatalf("organization's integrations: %v", got)
	}
	if got := avail(other, otherOrg, ""); got != "charts,git-mirror,others-secret,others-tool,site-tracker" {
		t.Fatalf("the other organization's integrations: %v", got)
	}
	e.Get(other, "/v1/orgs/"+e.Org+"/integrations").ExpectError(404)
}

// renderScript answers ui_render events for the component "config" with ContentKit output, as
// @gitbook/runtime's components do, and 404 for any other.
const renderScript = `export default { async fetch(request) {
  const form = await request.formData();
  const event = JSON.parse(form.get('event'));
  if (event.type !== 'ui_render' || event.componentId !== 'config') {
    return new Response('no component ' + event.componentId, { status: 404 });
  }
  return Response.json({ type: 'element', state: {}, props: event.props,
    element: { type: 'block', children: [{ type: 'text', children: 'n=' + event.props.n + ' in ' + event.context.type }] } },
    { headers: { 'Cache-Control': 'max-age=30' } });
} }`

func TestIntegrationRenderIsAnsweredByTheScript(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	publish(e, "widget", map[string]any{"script": renderScript})
	// {"componentId":"config","props":{"n":1},"context":{"type":"configuration_account"}}, as
	// lz-string's compressToEncodedURIComponent gives it.
	const req = "N4Igxg9gtgDhB2BTeAXAkgExALnAgZgJYDmIANCDAE4QwDOOo8OAjAL4WSqIAeKjIFAE8YiHHnhFiAVyoBDFIQQB9OWEjTUINmyA"
	res := e.Get(e.Admin, "/v1/integrations/widget/render?request="+req).Expect(200)
	if !strings.Contains(string(res.Body), "n=1 in configuration_account") || res.Header.Get("Cache-Control") != "max-age=30" {
		t.Fatalf("render: %s %v", res.Body, res.Header)
	}
	res = e.Post(e.Admin, "/v1/integrations/widget/render", map[string]any{"componentId": "config", "props": map[string]any{"n": 2},
		"context": map[string]any{"type": "configuration_space"}}).Expect(200)
	if !strings.Contains(string(res.Body), "n=2 in configuration_space") {
		t.Fatalf("render: %s", res.Body)
	}
	e.Get(e.Admin, "/v1/integrations/widget/render?request=!!").ExpectError(400)
	e.Get(e.Admin, "/v1/integrations/nothing/render?request="+req).ExpectError(404)
	e.Post(e.Admin, "/v1/integrations/widget/render", map[string]any{"props": map[string]any{}, "context": map[string]any{}}).
		ExpectError(400).ExpectMessage("componentId")
	// The script's error answer, or its failure, is the server's upstream failing: 502.
	e.Post(e.Admin, "/v1/integrations/widget/render", map[string]any{"componentId": "c", "props": map[string]any{},
		"context": map[string]any{"type": "configuration_account"}}).ExpectError(502).ExpectMessage("no component c")
	publish(e, "broken", map[string]any{"script": "export default { fetch() { throw new Error('cannot render') } }"})
	e.Get(e.Admin, "/v1/integrations/broken/render?request="+req).ExpectError(502).ExpectMessage("cannot render")
	outsider := e.NewUser("Out")
	publish(e, "hidden", map[string]any{"visibility": "private"})
	e.Get(outsider, "/v1/integrations/hidden/render?request="+req).ExpectError(404)
}
