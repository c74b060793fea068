package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/site"
)

// The published-page cache is retired per site by the outbox (sitehttp/cache.go): a write
// that concerns no site keeps the page, a new revision of the site's space shows at once on
// this instance and on a peer sharing the database.
func TestSitesCacheIsRetiredPerSiteThroughTheOutbox(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	peer := e.Peer()
	sp := docSpace(t, e, "Guide", "Lambda")
	other := docSpace(t, e, "Other", "Mu")
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace("", sp, "guide", true, nil)
	page := f.path("install")
	rd, prd := newReader(t, e), newReader(t, peer)
	hits := func() float64 {
		return scrape(t, e.Unjudged())[`docsd_published_page_cache_total{result="hit"}`]
	}
	rd.get(page).expect(t, 200)
	prd.get(page).expect(t, 200)
	before := hits()
	rd.get(page).expect(t, 200)
	if h := hits(); h != before+1 {
		t.Fatalf("a second read was not served from the cache: hits %v -> %v", before, h)
	}
	// A write that concerns no site: another space's content.
	b := newTreeBuilder().doc("home", "", "Mu home", "home", "Unrelated.\n")
	replaceContent(t, e, e.Admin, other, b.tree)
	rd.get(page).expect(t, 200)
	if h := hits(); h != before+2 {
		t.Fatalf("an unrelated write dropped the page: hits %v -> %v", before+1, h)
	}
	// A new revision of the site's space: seen at once here and on the peer.
	b = newTreeBuilder().doc("home", "", "Lambda home", "home", "Welcome.\n").
		doc("install", "", "Install Lambda", "install", "Install it with the outbox installer.\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	if p := rd.get(page).expect(t, 200); !strings.Contains(p.Body, "the outbox installer") {
		t.Fatalf("the old content is served: %.800s", p.Body)
	}
	if p := prd.get(page).expect(t, 200); !strings.Contains(p.Body, "the outbox installer") {
		t.Fatalf("the peer serves the old content: %.800s", p.Body)
	}
	// A site setting changed through one instance shows on the other.
	f.update(func(st *site.Site) { st.Title = "Outbox Docs" })
	if p := prd.get(page).expect(t, 200); !strings.Contains(p.Body, "Outbox Docs") {
		t.Fatalf("the peer serves the old title: %.800s", p.Body)
	}
	f.update(func(st *site.Site) { st.Published = false })
	prd.get(page).expect(t, 404)
	rd.get(page).expect(t, 404)
}
