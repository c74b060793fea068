package httpapi_test

import (
	"net/http"
	"testing"
	"time"

	"docsd/internal/apitest"
)

func TestIntegrationSiteViewEvents(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp, _ := crSpace(t, e)
	st := e.Post(e.Admin, sitesPath(e), map[string]any{"title": "Docs", "spaces": []string{sp}}).Expect(201)
	e.Post(e.Admin, sitesPath(e)+"/"+st.Str("id")+"/publish", nil).Expect(200)
	publish(e, "analytics", map[string]any{"scopes": []string{"site:views:read"}})
	in := e.Post(e.Admin, "/v1/integrations/analytics/installations", map[string]any{"organization": e.Org}).Expect(201).Str("id")
	e.Post(e.Admin, "/v1/integrations/analytics/installations/"+in+"/sites", map[string]any{"siteId": st.Str("id")}).Expect(201)
	page := e.URL + "/sites/" + e.Org + "/" + st.Str("basename") + "/"

	view := func() {
		t.Helper()
		req, _ := http.NewRequest("GET", page, nil)
		req.Header.Set("User-Agent", "reader-agent/1.0")
		req.Header.Set("Referer", "https://search.example/")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("page: %d", resp.StatusCode)
		}
	}
	siteViews := func() []map[string]any {
		var out []map[string]any
		for _, it := range e.WalkList(e.Admin, "/v1/integrations/analytics/events", 100) {
			if p := it["payload"].(map[string]any); p["type"] == "site_view" {
				out = append(out, p)
			}
		}
		return out
	}
	waitFor := func(n int) []map[string]any {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for {
			got := siteViews()
			if len(got) >= n || time.Now().After(deadline) {
				return got
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	view()
	got := waitFor(1)
	if len(got) != 1 {
		t.Fatalf("site_view events after a view: %d", len(got))
	}
	v := got[0]
	visitor, _ := v["visitor"].(map[string]any)
	if v["siteId"] != st.Str("id") || v["installationId"] != in || v["url"] != page || v["referrer"] != "https://search.example/" ||
		visitor["userAgent"] != "reader-agent/1.0" || visitor["ip"] != "127.0.0.1" || visitor["anonymousId"] == "" {
		t.Fatalf("site_view: %v", v)
	}
	// Sampled: more views within the period make no more events; after it, one more.
	view()
	view()
	time.Sleep(300 * time.Millisecond)
	if n := len(siteViews()); n != 1 {
		t.Fatalf("views within the period made %d events", n)
	}
	e.Clock.Advance(11 * time.Second)
	view()
	if n := len(waitFor(2)); n != 2 {
		t.Fatalf("a view after the period: %d events", n)
	}
}
