package httpapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"docsd/internal/apitest"
	"docsd/internal/site"
)

// Published pages are kept per database generation and reader segment (sitehttp/cache.go).
// Each case reads a page twice first, so the change lands on a page the cache holds.

func TestSitesCacheServesNoPageStaleAfterAChange(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := docSpace(t, e, "Guide", "Iota")
	f := newSiteFixture(t, e, site.Public)
	f.siteSpace("", sp, "guide", true, nil)
	base := f.path("")
	rd := newReader(t, e)
	warm := func(path string) *page {
		t.Helper()
		rd.get(path).expect(t, 200)
		return rd.get(path).expect(t, 200)
	}

	t.Run("new content of the published space shows at once", func(t *testing.T) {
		warm(base + "install")
		b := newTreeBuilder().doc("home", "", "Iota home", "home", "Welcome.\n").
			doc("install", "", "Install Iota", "install", "Install it with the new installer.\n")
		replaceContent(t, e, e.Admin, sp, b.tree)
		if p := rd.get(base+"install").expect(t, 200); !strings.Contains(p.Body, "the new installer") {
			t.Fatalf("the old content is served: %.800s", p.Body)
		}
	})
	t.Run("a new site title shows at once", func(t *testing.T) {
		warm(base + "install")
		f.update(func(st *site.Site) { st.Title = "Renamed Docs" })
		if p := rd.get(base+"install").expect(t, 200); !strings.Contains(p.Body, "Renamed Docs") {
			t.Fatalf("the old title is served: %.800s", p.Body)
		}
	})
	t.Run("unpublishing shuts readers out at once, and publishing again lets them in", func(t *testing.T) {
		warm(base + "install")
		f.update(func(st *site.Site) { st.Published = false })
		if p := rd.get(base+"install").expect(t, 404); strings.Contains(p.Body, "Iota") {
			t.Fatalf("an unpublished site shows content: %.800s", p.Body)
		}
		f.update(func(st *site.Site) { st.Published = true })
		rd.get(base+"install").expect(t, 200)
	})
	t.Run("turning the site into a share-link site needs the key at once", func(t *testing.T) {
		warm(base + "install")
		f.update(func(st *site.Site) { st.Visibility = site.ShareLinked })
		if p := rd.get(base+"install").expect(t, 404); strings.Contains(p.Body, "Iota") {
			t.Fatalf("a reader without a key sees content: %.800s", p.Body)
		}
		key := f.shareLink("k-cache-"+strings.Repeat("z", 20), true)
		rd.get(base+"install?shareKey="+key.Key).expect(t, 303)
		if p := warm(base + "install"); !strings.Contains(p.Header.Get("Cache-Control"), "private") {
			t.Fatalf("a share-link page is cached publicly: %q", p.Header.Get("Cache-Control"))
		}
		key.Active = false
		f.write(func(tx site.Tx) error { return tx.UpdateShareLink(t.Context(), key) })
		rd.get(base+"install").expect(t, 404)
		f.update(func(st *site.Site) { st.Visibility = site.Public })
		if p := rd.get(base+"install").expect(t, 200); !strings.Contains(p.Header.Get("Cache-Control"), "public") {
			t.Fatalf("a public page answered Cache-Control %q", p.Header.Get("Cache-Control"))
		}
	})
}

func TestSitesCacheKeepsEachSegmentsPage(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	b := newTreeBuilder().doc("home", "", "Kappa home", "home",
		"Everyone reads this.\n\n{% if visitor.claims.unsigned.beta %}\nBeta readers read this.\n{% endif %}\n\n"+
			"{% if visitor.claims.plan == \"pro\" %}\nPro readers read this.\n{% endif %}\n")
	replaceContent(t, e, e.Admin, sp, b.tree)
	f := newSiteFixture(t, e, site.Public)
	f.update(func(st *site.Site) {
		st.AdaptiveSchema = []byte(`{"type":"object","properties":{"plan":{"type":"string"},
			"unsigned":{"type":"object","properties":{"beta":{"type":"boolean"}},"additionalProperties":false}},
			"additionalProperties":false}`)
	})
	f.siteSpace("", sp, "guide", true, nil)
	base := f.path("")
	token := func(plan string) string {
		return visitorToken(t, f.Site.VisitorAuth.Key, e.Clock.Now().Add(time.Hour), jwt.MapClaims{"plan": plan})
	}
	readers := []struct {
		name      string
		cookie    *http.Cookie
		sees, not []string
	}{
		{"no claims", nil, nil, []string{"Beta readers", "Pro readers"}},
		{"beta", &http.Cookie{Name: "gitbook-visitor-public", Value: url.QueryEscape(`{"beta":true}`)}, []string{"Beta readers"}, []string{"Pro readers"}},
		{"not beta", &http.Cookie{Name: "gitbook-visitor-public", Value: url.QueryEscape(`{"beta":false}`)}, nil, []string{"Beta readers", "Pro readers"}},
		{"pro", &http.Cookie{Name: "gitbook-visitor-token", Value: token("pro")}, []string{"Pro readers"}, []string{"Beta readers"}},
		{"free", &http.Cookie{Name: "gitbook-visitor-token", Value: token("free")}, nil, []string{"Beta readers", "Pro readers"}},
		{"a token signed with another key", &http.Cookie{Name: "gitbook-visitor-token",
			Value: visitorToken(t, "another-secret", e.Clock.Now().Add(time.Hour), jwt.MapClaims{"plan": "pro"})},
			nil, []string{"Beta readers", "Pro readers"}},
	}
	// Readers take turns, so each finds the page another segment left in the cache.
	for round := range 3 {
		for _, r := range readers {
			rd := newReader(t, e)
			if r.cookie != nil {
				rd.cookie[r.cookie.Name] = r.cookie
			}
			body := rd.get(base).expect(t, 200).Body
			if !strings.Contains(body, "Everyone reads this.") {
				t.Fatalf("round %d, %s: no page: %.800s", round, r.name, body)
			}
			for _, s := range r.sees {
				if !strings.Contains(body, s) {
					t.Fatalf("round %d, %s: %q missing: %.1500s", round, r.name, s, body)
				}
			}
			for _, s := range r.not {
				if strings.Contains(body, s) {
					t.Fatalf("round %d, %s: shown another segment's %q", round, r.name, s)
				}
			}
		}
	}
}
