package httpapi_test

import (
	"net/url"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

func TestErrorsForUnknownRoutesAndMethods(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	e.Get(e.Admin, "/v1/no-such-thing").Expect(404)
	e.Get(apitest.Anonymous, "/nothing-here").Expect(404)
	r := e.Delete(e.Admin, "/v1/user").Expect(405)
	if allow := r.Header.Get("Allow"); !strings.Contains(allow, "GET") {
		t.Errorf("Allow = %q, want it to list GET", allow)
	}
	e.Get(apitest.Actor{Token: "dsd_nope"}, "/v1/user").Expect(401)
	e.Do(apitest.Anonymous, "GET", "/v1/user", nil).Expect(401)
}

func TestPaginationParameters(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	e.Get(e.Admin, "/v1/orgs?limit=1001").Expect(400).ExpectMessage("limit", "1000")
	e.Get(e.Admin, "/v1/orgs?limit=-1").Expect(400).ExpectMessage("limit")
	e.Get(e.Admin, "/v1/orgs?limit=abc").Expect(400).ExpectMessage("limit")
	e.Get(e.Admin, "/v1/orgs?limit=1000").Expect(200)
	r := e.Get(e.Admin, "/v1/orgs?limit=0").Expect(200)
	if r.Num("count") != 1 || len(r.Items()) != 0 || r.Has("next") {
		t.Errorf("limit=0 should give the count and no items: %s", r.Body)
	}
	e.Get(e.Admin, "/v1/orgs?page=garbage").Expect(400).ExpectMessage("page")

	e.NewOrg(e.Admin, "Second")
	first := e.Get(e.Admin, "/v1/orgs?limit=1").Expect(200)
	cursor := first.Str("next.page")
	tampered := []byte(cursor)
	tampered[2] ^= 1
	e.Get(e.Admin, "/v1/orgs?limit=1&page="+url.QueryEscape(string(tampered))).Expect(400)
	// A cursor from one list is not accepted by another.
	e.Get(e.Admin, "/v1/orgs/"+e.Org+"/members?page="+url.QueryEscape(cursor)).Expect(400)
	second := e.Get(e.Admin, "/v1/orgs?limit=1&page="+url.QueryEscape(cursor)).Expect(200)
	if first.IDs()[0] == second.IDs()[0] || second.Has("next") {
		t.Errorf("second page wrong: %s", second.Body)
	}
}

func TestWalkWhileItemsAreAdded(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	for i := 0; i < 9; i++ {
		e.NewOrg(e.Admin, "Existing org")
	}
	before := map[string]bool{}
	for _, it := range e.WalkList(e.Admin, "/v1/orgs", 100) {
		before[it["id"].(string)] = true
	}
	seen := map[string]int{}
	cursor := ""
	for {
		p := "/v1/orgs?limit=2"
		if cursor != "" {
			p += "&page=" + url.QueryEscape(cursor)
		}
		r := e.Get(e.Admin, p).Expect(200)
		for _, id := range r.IDs() {
			seen[id]++
		}
		e.NewOrg(e.Admin, "Added during the walk")
		if !r.Has("next") {
			break
		}
		cursor = r.Str("next.page")
	}
	for id := range before {
		if seen[id] != 1 {
			t.Errorf("organization %s seen %d times, want exactly once", id, seen[id])
		}
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("organization %s seen %d times", id, n)
		}
	}
}

func TestBodyLimits(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.MaxBodyBytes = 1024 })
	big := `{"title": "` + strings.Repeat("a", 2000) + `"}`
	e.Patch(e.Admin, "/v1/orgs/"+e.Org, big).Expect(413)
	e.Do(e.Admin, "PATCH", "/v1/orgs/"+e.Org, nil).Expect(200)
}

func TestHealthAndMetrics(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	e.Get(apitest.Anonymous, "/healthz").Expect(200)
	e.Get(apitest.Anonymous, "/readyz").Expect(200)
	e.Get(e.Admin, "/v1/user").Expect(200)
	r := e.Get(apitest.Anonymous, "/metrics").Expect(200)
	if !strings.Contains(string(r.Body), `docsd_http_requests_total{method="GET",route="GET /v1/user",status="200"}`) {
		t.Errorf("metrics lack the request counter: %.500s", r.Body)
	}
	if r.Header.Get("X-Request-Id") == "" {
		t.Error("responses should carry X-Request-Id")
	}
}
