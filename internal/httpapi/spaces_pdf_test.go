package httpapi_test

import (
	"strings"
	"testing"

	"docsd/internal/apitest"
)

func TestSpacePDF(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := pdfSpace(t, e)
	get := func(a apitest.Actor, query string) *apitest.Resp { return e.Get(a, "/v1/spaces/"+sp+"/pdf"+query) }

	t.Run("the whole space at its head, titled with the space, not the change request", func(t *testing.T) {
		r := get(e.Admin, "").Expect(200)
		url := r.Str("url")
		if len(r.Map()) != 1 || !strings.HasPrefix(url, e.URL+"/v1/pdf/") {
			t.Fatalf("answer %s", r.Body)
		}
		expectWords(t, pdfWords(t, url), []string{"One", "Alpha paragraph.", "One A", "Bravo paragraph.", "Head text."},
			[]string{"Charlie", "Elsewhere", "Rewrite two"})
	})
	t.Run("a page with its subpages, and only a page", func(t *testing.T) {
		expectWords(t, pdfWords(t, get(e.Admin, "?page=p1").Expect(200).Str("url")),
			[]string{"Alpha paragraph.", "Bravo paragraph."}, []string{"Head text."})
		expectWords(t, pdfWords(t, get(e.Admin, "?page=p1&only=true").Expect(200).Str("url")),
			[]string{"Alpha paragraph."}, []string{"Bravo", "Head text."})
	})
	t.Run("bad queries are 400 naming the field", func(t *testing.T) {
		get(e.Admin, "?page=nope").ExpectError(400).ExpectMessage("page", "nope")
		get(e.Admin, "?only=true").ExpectError(400).ExpectMessage("page", "required")
		get(e.Admin, "?only=maybe").ExpectError(400).ExpectMessage("only")
		get(e.Admin, "?page="+strings.Repeat("x", 101)).ExpectError(400).ExpectMessage("page", "100")
	})
	t.Run("who cannot see the space gets 404", func(t *testing.T) {
		get(e.NewUser("outsider"), "").ExpectError(404)
		get(apitest.Anonymous, "").ExpectError(401)
		e.Get(e.Admin, "/v1/spaces/nosuchspace/pdf").ExpectError(404)
	})
}
