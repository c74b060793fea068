package httpapi_test

import (
	"net/url"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/site"

	"github.com/golang-jwt/jwt/v5"
)

func resolveContent(e *apitest.Env, a apitest.Actor, u string) *apitest.Resp {
	return e.Get(a, "/v1/urls/content?url="+url.QueryEscape(u))
}

func TestContentByURL(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Alpha")
	col := newCollection(t, e, e.Admin, e.Org, map[string]any{"title": "Shelf"})
	cr := newChangeRequest(t, e, e.Admin, sp, "Fresh page")
	fresh := e.Post(e.Admin, crPath(sp, cr)+"/pages", map[string]any{"title": "Fresh", "markdown": "New.\n"}).Expect(201).Str("page")
	space := e.Get(e.Admin, "/v1/spaces/"+sp).Expect(200)
	crNum := e.Get(e.Admin, crPath(sp, cr)).Expect(200)

	t.Run("a space's app and API addresses", func(t *testing.T) {
		for _, u := range []string{space.Str("urls.app"), space.Str("urls.location"), e.URL + "/app/s/" + sp + "/~/revisions/x"} {
			r := resolveContent(e, e.Admin, u).Expect(200)
			if r.Str("space.id") != sp || r.Has("page") || r.Has("changeRequest") || r.Has("collection") {
				t.Errorf("%s: %s", u, r.Body)
			}
		}
	})
	t.Run("a page of the space by its app address", func(t *testing.T) {
		r := resolveContent(e, e.Admin, e.URL+"/app/s/"+sp+"/install/linux").Expect(200)
		if r.Str("space.id") != sp || r.Str("page.id") != "linux" || r.Str("page.title") != "Linux Alpha" {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("a change request, and a page only it has", func(t *testing.T) {
		r := resolveContent(e, e.Admin, crNum.Str("urls.app")).Expect(200)
		if r.Str("changeRequest.id") != cr || r.Str("space.id") != sp || r.Has("page") {
			t.Fatalf("%s", r.Body)
		}
		r = resolveContent(e, e.Admin, crNum.Str("urls.app")+"/fresh").Expect(200)
		if r.Str("page.id") != fresh {
			t.Fatalf("%s", r.Body)
		}
		resolveContent(e, e.Admin, e.URL+"/app/s/"+sp+"/fresh").ExpectError(404).ExpectMessage("fresh")
	})
	t.Run("a collection", func(t *testing.T) {
		r := resolveContent(e, e.Admin, e.URL+"/app/c/"+col).Expect(200)
		if r.Str("collection.id") != col || r.Has("space") {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("what it cannot resolve, and who cannot see", func(t *testing.T) {
		e.Get(e.Admin, "/v1/urls/content").ExpectError(400).ExpectMessage("url", "required")
		resolveContent(e, e.Admin, "not a url").ExpectError(400).ExpectMessage("url")
		resolveContent(e, e.Admin, "https://elsewhere.example.com/app/s/"+sp).ExpectError(404).ExpectMessage("elsewhere.example.com")
		resolveContent(e, e.Admin, e.URL+"/app/o/"+e.Org).ExpectError(404)
		resolveContent(e, e.Admin, e.URL+"/app/s/nosuchspace").ExpectError(404)
		resolveContent(e, e.NewUser("outsider"), space.Str("urls.app")).ExpectError(404)
	})
}

func TestPublishedContentByURL(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Beta")
	f := newSiteFixture(t, e, site.Public)
	ssID := f.siteSpace("", sp, "guide", true, nil)
	get := func(u, extra string) *apitest.Resp {
		return e.Get(e.Admin, "/v1/urls/published?url="+url.QueryEscape(u)+extra)
	}

	t.Run("a page of a public site", func(t *testing.T) {
		r := get(e.URL+f.path("install/linux"), "").Expect(200)
		schemaChecker(t, loadOpenAPI(t))("PublishedSiteContentLookup", r.Map())
		if r.Str("site") != f.Site.ID || r.Str("siteSpace") != ssID || r.Str("space") != sp || r.Str("pathname") != "install/linux" ||
			r.Str("organization") != e.Org || r.Str("siteBasePath") != f.path("") || r.Str("basePath") != f.path("") ||
			r.Str("canonicalUrl") != e.URL+f.path("install/linux") || !r.Bool("complete") || !r.Has("apiToken") {
			t.Fatalf("%s", r.Body)
		}
		if r := get(e.URL+f.path(""), "").Expect(200); r.Str("pathname") != "" || r.Str("space") != sp {
			t.Fatalf("home %s", r.Body)
		}
		// POST answers the same.
		p := e.Post(e.Admin, "/v1/urls/published", map[string]any{"url": e.URL + f.path("install")}).Expect(200)
		if p.Str("pathname") != "install" || p.Str("space") != sp {
			t.Fatalf("POST %s", p.Body)
		}
	})
	t.Run("the default site space's own path redirects to the canonical address", func(t *testing.T) {
		r := get(e.URL+f.path("guide/install"), "").Expect(200)
		if r.Str("target") != "content" || r.Str("redirect") != e.URL+f.path("install") {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("no page, no site", func(t *testing.T) {
		get(e.URL+f.path("nope"), "").ExpectError(404)
		get(e.URL+"/sites/"+e.Org+"/no-such-site/", "").ExpectError(404)
		get("https://unknown.example.com/x", "").ExpectError(404)
		get("ftp://x", "").ExpectError(400).ExpectMessage("url")
		get(e.URL+f.path(""), "&redirectOnError=perhaps").ExpectError(400).ExpectMessage("redirectOnError")
	})

	t.Run("share links: the key in the URL is honoured", func(t *testing.T) {
		shared := newSiteFixture(t, e, site.ShareLinked)
		shared.siteSpace("", sp, "guide", true, nil)
		shared.shareLink("the-key", true)
		get(e.URL+shared.path("install"), "").ExpectError(404)
		get(e.URL+shared.path("install")+"?shareKey=wrong", "").ExpectError(404)
		r := get(e.URL+shared.path("install")+"?shareKey=the-key", "").Expect(200)
		if r.Str("shareKey") != "the-key" || r.Str("pathname") != "install" {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("visitor auth: tokens honoured, redirectOnError", func(t *testing.T) {
		va := newSiteFixture(t, e, site.VisitorAuth)
		va.siteSpace("", sp, "guide", true, nil)
		good := visitorToken(t, va.Site.VisitorAuth.Key, e.Clock.Now().Add(time.Hour), jwt.MapClaims{"plan": "pro"})
		bad := visitorToken(t, "another-secret", e.Clock.Now().Add(time.Hour), nil)
		get(e.URL+va.path("install"), "").ExpectError(401).ExpectMessage("visitor")
		get(e.URL+va.path("install"), "&visitorAuthToken="+bad).ExpectError(401)
		if r := get(e.URL+va.path("install"), "&visitorAuthToken="+good).Expect(200); r.Str("space") != sp {
			t.Fatalf("%s", r.Body)
		}
		if r := e.Post(e.Admin, "/v1/urls/published", map[string]any{"url": e.URL + va.path("install"),
			"visitor": map[string]any{"jwtToken": good}}).Expect(200); r.Str("pathname") != "install" {
			t.Fatalf("POST %s", r.Body)
		}
		// Without a login URL there is nowhere to send the reader.
		get(e.URL+va.path("install"), "&redirectOnError=true").ExpectError(401)
		va.update(func(st *site.Site) { st.VisitorAuth.FallbackURL = "https://login.example.com/docs" })
		r := get(e.URL+va.path("install"), "&redirectOnError=true").Expect(200)
		if r.Str("target") != "external" || r.Str("redirect") != "https://login.example.com/docs" {
			t.Fatalf("%s", r.Body)
		}
	})
}

func TestSubdomain(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	e.Patch(e.Admin, "/v1/orgs/"+e.Org, map[string]any{"hostname": "acme-docs"}).Expect(200)
	r := e.Get(e.NewUser("anyone"), "/v1/subdomains/acme-docs").Expect(200)
	if r.Str("object") != "subdomain" || r.Str("subdomain") != "acme-docs" || !r.Bool("isActive") ||
		r.Str("target.type") != "organization" || r.Str("target.organization") != e.Org {
		t.Fatalf("%s", r.Body)
	}
	e.Get(e.Admin, "/v1/subdomains/nobody-here").ExpectError(404)
	e.Get(e.Admin, "/v1/subdomains/A_B").ExpectError(400).ExpectMessage("subdomain")
	e.Get(e.Admin, "/v1/subdomains/ab").ExpectError(400).ExpectMessage("subdomain")
	e.Get(apitest.Anonymous, "/v1/subdomains/acme-docs").ExpectError(401)
}
