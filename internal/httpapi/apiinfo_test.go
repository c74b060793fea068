package httpapi_test

import (
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/buildinfo"
)

func TestAPIInformation(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	want := buildinfo.Read()

	t.Run("answers the build without a token", func(t *testing.T) {
		r := e.Get(apitest.Anonymous, "/v1/").Expect(200)
		var got struct{ Version, Build string }
		r.JSON(&got)
		if got.Version != want.APIVersion() || got.Version == "" {
			t.Errorf("version %q, want %q (what docsd version prints)", got.Version, want.APIVersion())
		}
		built, err := time.Parse(time.RFC3339, got.Build)
		if err != nil || built.After(time.Now().Add(time.Minute)) || got.Build != want.DateISO() {
			t.Errorf("build %q (%v): want %q, an ISO 8601 time not in the future", got.Build, err, want.DateISO())
		}
		if keys := len(r.Map()); keys != 2 {
			t.Errorf("answer %s: want exactly version and build", r.Body)
		}
	})
	t.Run("the same with a token", func(t *testing.T) {
		if got := e.Get(e.Admin, "/v1/").Expect(200).Str("version"); got != want.APIVersion() {
			t.Errorf("version %q, want %q", got, want.APIVersion())
		}
	})
	t.Run("only /v1/ itself: below it unknown paths stay 404", func(t *testing.T) {
		e.Get(e.Admin, "/v1/no-such-thing").ExpectError(404)
		e.Post(e.Admin, "/v1/", nil).ExpectError(405)
	})
}
