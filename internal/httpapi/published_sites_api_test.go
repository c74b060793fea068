package httpapi_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"

	"github.com/golang-jwt/jwt/v5"
)

// serverPath is a published URL's path and query, relative to the test server.
func serverPath(t *testing.T, e *apitest.Env, published string) string {
	t.Helper()
	if !strings.HasPrefix(published, e.URL+"/") {
		t.Fatalf("published URL %q is not under the server %s", published, e.URL)
	}
	u, err := url.Parse(published)
	if err != nil {
		t.Fatal(err)
	}
	return u.RequestURI()
}

// TestSitesServeWhatTheAPIPublishes builds a site through the site API and reads it at the
// URLs the API answers: the site's, a section's and a share link's.
func TestSitesServeWhatTheAPIPublishes(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	guide := docSpace(t, e, "Guide", "Omicron")
	api := docSpace(t, e, "API", "Pi")
	sitePath := newSite(t, e, map[string]any{"title": "Product docs", "visibility": "share-link"})
	e.Post(e.Admin, sitePath+"/sections", map[string]any{"spaceId": guide, "title": "Guides"}).Expect(201)
	e.Post(e.Admin, sitePath+"/sections", map[string]any{"spaceId": api, "title": "API reference"}).Expect(201)
	link := e.Post(e.Admin, sitePath+"/share-links", map[string]any{"name": "Partners"}).Expect(201)
	pub := e.Post(e.Admin, sitePath+"/publish", nil).Expect(200)
	siteURL := serverPath(t, e, pub.Str("urls.published"))

	rd := newReader(t, e)
	rd.get(siteURL).expect(t, 404)
	shared := serverPath(t, e, e.Get(e.Admin, sitePath+"/share-links").Expect(200).Items()[0]["urls"].(map[string]any)["published"].(string))
	if got := rd.get(shared).expect(t, 303).location(t); got != siteURL {
		t.Fatalf("the share link's URL redirects to %s, want %s", got, siteURL)
	}
	home := rd.get(siteURL).expect(t, 200)
	if home.heading() != "Omicron home" {
		t.Fatalf("site home %q", home.heading())
	}
	sections := home.links("Sections")
	if len(sections) != 2 {
		t.Fatalf("sections %v", sections)
	}
	// Each section's published URL (from the API) is where the site serves it.
	want := map[string]string{"Guides": "Omicron home", "API reference": "Pi home"}
	items := e.Get(e.Admin, sitePath+"/sections").Expect(200).Items()
	if len(items) != len(want) {
		t.Fatalf("%d sections", len(items))
	}
	for _, it := range items {
		u := serverPath(t, e, it["urls"].(map[string]any)["published"].(string))
		if got := rd.get(u).expect(t, 200).heading(); got != want[it["title"].(string)] {
			t.Fatalf("section %v at %s shows %q", it["title"], u, got)
		}
	}
	// The site's customization and a site space's overrides show on its pages.
	custom := e.Get(e.Admin, sitePath+"/customization").Expect(200).Map()
	custom["title"] = "Product handbook"
	custom["announcement"] = map[string]any{"enabled": true, "message": "Version 2 is out", "style": "info",
		"link": map[string]any{"title": "Read more", "to": map[string]any{"kind": "url", "url": "https://example.com/v2"}}}
	e.Put(e.Admin, sitePath+"/customization", custom).Expect(200)
	home = rd.get(siteURL).expect(t, 200)
	if !strings.Contains(home.Body, "<span>Product handbook</span>") || !strings.Contains(home.Body, "Version 2 is out") ||
		!strings.Contains(home.Body, `href="https://example.com/v2"`) {
		t.Fatalf("the site's customization does not show: %.2000s", home.Body)
	}
	var apiSpace, apiURL string
	for _, it := range items {
		if it["title"] == "API reference" {
			apiSpace = it["siteSpaces"].([]any)[0].(map[string]any)["id"].(string)
			apiURL = serverPath(t, e, it["urls"].(map[string]any)["published"].(string))
		}
	}
	e.Patch(e.Admin, sitePath+"/site-spaces/"+apiSpace+"/customization", map[string]any{"title": "API handbook"}).Expect(200)
	if p := rd.get(apiURL).expect(t, 200); !strings.Contains(p.Body, "<span>API handbook</span>") {
		t.Fatalf("the site space's override does not show")
	}
	if p := rd.get(siteURL).expect(t, 200); !strings.Contains(p.Body, "<span>Product handbook</span>") {
		t.Fatalf("the override leaks to another site space")
	}

	// Deactivating the link through the API shuts readers out.
	e.Patch(e.Admin, sitePath+"/share-links/"+link.Str("id"), map[string]any{"active": false}).Expect(200)
	rd.get(siteURL).expect(t, 404)

	// Visitor auth with the key the API hands out.
	e.Patch(e.Admin, sitePath, map[string]any{"visibility": "visitor-auth"}).Expect(200)
	key := e.Get(e.Admin, sitePath+"/publishing/auth").Expect(200).Str("privateKey")
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": e.Clock.Now().Add(time.Hour).Unix()}).SignedString([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	visitor := newReader(t, e)
	visitor.get(siteURL).expect(t, 401)
	visitor.get(siteURL+"?jwt_token="+tok).expect(t, 303)
	visitor.get(siteURL).expect(t, 200)
	// A new key invalidates tokens signed with the old one.
	e.Post(e.Admin, sitePath+"/publishing/auth/regenerate", nil).Expect(200)
	visitor.get(siteURL).expect(t, 401)

	// With a custom hostname, the API's published URL is the hostname's root, where the
	// site answers.
	e.Patch(e.Admin, sitePath, map[string]any{"visibility": "public", "hostname": "docs.product.example"}).Expect(200)
	if got := e.Get(e.Admin, sitePath).Expect(200).Str("urls.published"); got != "http://docs.product.example/" {
		t.Fatalf("published URL with a hostname: %s", got)
	}
	req, _ := http.NewRequest("GET", e.URL+"/", nil)
	req.Host = "docs.product.example"
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), "<h1>Omicron home</h1>") {
		t.Fatalf("at its hostname the site answers %d: %.500s", res.StatusCode, body)
	}

	// Unpublishing takes the site down.
	e.Patch(e.Admin, sitePath, map[string]any{"visibility": "public"}).Expect(200)
	newReader(t, e).get(siteURL).expect(t, 200)
	e.Post(e.Admin, sitePath+"/unpublish", nil).Expect(200)
	newReader(t, e).get(siteURL).expect(t, 404)
}
