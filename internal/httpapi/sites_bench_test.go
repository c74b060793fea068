package httpapi_test

import (
	"fmt"
	"testing"

	"docsd/internal/apitest"
)

// BenchmarkSiteStructure measures reads and changes of a site with 10 sections of 10 site
// spaces each (100 site spaces over 10 spaces), through the API, beside the floor of reading
// the site itself in the same run. A fresh query string per request bypasses the answer cache.
// Run: go test ./internal/httpapi -run '^$' -bench SiteStructure
func BenchmarkSiteStructure(b *testing.B) {
	e := apitest.New(b)
	var spaces []string
	for i := range 10 {
		spaces = append(spaces, titledSpace(b, e, fmt.Sprintf("Space %d", i)))
	}
	path := newSite(b, e, nil)
	var sections []string
	for i := range 10 {
		sec := e.Post(e.Admin, path+"/sections", map[string]any{"spaceId": spaces[i], "title": fmt.Sprintf("Section %d", i)}).Expect(201).Str("id")
		sections = append(sections, sec)
		for j := 1; j < 10; j++ {
			e.Post(e.Admin, path+"/site-spaces", map[string]any{"spaceId": spaces[j], "sectionId": sec}).Expect(201)
		}
	}
	get := func(name, p string) {
		b.Run(name, func(b *testing.B) {
			i := 0
			for b.Loop() {
				i++
				e.Get(e.Admin, fmt.Sprintf("%s?n=%d", p, i)).Expect(200)
			}
		})
	}
	get("site (floor)", path)
	get("structure", path+"/structure")
	get("site-spaces page of 100", path+"/site-spaces")
	get("published profile", path+"/published")
	b.Run("sort a section", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			e.Patch(e.Admin, path+"/structure/sort", map[string]any{
				"item":     map[string]any{"type": "site-section", "id": sections[i%10]},
				"position": map[string]any{"after": map[string]any{"type": "site-section", "id": sections[(i+5)%10]}}}).Expect(200)
		}
	})
}
