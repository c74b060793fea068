package httpapi_test

import (
	"time"

	"testing"

	"docsd/internal/apitest"
)

// The translations list pages in creation order across a cursor.
func TestTranslationsListPages(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, noProviders)
	base := "/v1/orgs/" + e.Org + "/translations"
	src := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Guide"})
	var made []string
	for _, lang := range []string{"es", "fr"} {
		e.Clock.Advance(time.Second)
		made = append(made, e.Post(e.Admin, base, map[string]any{"source": map[string]any{"space": src, "language": "en"}, "language": lang}).Expect(201).Str("id"))
	}
	first := e.Get(e.Admin, base+"?limit=1").Expect(200)
	if ids := first.IDs(); len(ids) != 1 || ids[0] != made[0] || !first.Has("next.page") {
		t.Fatalf("first page: %s", first.Body)
	}
	second := e.Get(e.Admin, base+"?limit=1&page="+first.Str("next.page")).Expect(200)
	if ids := second.IDs(); len(ids) != 1 || ids[0] != made[1] || second.Has("next.page") {
		t.Fatalf("second page: %s", second.Body)
	}
}
