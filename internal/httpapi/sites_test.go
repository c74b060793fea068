package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

func TestSitesCreateGetListDelete(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	guide := titledSpace(t, e, "User Guide")
	api := titledSpace(t, e, "API")
	r := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Product Docs", "visibility": "unlisted",
		"spaces": []string{guide, api}}).Expect(201)
	id := r.Str("id")
	want := map[string]any{"object": "site", "type": "basic", "title": "Product Docs", "visibility": "unlisted",
		"published": false, "siteSpaces": 2.0, "basename": "product-docs", "agentsContext": "included",
		"adaptiveContent.enabled": false, "ads.status": "pending"}
	got := e.Get(e.Admin, sitesPath(e)+"/"+id).Expect(200)
	for _, res := range []*apitest.Resp{r, got} {
		for k, v := range want {
			if x, _ := res.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
		if res.Has("urls.published") || res.Str("urls.location") != e.URL+sitesPath(e)+"/"+id {
			t.Errorf("urls wrong for an unpublished site: %s", res.Body)
		}
	}
	if r.Header.Get("Location") != r.Str("urls.location") {
		t.Errorf("Location = %q", r.Header.Get("Location"))
	}
	// Defaults: a basic, public site titled Docs; a second one gets a free basename.
	d1 := e.Post(e.Admin, sitesPath(e), nil).Expect(201)
	d2 := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs"}).Expect(201)
	if d1.Str("visibility") != "public" || d1.Str("basename") != "docs" || d2.Str("basename") != "docs-2" {
		t.Errorf("defaults: %s / %s", d1.Body, d2.Body)
	}
	// The site spaces were added in order at the root, the first one default.
	ss := e.Get(e.Admin, sitesPath(e)+"/"+id+"/site-spaces").Expect(200)
	items := ss.Items()
	if len(items) != 2 || items[0]["title"] != "User Guide" || items[0]["default"] != true || items[1]["default"] != false ||
		items[0]["path"] != "user-guide" || items[1]["path"] != "api" {
		t.Fatalf("site spaces: %s", ss.Body)
	}

	// Filters: space, title, published, type.
	e.Post(e.Admin, sitesPath(e)+"/"+d1.Str("id")+"/publish", nil).Expect(200)
	check := func(query string, want ...string) {
		t.Helper()
		got := e.Get(e.Admin, sitesPath(e)+query).Expect(200).IDs()
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: got %v, want %v", query, got, want)
		}
	}
	check("", id, d1.Str("id"), d2.Str("id"))
	check("?space="+api, id)
	check("?title=PRODUCT", id)
	check("?published=true", d1.Str("id"))
	check("?published=false", id, d2.Str("id"))
	check("?type=premium")
	check("?type=basic&title=docs", id, d1.Str("id"), d2.Str("id"))
	all := e.WalkList(e.Admin, sitesPath(e), 1)
	if len(all) != 3 {
		t.Errorf("walking one by one found %d sites", len(all))
	}
	e.Get(e.Admin, sitesPath(e)+"?published=maybe").Expect(400).ExpectMessage("published")
	e.Get(e.Admin, sitesPath(e)+"?type=gold").Expect(400).ExpectMessage("type")
	e.Get(e.Admin, sitesPath(e)+"?limit=1001").Expect(400).ExpectMessage("limit")

	// Delete: 204, then 404 on get, and 204 again.
	e.Delete(e.Admin, sitesPath(e)+"/"+id).Expect(204)
	e.Get(e.Admin, sitesPath(e)+"/"+id).Expect(404)
	e.Delete(e.Admin, sitesPath(e)+"/"+id).Expect(204)
	e.Get(e.Admin, sitesPath(e)+"/nope").Expect(404)
}

func TestSitesCreateValidation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	other := e.NewOrg(e.Admin, "Other")
	foreign := newSpace(t, e, e.Admin, other, map[string]any{"title": "Elsewhere"})
	cases := []struct {
		body      map[string]any
		fragments []string
	}{
		{map[string]any{"title": "x"}, []string{"title", "2 to 128"}},
		{map[string]any{"title": strings.Repeat("x", 129)}, []string{"title", "2 to 128"}},
		{map[string]any{"type": "gold"}, []string{"type", "basic"}},
		{map[string]any{"visibility": "private"}, []string{"visibility", "share-link"}},
		{map[string]any{"spaces": []string{"missing"}}, []string{"spaces.0", "missing"}},
		{map[string]any{"spaces": []string{foreign}}, []string{"spaces.0"}},
		{map[string]any{"colour": "red"}, []string{"colour", "unknown"}},
	}
	for _, c := range cases {
		e.Post(e.Admin, sitesPath(e), c.body).Expect(400).ExpectMessage(c.fragments...)
	}
	// Nothing was half-written.
	if n := e.Get(e.Admin, sitesPath(e)).Expect(200).Num("count"); n != 0 {
		t.Errorf("%v sites after refused creations", n)
	}
}

func TestSitesPermissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	member := e.Member("member", auth.Edit)
	guest := e.Member("guest", auth.Guest)
	stranger := e.NewUser("stranger")
	path := newSite(t, e, map[string]any{"title": "Docs"})
	// Members read; only admins change; guests get 403; strangers see nothing.
	for _, p := range []string{path, sitesPath(e), path + "/site-spaces", path + "/structure"} {
		e.Get(guest, p).Expect(403).ExpectMessage("guests")
	}
	for _, a := range []apitest.Actor{member, guest} {
		if a == member {
			e.Get(a, path).Expect(200)
			e.Get(a, sitesPath(e)).Expect(200)
			e.Get(a, path+"/site-spaces").Expect(200)
		}
		e.Patch(a, path, map[string]any{"title": "Mine"}).Expect(403)
		e.Post(a, sitesPath(e), nil).Expect(403)
		e.Post(a, path+"/publish", nil).Expect(403)
		e.Delete(a, path).Expect(403)
		e.Post(a, path+"/share-links", map[string]any{"name": "x"}).Expect(403)
		e.Get(a, path+"/share-links").Expect(403)
		e.Get(a, path+"/publishing/auth").Expect(403)
	}
	for _, p := range []string{path, sitesPath(e), path + "/site-spaces", path + "/published"} {
		e.Get(stranger, p).Expect(404)
	}
	e.Delete(stranger, path).Expect(404)
	e.Get(apitest.Anonymous, path).Expect(401)
	// A site of another organization is absent under this one.
	other := e.NewOrg(e.Admin, "Other")
	e.Get(e.Admin, "/v1/orgs/"+other+"/sites/"+strings.TrimPrefix(path, sitesPath(e)+"/")).Expect(404)
	if e.Get(e.Admin, path).Str("title") != "Docs" {
		t.Error("a refused change changed the site")
	}
}

func TestSitesPatch(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, map[string]any{"title": "Docs"})
	r := e.Patch(e.Admin, path, map[string]any{"title": "Handbook", "visibility": "share-link", "basename": "handbook",
		"adaptiveContent": map[string]any{"enabled": true}, "agentsContext": "excluded",
		"proxy": "docs.example.com/help", "hostname": "docs.example.com"}).Expect(200)
	want := map[string]any{"title": "Handbook", "visibility": "share-link", "basename": "handbook",
		"adaptiveContent.enabled": true, "agentsContext": "excluded", "proxy.origin": "docs.example.com/help",
		"hostname": "docs.example.com"}
	got := e.Get(e.Admin, path).Expect(200)
	for _, res := range []*apitest.Resp{r, got} {
		for k, v := range want {
			if x, _ := res.Get(k); x != v {
				t.Errorf("%s = %v, want %v", k, x, v)
			}
		}
	}
	// null removes the proxy and the hostname; absent fields stay.
	r = e.Patch(e.Admin, path, map[string]any{"proxy": nil, "hostname": nil}).Expect(200)
	if r.Has("proxy") || r.Has("hostname") || r.Str("title") != "Handbook" {
		t.Errorf("after removing the proxy: %s", r.Body)
	}
	cases := []struct {
		body      map[string]any
		fragments []string
	}{
		{map[string]any{"title": "x"}, []string{"title", "2 to 128"}},
		{map[string]any{"visibility": "private"}, []string{"visibility"}},
		{map[string]any{"basename": ""}, []string{"basename", "1 to 100"}},
		{map[string]any{"basename": strings.Repeat("b", 101)}, []string{"basename", "1 to 100"}},
		{map[string]any{"basename": "Has Space"}, []string{"basename"}},
		{map[string]any{"hostname": "localhost"}, []string{"hostname", "pattern"}},
		{map[string]any{"hostname": "Docs.Example.com"}, []string{"hostname", "pattern"}},
		{map[string]any{"hostname": strings.Repeat(strings.Repeat("h", 60)+".", 9) + "com"}, []string{"hostname", "512"}},
		{map[string]any{"proxy": "example.com"}, []string{"proxy", "pattern"}},
		{map[string]any{"proxy": "https://example.com/docs"}, []string{"proxy", "pattern"}},
		{map[string]any{"proxy": "example.com/" + strings.Repeat("d", 512)}, []string{"proxy", "512"}},
		{map[string]any{"agentsContext": "maybe"}, []string{"agentsContext"}},
		{map[string]any{"adaptiveContent": map[string]any{}}, []string{"adaptiveContent.enabled"}},
		{map[string]any{"defaultSiteSpace": "nope"}, []string{"defaultSiteSpace", "nope"}},
		{map[string]any{"defaultSiteSection": "nope"}, []string{"defaultSiteSection", "nope"}},
		{map[string]any{"title": 5}, []string{"title", "string"}},
	}
	for _, c := range cases {
		e.Patch(e.Admin, path, c.body).Expect(400).ExpectMessage(c.fragments...)
	}
	// A basename or hostname used by another site is a conflict.
	other := newSite(t, e, map[string]any{"title": "Other"})
	e.Patch(e.Admin, path, map[string]any{"hostname": "docs.example.com"}).Expect(200)
	e.Patch(e.Admin, other, map[string]any{"hostname": "docs.example.com"}).Expect(409).ExpectMessage("hostname")
	e.Patch(e.Admin, other, map[string]any{"basename": "handbook"}).Expect(409).ExpectMessage("basename")
	if got := e.Get(e.Admin, path).Expect(200); got.Str("title") != "Handbook" || got.Str("basename") != "handbook" {
		t.Errorf("refused patches changed the site: %s", got.Body)
	}
}

func TestSitesPublish(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := newSite(t, e, map[string]any{"title": "Docs"})
	r := e.Post(e.Admin, path+"/publish", nil).Expect(200)
	want := e.URL + "/sites/" + e.Org + "/docs/"
	if !r.Bool("published") || r.Str("urls.published") != want {
		t.Fatalf("published site: %s", r.Body)
	}
	if !e.Get(e.Admin, path).Bool("published") {
		t.Error("publish did not last")
	}
	// A custom hostname becomes the published address.
	r = e.Patch(e.Admin, path, map[string]any{"hostname": "docs.example.com"}).Expect(200)
	if r.Str("urls.published") != "http://docs.example.com/" {
		t.Errorf("published URL with a hostname: %s", r.Str("urls.published"))
	}
	r = e.Post(e.Admin, path+"/unpublish", nil).Expect(200)
	if r.Bool("published") || r.Has("urls.published") {
		t.Errorf("unpublished site: %s", r.Body)
	}
	e.Post(e.Admin, sitesPath(e)+"/nope/publish", nil).Expect(404)
}

// TestSiteSpacesShowTheReadersPermissions checks that the space inside each site space carries
// the reader's own permissions, on small sites (looked up space by space) and larger ones
// (read from one listing).
func TestSiteSpacesShowTheReadersPermissions(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	member := e.Member("member", auth.Read)
	for _, n := range []int{2, 6} {
		var spaces []string
		for i := 0; i < n; i++ {
			spaces = append(spaces, titledSpace(t, e, "Space"))
		}
		grant(t, e, e.Admin, "/v1/spaces/"+spaces[1], "read", []string{member.ID}, nil)
		path := newSite(t, e, map[string]any{"spaces": spaces})
		items := e.Get(member, path+"/site-spaces").Expect(200).Items()
		if len(items) != n {
			t.Fatalf("%d site spaces, want %d", len(items), n)
		}
		for i, it := range items {
			p := it["space"].(map[string]any)["permissions"].(map[string]any)
			if want := i == 1; p["view"] != want || p["edit"] != false {
				t.Errorf("site of %d: space %d permissions %v, want view %v", n, i, p, want)
			}
		}
		for _, it := range e.Get(e.Admin, path+"/site-spaces").Expect(200).Items() {
			if it["space"].(map[string]any)["permissions"].(map[string]any)["admin"] != true {
				t.Errorf("an organization admin is admin of every space: %v", it)
			}
		}
	}
}
