package httpapi_test

import (
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/site"
)

// BenchmarkSitesServePage measures reading a published page over HTTP: a page of a
// 100-page and of a 1,000-page space (the navigation lists every page), its 304
// revalidation, and the search page. The space API's GET is the baseline of the same request
// path. Run: go test ./internal/httpapi -run '^$' -bench SitesServePage
func BenchmarkSitesServePage(b *testing.B) {
	e := apitest.New(b)
	for _, n := range []int{100, 1000} {
		sp := newSpace(b, e, e.Admin, e.Org, nil)
		replaceContent(b, e, e.Admin, sp, generatedTree(n).tree)
		f := newSiteFixture(b, e, site.Public)
		f.siteSpace("", sp, "s", true, nil)
		path := f.path("page-p00000/page-p00042")
		rd := newReader(b, e)
		rd.raw = true
		etag := rd.get(path).expect(b, 200).Header.Get("ETag")
		b.Run(map[int]string{100: "page-of-100", 1000: "page-of-1000"}[n], func(b *testing.B) {
			for b.Loop() {
				rd.get(path).expect(b, 200)
			}
		})
		b.Run(map[int]string{100: "304-of-100", 1000: "304-of-1000"}[n], func(b *testing.B) {
			rd.header.Set("If-None-Match", etag)
			defer rd.header.Del("If-None-Match")
			for b.Loop() {
				rd.get(path).expect(b, 304)
			}
		})
		b.Run(map[int]string{100: "search-of-100", 1000: "search-of-1000"}[n], func(b *testing.B) {
			for b.Loop() {
				rd.get(f.path("~search?q=p00042")).expect(b, 200)
			}
		})
	}
	sp := newSpace(b, e, e.Admin, e.Org, nil)
	b.Run("baseline-api-get-space", func(b *testing.B) {
		for b.Loop() {
			e.Get(e.Admin, "/v1/spaces/"+sp).Expect(200)
		}
	})
}
