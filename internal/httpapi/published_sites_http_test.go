package httpapi_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/site"
)

func TestSitesServeVisibilityPublishingAndDeletedSpaces(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	kept := docSpace(t, e, "Kept", "Iota")
	gone := docSpace(t, e, "Gone", "Kappa")
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace("", kept, "kept", true, nil)
	f.siteSpace("", gone, "gone", false, nil)
	base := f.path("")
	rd := newReader(t, e)

	public := rd.get(base).expect(t, 200)
	if strings.Contains(public.Body, "noindex") || public.Header.Get("X-Robots-Tag") != "" {
		t.Fatalf("a public site's page asks not to be indexed")
	}
	if !strings.Contains(public.Header.Get("Cache-Control"), "public") {
		t.Fatalf("public Cache-Control %q", public.Header.Get("Cache-Control"))
	}
	f.update(func(st *site.Site) { st.Visibility = site.Unlisted })
	if p := rd.get(base).expect(t, 200); !strings.Contains(p.Body, `<meta name="robots" content="noindex, nofollow">`) ||
		p.Header.Get("X-Robots-Tag") != "noindex" {
		t.Fatalf("an unlisted site's page is indexable")
	}

	// Deleting a space takes its site space off the site at once.
	rd.get(base+"gone/install").expect(t, 200)
	e.Delete(e.Admin, "/v1/spaces/"+gone).Expect(204)
	rd.get(base+"gone/install").expect(t, 404)
	if got := titles(rd.get(base).expect(t, 200).links("Versions")); len(got) != 0 {
		t.Fatalf("the deleted space is still a variant: %v", got)
	}

	// Unpublished sites and unknown ones are 404, with the error body (HTML for browsers).
	f.update(func(st *site.Site) { st.Published = false })
	rd.get(base).expect(t, 404)
	e.Get(apitest.Anonymous, base).Expect(404)
	e.Get(apitest.Anonymous, "/sites/"+e.Org+"/no-such-site/").Expect(404)
	rd.header.Set("Accept", "text/html")
	if p := rd.get(base).expect(t, 404); !strings.HasPrefix(p.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("a browser gets %q", p.Header.Get("Content-Type"))
	}
	// The API keeps its own 404 body.
	e.Get(e.Admin, "/v1/no-such-route").Expect(404)
}

func TestSitesServeCachingAndSecurityHeaders(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Lambda")
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace("", sp, "guide", true, nil)
	base := f.path("")
	rd := newReader(t, e)

	first := rd.get(base).expect(t, 200)
	h := first.Header
	for name, want := range map[string]string{
		"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "strict-origin-when-cross-origin",
	} {
		if h.Get(name) != want {
			t.Fatalf("%s: %q, want %q", name, h.Get(name), want)
		}
	}
	csp := h.Get("Content-Security-Policy")
	if !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "style-src 'sha256-") || strings.Contains(csp, "script-src") {
		t.Fatalf("Content-Security-Policy %q", csp)
	}
	etag := h.Get("ETag")
	if etag == "" || !strings.HasPrefix(etag, `"`) {
		t.Fatalf("ETag %q", etag)
	}
	rd.header.Set("If-None-Match", etag)
	if p := rd.get(base).expect(t, 304); p.Body != "" {
		t.Fatalf("a 304 with a body")
	}
	rd.header.Set("If-None-Match", `"other", W/`+etag)
	rd.get(base).expect(t, 304)
	// A change to the content changes the page and its ETag.
	b := newTreeBuilder().doc("home", "", "Lambda home, edited", "home",
		"New words.\n\n<script>alert(1)</script>\n\n[click](javascript:alert(1)) <img src=x onerror=alert(1)>\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	rd.header.Set("If-None-Match", etag)
	changed := rd.get(base).expect(t, 200)
	if changed.Header.Get("ETag") == etag || changed.heading() != "Lambda home, edited" {
		t.Fatalf("after an edit: ETag %q, heading %q", changed.Header.Get("ETag"), changed.heading())
	}
	if got := changed.links("On this page"); len(got) != 0 {
		t.Fatalf("a page without headings has an outline: %v", got)
	}
	// Scripts in a page's markdown never reach the reader.
	if strings.Contains(changed.Body, "<script") || strings.Contains(changed.Body, "javascript:") || strings.Contains(changed.Body, "onerror") {
		t.Fatalf("a script survives: %.2000s", changed.Body)
	}
	// A page with headings lists them, linked to their anchors.
	b = newTreeBuilder().doc("home", "", "Lambda home", "home", "Intro.\n\n## Install\n\nText.\n\n## Configure it\n\nMore.\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	withOutline := rd.get(base).expect(t, 200)
	if got := withOutline.links("On this page"); !slices.Equal(got, []link{{"Install", "#install"}, {"Configure it", "#configure-it"}}) ||
		!strings.Contains(withOutline.Body, `<h2 id="install">`) {
		t.Fatalf("outline %v", got)
	}
	// Writes are not for published sites.
	e.Post(apitest.Anonymous, base, map[string]any{}).Expect(405)
}

func TestSitesServeCustomHostname(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Mu")
	f := newSiteFixture(t, e, site.Public)
	f.update(func(st *site.Site) { st.Hostname = "docs.acme.example" })
	f.siteSpace("", sp, "guide", true, nil)

	do := func(method, host, path string) *http.Response {
		req, _ := http.NewRequest(method, e.URL+path, nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	get := func(host, path string) *http.Response { return do("GET", host, path) }
	if res := get("docs.acme.example", "/install/linux"); res.StatusCode != 200 {
		t.Fatalf("site at its hostname: %d", res.StatusCode)
	}
	if res := get("Docs.Acme.Example:443", "/"); res.StatusCode != 200 {
		t.Fatalf("hostname with case and port: %d", res.StatusCode)
	}
	if res := do("HEAD", "docs.acme.example", "/install/linux"); res.StatusCode != 200 || res.Header.Get("ETag") == "" {
		t.Fatalf("HEAD at the hostname: %d", res.StatusCode)
	}
	if res := do("POST", "docs.acme.example", "/install/linux"); res.StatusCode != 405 || res.Header.Get("Allow") != "GET, HEAD" {
		t.Fatalf("POST at the hostname: %d, Allow %q", res.StatusCode, res.Header.Get("Allow"))
	}
	if res := get("other.acme.example", "/install/linux"); res.StatusCode != 404 {
		t.Fatalf("unknown hostname: %d", res.StatusCode)
	}
	// NUL and bytes that are not UTF-8 reach no database (PostgreSQL answered 500).
	for path, want := range map[string]int{"/%00": 404, "/install/%FF%FE": 404, "/~search?q=a%00b": 400, "/?shareKey=%C3%28": 400} {
		if res := get("docs.acme.example", path); res.StatusCode != want {
			t.Errorf("%s at the hostname: %d, want %d", path, res.StatusCode, want)
		}
	}
	// The API still answers on the server's own address.
	e.Get(e.Admin, "/v1/user").Expect(200)
	f.update(func(st *site.Site) { st.Published = false })
	if res := get("docs.acme.example", "/"); res.StatusCode != 404 {
		t.Fatalf("unpublished site at its hostname: %d", res.StatusCode)
	}
}

func TestSitesServeSearchAndCustomization(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Nu")
	hiddenSp := docSpace(t, e, "Internal", "Xi")
	f := newSiteFixture(t, e, site.Public)
	f.update(func(st *site.Site) {
		st.Customization = []byte(`{"title":"Acme Handbook","styling":{"primaryColor":{"light":"#ff5500","dark":"#ff5500"}},
			"header":{"logo":{"light":"https://cdn.example.com/logo.png","dark":"https://cdn.example.com/logo.png"},
			"links":[{"title":"Status","to":{"kind":"url","url":"https://status.example.com"}},
			{"title":"Staff","to":{"kind":"url","url":"https://staff.example.com"},"condition":"visitor.claims.unsigned.staff == true"}]},
			"footer":{"groups":[{"title":"Company","links":[{"title":"About","to":{"kind":"url","url":"https://acme.example.com/about"}}]}],
			"copyright":"© Acme"}}`)
		st.AdaptiveSchema = []byte(`{"type":"object","properties":{"unsigned":{"type":"object","properties":{"staff":{"type":"boolean"}}}}}`)
	})
	f.siteSpace("", sp, "guide", true, nil)
	never := "false"
	hiddenSS := f.siteSpace("", hiddenSp, "internal", false, &never)
	base := f.path("")
	rd := newReader(t, e)

	home := rd.get(base).expect(t, 200)
	for _, want := range []string{"Acme Handbook", "--primary:#ff5500", `src="https://cdn.example.com/logo.png"`, "© Acme",
		`href="https://acme.example.com/about"`, `action="` + base + `~search"`} {
		if !strings.Contains(home.Body, want) {
			t.Fatalf("the page lacks %s", want)
		}
	}
	if got := home.links("Pagination"); len(got) != 0 {
		t.Fatalf("pagination shows though the customization leaves it off: %v", got)
	}
	if got := titles(home.links("Links")); len(got) != 1 || got[0] != "Status" {
		t.Fatalf("header links %v", got)
	}
	if got := titles(rd.get(base + "?visitor.staff=true").links("Links")); len(got) != 2 {
		t.Fatalf("header links for staff %v", got)
	}

	// Files of a site space the reader does not see are not served either.
	rd.get(base+"~files/"+hiddenSS+"/logo").expect(t, 404)
	rd.get(base+"internal/install").expect(t, 404)

	// The search box uses the full-text index: the page titled with the word first, then the
	// home page that mentions it; never the site space the reader does not see.
	res := rd.get(base+"~search?q=linux").expect(t, 200)
	if got := titles(resultsOf(res)); !slices.Equal(got, []string{"Linux Nu", "Nu home"}) {
		t.Fatalf("search results %v (the hidden site space must not be searched)", got)
	}
	if got := titles(resultsOf(rd.get(base+"~search?q=welcome").expect(t, 200))); !slices.Equal(got, []string{"Nu home"}) {
		t.Fatalf("a word of a page's text finds %v", got)
	}
	if got := resultsOf(rd.get(base+"~search?q=navigation").expect(t, 200)); len(got) != 0 {
		t.Fatalf("a hidden page is found: %v", got)
	}
	if hrefOf(t, resultsOf(res), "Linux Nu") != base+"install/linux" || !strings.Contains(res.Body, "noindex") {
		t.Fatalf("search result link %v", resultsOf(res))
	}
	rd.get(base+"~search?q="+strings.Repeat("a", 201)).expect(t, 400)
	if got := resultsOf(rd.get(base+"~search?q=nothing-like-this").expect(t, 200)); len(got) != 0 {
		t.Fatalf("results for nonsense: %v", got)
	}
}

// resultsOf lists the links of a search page's results.
func resultsOf(p *page) []link { return p.links("Search results") }
