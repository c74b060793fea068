package httpapi_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/site"

	"github.com/golang-jwt/jwt/v5"
)

// docSpace creates a space titled title whose pages are a home page, a page with a nested
// page, and a hidden page; the home page links to the nested page and to a file.
func docSpace(t *testing.T, e *apitest.Env, title, word string) string {
	t.Helper()
	id := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": title})
	b := newTreeBuilder().
		doc("home", "", word+" home", "home", "Welcome to "+word+".\n\nSee [Linux setup](install/linux.md#steps), [the logo](.gitbook/assets/logo.png) and [out](https://example.com/x).\n").
		doc("install", "", "Install "+word, "install", "Install it.\n").
		doc("linux", "install", "Linux "+word, "linux", "# Steps\n\nOn Linux, [back home](../home.md).\n").
		doc("secret", "", "Hidden "+word, "secret", "Not in the navigation.\n")
	p := b.tree.Pages["secret"]
	p.Hidden = true
	b.tree.Pages["secret"] = p
	b.file(t, e, "logo", "logo.png", "image/png", []byte("\x89PNG fake"))
	replaceContent(t, e, e.Admin, id, b.tree)
	return id
}

func titles(ls []link) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Text)
	}
	return out
}

func hrefOf(t *testing.T, ls []link, title string) string {
	t.Helper()
	for _, l := range ls {
		if l.Text == title {
			return l.Href
		}
	}
	t.Fatalf("no link %q among %v", title, ls)
	return ""
}

func TestSitesServeNavigationOfSectionsGroupsAndSiteSpaces(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	v2 := docSpace(t, e, "Guide v2", "Alpha")
	v1 := docSpace(t, e, "Guide v1", "Beta")
	api := docSpace(t, e, "API reference", "Gamma")
	f := newSiteFixture(t, e, site.Public)
	guides := f.section("", "Guides", "guides", true, nil)
	f.siteSpace(guides, v2, "v2", true, nil)
	f.siteSpace(guides, v1, "v1", false, nil)
	ref := f.group("", "Reference")
	apiSec := f.section(ref, "API", "api", false, nil)
	f.siteSpace(apiSec, api, "api", true, nil)
	archive := f.group(ref, "Archive") // a group in a group
	f.siteSpace(f.section(archive, "Legacy", "legacy", false, nil), v1, "old", true, nil)
	rd := newReader(t, e)
	base := f.path("")

	home := rd.get(base).expect(t, 200)
	if got := home.heading(); got != "Alpha home" {
		t.Fatalf("home heading %q, want Alpha home", got)
	}
	if got := titles(home.links("Sections")); !slices.Equal(got, []string{"Guides", "API", "Legacy"}) {
		t.Fatalf("sections %v, want [Guides API Legacy]", got)
	}
	if !strings.Contains(home.Body, `<li class="group"><span>Reference</span><ul><li><a href="`+base+`api/">API</a></li>`+
		`<li class="group"><span>Archive</span><ul><li><a href="`+base+`legacy/">Legacy</a></li></ul></li></ul></li>`) {
		t.Fatalf("the groups do not nest in the section navigation: %.3000s", home.Body)
	}
	if got := hrefOf(t, home.links("Sections"), "API"); got != base+"api/" {
		t.Fatalf("API section links to %s", got)
	}
	variants := home.links("Versions")
	if got := titles(variants); !slices.Equal(got, []string{"Guide v2", "Guide v1"}) {
		t.Fatalf("variants %v", got)
	}
	if hrefOf(t, variants, "Guide v2") != base || hrefOf(t, variants, "Guide v1") != base+"v1/" {
		t.Fatalf("variant links %v", variants)
	}
	tree := home.links("Pages")
	if got := titles(tree); !slices.Equal(got, []string{"Alpha home", "Install Alpha", "Linux Alpha"}) {
		t.Fatalf("page tree %v (hidden pages must be left out)", got)
	}
	if hrefOf(t, tree, "Linux Alpha") != base+"install/linux" {
		t.Fatalf("nested page links to %s", hrefOf(t, tree, "Linux Alpha"))
	}
	// Relative links of the markdown resolve to the site's addresses.
	body := home.links("")
	if got := hrefOf(t, body, "Linux setup"); got != base+"install/linux#steps" {
		t.Fatalf("page link resolved to %s", got)
	}
	logo := hrefOf(t, body, "the logo")
	if !strings.HasPrefix(logo, base+"~files/") {
		t.Fatalf("file link resolved to %s", logo)
	}
	if got := hrefOf(t, body, "out"); got != "https://example.com/x" {
		t.Fatalf("external link became %s", got)
	}
	if file := rd.get(logo).expect(t, 200); file.Body != "\x89PNG fake" || file.Header.Get("Content-Type") != "image/png" ||
		!strings.Contains(file.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Fatalf("file answer %q %v", file.Body, file.Header)
	}

	// Pagination follows the page tree's reading order, hidden pages left out.
	if got := home.links("Pagination"); !slices.Equal(got, []link{{"Install Alpha →", base + "install"}}) {
		t.Fatalf("home pagination %v", got)
	}
	// A nested page, and a link back from it.
	linux := rd.get(base+"install/linux").expect(t, 200)
	if got := linux.links("Pagination"); !slices.Equal(got, []link{{"← Install Alpha", base + "install"}}) {
		t.Fatalf("last page's pagination %v", got)
	}
	if linux.heading() != "Linux Alpha" || hrefOf(t, linux.links(""), "back home") != base+"home" {
		t.Fatalf("nested page %q links %v", linux.heading(), linux.links(""))
	}
	// The other variant, the section in the group, and a hidden page reached by its address.
	if got := rd.get(base+"v1/install").expect(t, 200).heading(); got != "Install Beta" {
		t.Fatalf("v1 page %q", got)
	}
	apiHome := rd.get(base+"api/").expect(t, 200)
	if apiHome.heading() != "Gamma home" || hrefOf(t, apiHome.links("Pages"), "Linux Gamma") != base+"api/install/linux" {
		t.Fatalf("api section %q %v", apiHome.heading(), apiHome.links("Pages"))
	}
	if got := rd.get(base+"legacy/install").expect(t, 200).heading(); got != "Install Beta" {
		t.Fatalf("the section in the nested group shows %q", got)
	}
	if len(apiHome.links("Versions")) != 0 {
		t.Fatalf("a section with one site space shows variants")
	}
	if p := rd.get(base+"secret").expect(t, 200); !strings.Contains(p.Body, `content="noindex`) {
		t.Fatalf("a hidden page reached by its address is indexable")
	}
	if strings.Contains(home.Body, `content="noindex`) {
		t.Fatalf("a public page asks not to be indexed")
	}
	rd.get(base+"no/such/page").expect(t, 404)
	// An address that spells out the default section and site space leads to the page.
	if got := rd.get(base+"guides/v2/install/linux").expect(t, 301).location(t); got != base+"install/linux" {
		t.Fatalf("the spelled-out address redirects to %s", got)
	}
	if got := rd.get(base+"guides/v1/install").expect(t, 301).location(t); got != base+"v1/install" {
		t.Fatalf("the spelled-out default section redirects to %s", got)
	}
	// The address without its slash redirects to it.
	if got := rd.get(strings.TrimSuffix(base, "/")).expect(t, 301).location(t); got != base {
		t.Fatalf("redirect to %s", got)
	}
}

func TestSitesServeShareLinkSiteOnlyWithAnActiveKey(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Private guide", "Delta")
	f := newSiteFixture(t, e, site.ShareLinked)
	f.siteSpace("", sp, "guide", true, nil)
	active := f.shareLink("k-active-"+strings.Repeat("x", 20), true)
	inactive := f.shareLink("k-inactive-"+strings.Repeat("y", 20), false)
	base := f.path("")

	rd := newReader(t, e)
	for _, path := range []string{base, base + "install", base + "?shareKey=wrong", base + "?shareKey=" + inactive.Key} {
		p := rd.get(path).expect(t, 404)
		if strings.Contains(p.Body, "Delta") {
			t.Fatalf("%s: a refused reader sees content: %s", path, p.Body)
		}
	}
	// A refused reader gets the answer of a site that does not exist.
	u, _ := url.Parse(base)
	missing := strings.Replace(u.Path, f.Site.Basename, "no-such-site", 1)
	if got, want := rd.get(base+"install").Body, rd.get(missing+"install").Body; strings.ReplaceAll(got, f.Site.Basename, "no-such-site") != want {
		t.Fatalf("refused: %s; absent: %s", got, want)
	}
	p := rd.get(base+"install?shareKey="+active.Key).expect(t, 303)
	if got := p.location(t); got != base+"install" {
		t.Fatalf("redirect to %s, want the address without the key", got)
	}
	if rd.cookie["docsd-share-key"] == nil {
		t.Fatalf("the key is not remembered in a cookie")
	}
	ok := rd.get(base+"install").expect(t, 200)
	if ok.heading() != "Install Delta" || !strings.Contains(ok.Header.Get("Cache-Control"), "private") {
		t.Fatalf("admitted reader: %q, Cache-Control %q", ok.heading(), ok.Header.Get("Cache-Control"))
	}
	if !strings.Contains(ok.Body, `name="robots" content="noindex`) {
		t.Fatalf("a share-link page is indexable")
	}
	// Deactivating the link shuts the remembered reader out.
	active.Active = false
	f.write(func(tx site.Tx) error { return tx.UpdateShareLink(t.Context(), active) })
	rd.get(base+"install").expect(t, 404)
	if rd.cookie["docsd-share-key"] != nil {
		t.Fatalf("the refused key is still remembered")
	}
}

// visitorToken signs claims with key (HS256) for a token expiring at exp.
func visitorToken(t *testing.T, key string, exp time.Time, claims jwt.MapClaims) string {
	t.Helper()
	c := jwt.MapClaims{"exp": exp.Unix()}
	for k, v := range claims {
		c[k] = v
	}
	s, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString([]byte(key))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSitesServeVisitorAuthSiteChecksTokens(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Members guide", "Epsilon")
	f := newSiteFixture(t, e, site.VisitorAuth)
	f.siteSpace("", sp, "guide", true, nil)
	base := f.path("")
	now := e.Clock.Now()
	key := f.Site.VisitorAuth.Key

	unsigned, err := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"exp": now.Add(time.Hour).Unix()}).
		SignedString(jwt.UnsafeAllowNoneSignatureType)
	if err != nil {
		t.Fatal(err)
	}
	refused := map[string]string{
		"no token":       "",
		"expired":        visitorToken(t, key, now.Add(-time.Minute), nil),
		"unsigned":       unsigned,
		"wrongly signed": visitorToken(t, "another-secret", now.Add(time.Hour), nil),
		"garbage":        "not.a.token",
	}
	for name, tok := range refused {
		rd := newReader(t, e)
		path := base
		if tok != "" {
			path += "?jwt_token=" + tok
		}
		p := rd.get(path).expect(t, 401)
		if strings.Contains(p.Body, "Epsilon") {
			t.Fatalf("%s: refused reader sees content", name)
		}
		// The same token in the cookie is refused too.
		if tok != "" {
			rd.cookie["gitbook-visitor-token"] = &http.Cookie{Name: "gitbook-visitor-token", Value: tok}
			rd.get(base).expect(t, 401)
		}
	}

	rd := newReader(t, e)
	good := visitorToken(t, key, now.Add(time.Hour), jwt.MapClaims{"plan": "pro"})
	if got := rd.get(base+"install?jwt_token="+good).expect(t, 303).location(t); got != base+"install" {
		t.Fatalf("redirect to %s", got)
	}
	if got := rd.get(base+"install").expect(t, 200).heading(); got != "Install Epsilon" {
		t.Fatalf("admitted reader sees %q", got)
	}
	// Once the token expires, the cookie no longer admits.
	e.Clock.Advance(2 * time.Hour)
	rd.get(base+"install").expect(t, 401)

	// With a fallback URL, refused readers go to log in there.
	f.update(func(st *site.Site) { st.VisitorAuth.FallbackURL = "https://login.example.com/docs?from=site" })
	p := newReader(t, e).get(base+"install").expect(t, 302)
	if loc := p.Header.Get("Location"); !strings.HasPrefix(loc, "https://login.example.com/docs?") ||
		!strings.Contains(loc, "location=%2Fsites%2F") || !strings.Contains(loc, "from=site") {
		t.Fatalf("login redirect to %s", loc)
	}
}

func TestSitesServeConditionsDecideWhatAReaderSees(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	guide := docSpace(t, e, "Guide", "Zeta")
	beta := docSpace(t, e, "Beta features", "Eta")
	pro := docSpace(t, e, "Pro guide", "Theta")
	f := newSiteFixture(t, e, site.Public)
	f.update(func(st *site.Site) {
		st.AdaptiveSchema = []byte(`{"type":"object","properties":{"plan":{"type":"string"},
			"unsigned":{"type":"object","properties":{"beta":{"type":"boolean"}},"additionalProperties":false}},
			"additionalProperties":false}`)
	})
	main := f.section("", "Guide", "guide", true, nil)
	f.siteSpace(main, guide, "guide", true, nil)
	betaCond := "visitor.claims.unsigned.beta == true"
	betaSec := f.section("", "Beta", "beta", false, &betaCond)
	f.siteSpace(betaSec, beta, "beta", true, nil)
	proCond := `visitor.claims.plan == "pro"`
	proSec := f.section("", "Pro", "pro", false, nil)
	f.siteSpace(proSec, guide, "all", true, nil)
	f.siteSpace(proSec, pro, "pro", false, &proCond)
	base := f.path("")

	rd := newReader(t, e)
	if got := titles(rd.get(base).expect(t, 200).links("Sections")); !slices.Equal(got, []string{"Guide", "Pro"}) {
		t.Fatalf("without claims: sections %v", got)
	}
	rd.get(base+"beta/").expect(t, 404)
	rd.get(base+"?visitor.beta=false").expect(t, 200)
	if got := titles(rd.get(base + "?visitor.beta=false").links("Sections")); slices.Contains(got, "Beta") {
		t.Fatalf("beta=false shows the Beta section")
	}
	// An unsigned claim the schema does not declare counts for nothing.
	if got := titles(rd.get(base + "?visitor.plan=pro").links("Versions")); len(got) != 0 {
		t.Fatalf("an unsigned claim passed for a signed one")
	}
	withBeta := rd.get(base+"?visitor.beta=true").expect(t, 200)
	if got := titles(withBeta.links("Sections")); !slices.Equal(got, []string{"Guide", "Beta", "Pro"}) {
		t.Fatalf("beta=true: sections %v", got)
	}
	if got := rd.get(base+"beta/?visitor.beta=true").expect(t, 200).heading(); got != "Eta home" {
		t.Fatalf("beta section home %q", got)
	}
	// The public cookie carries unsigned claims too.
	rd.cookie["gitbook-visitor-public"] = &http.Cookie{Name: "gitbook-visitor-public", Value: url.QueryEscape(`{"beta":true}`)}
	rd.get(base+"beta/").expect(t, 200)
	delete(rd.cookie, "gitbook-visitor-public")

	// Signed claims come from a visitor token, even on a public site; one that does not
	// verify is not remembered.
	rd.get(base+"pro/pro/").expect(t, 404)
	forged := visitorToken(t, "not-the-key", e.Clock.Now().Add(time.Hour), jwt.MapClaims{"plan": "pro"})
	rd.get(base+"pro/?jwt_token="+forged).expect(t, 303)
	if rd.cookie["gitbook-visitor-token"] != nil {
		t.Fatalf("a forged token is remembered")
	}
	rd.get(base+"pro/pro/").expect(t, 404)
	tok := visitorToken(t, f.Site.VisitorAuth.Key, e.Clock.Now().Add(time.Hour), jwt.MapClaims{"plan": "pro"})
	rd.get(base+"pro/?jwt_token="+tok).expect(t, 303)
	proPage := rd.get(base+"pro/").expect(t, 200)
	if got := titles(proPage.links("Versions")); !slices.Equal(got, []string{"Guide", "Pro guide"}) {
		t.Fatalf("with plan=pro: variants %v", got)
	}
	if got := rd.get(base+"pro/pro/").expect(t, 200).heading(); got != "Theta home" {
		t.Fatalf("pro variant %q", got)
	}

	// Inside a page, {% if %} blocks show to the readers their condition holds for.
	b := newTreeBuilder().doc("home", "", "Zeta home", "home",
		"Everyone reads this.\n\n{% if visitor.claims.unsigned.beta %}\nBeta readers read this.\n{% else %}\nOthers read this.\n{% endif %}\n")
	replaceContent(t, e, e.Admin, guide, b.tree)
	plain := newReader(t, e).get(base).expect(t, 200).Body
	betaPage := newReader(t, e).get(base+"?visitor.beta=true").expect(t, 200).Body
	if !strings.Contains(plain, "Others read this.") || strings.Contains(plain, "Beta readers") || strings.Contains(plain, "{%") {
		t.Fatalf("without claims the page reads: %.1500s", plain)
	}
	if !strings.Contains(betaPage, "Beta readers read this.") || strings.Contains(betaPage, "Others read this.") {
		t.Fatalf("with beta the page reads: %.1500s", betaPage)
	}
}
