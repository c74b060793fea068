package httpapi_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/config"
)

// embedSite serves pages to unfurl on 127.0.0.1 and counts the requests for /og.
func embedSite(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var ogHits atomic.Int64
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/og", func(w http.ResponseWriter, r *http.Request) {
		ogHits.Add(1)
		fmt.Fprint(w, `<!doctype html><html><head><title>Plain title</title>
<meta property="og:title" content="  Open   Graph title ">
<meta property="og:site_name" content="Example Site">
<link rel="icon" href="/favicon.png">
</head><body><p>Body text</p></body></html>`)
	})
	mux.HandleFunc("/video", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<html><head><title>Video page</title>
<link rel="alternate" type="application/json+oembed" href="%s/oembed?url=video"></head><body></body></html>`, srv.URL)
	})
	mux.HandleFunc("/oembed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"type":"video","title":"A video","provider_name":"Tube",
"html":"<iframe src=\"https://player.example.com/v/1\" width=\"560\" height=\"315\" onload=\"alert(1)\"></iframe><script>alert(2)</script><iframe src=\"javascript:alert(3)\"></iframe><iframe src=\"http://insecure.example.com/v\"></iframe>"}`)
	})
	mux.HandleFunc("/title-only", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Just a title</title></head></html>`)
	})
	mux.HandleFunc("/file.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		fmt.Fprint(w, "%PDF-1.4")
	})
	mux.HandleFunc("/huge", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<html><head><title>Huge</title></head><body>" + strings.Repeat("x", 3<<20)))
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv, &ogHits
}

func TestEmbedByURL(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	srv, ogHits := embedSite(t)
	get := func(a apitest.Actor, u string) *apitest.Resp {
		return e.Get(a, "/v1/urls/embed?url="+url.QueryEscape(u))
	}

	t.Run("a link card from OpenGraph data", func(t *testing.T) {
		r := get(e.Admin, srv.URL+"/og").Expect(200)
		schemaChecker(t, loadOpenAPI(t))("Embed", r.Map())
		if r.Str("type") != "link" || r.Str("title") != "Open Graph title" || r.Str("site") != "Example Site" ||
			r.Str("icon") != srv.URL+"/favicon.png" || r.Has("html") {
			t.Fatalf("%s", r.Body)
		}
	})
	t.Run("cached for a while", func(t *testing.T) {
		before := ogHits.Load()
		get(e.Admin, srv.URL+"/og").Expect(200)
		get(e.NewUser("other"), srv.URL+"/og#fragment").Expect(200)
		if ogHits.Load() != before {
			t.Fatalf("fetched again: %d → %d", before, ogHits.Load())
		}
	})
	t.Run("rich from oEmbed, sanitised", func(t *testing.T) {
		r := get(e.Admin, srv.URL+"/video").Expect(200)
		h := r.Str("html")
		if r.Str("type") != "rich" || r.Str("title") != "A video" || r.Str("site") != "Tube" ||
			!strings.Contains(h, `src="https://player.example.com/v/1"`) {
			t.Fatalf("%s", r.Body)
		}
		for _, bad := range []string{"onload", "<script", "alert(2)", "javascript:", "http://insecure"} {
			if strings.Contains(h, bad) {
				t.Errorf("html keeps %q: %s", bad, h)
			}
		}
	})
	t.Run("the title, a file, a dead page and a page over the cap are still links", func(t *testing.T) {
		if r := get(e.Admin, srv.URL+"/title-only").Expect(200); r.Str("title") != "Just a title" || r.Str("site") != "127.0.0.1" {
			t.Errorf("%s", r.Body)
		}
		if r := get(e.Admin, srv.URL+"/file.pdf").Expect(200); r.Str("title") != "file.pdf" || r.Str("type") != "link" {
			t.Errorf("%s", r.Body)
		}
		if r := get(e.Admin, srv.URL+"/missing").Expect(200); r.Str("title") != srv.URL+"/missing" || r.Str("type") != "link" {
			t.Errorf("%s", r.Body)
		}
		if r := get(e.Admin, srv.URL+"/huge").Expect(200); r.Str("type") != "link" || r.Str("title") != srv.URL+"/huge" {
			t.Errorf("%s", r.Body)
		}
	})
	t.Run("in a space, for who can read it", func(t *testing.T) {
		sp := newSpace(t, e, e.Admin, e.Org, nil)
		r := e.Get(e.Admin, "/v1/spaces/"+sp+"/embed?url="+url.QueryEscape(srv.URL+"/og")).Expect(200)
		if r.Str("title") != "Open Graph title" {
			t.Fatalf("%s", r.Body)
		}
		e.Get(e.NewUser("outsider"), "/v1/spaces/"+sp+"/embed?url="+url.QueryEscape(srv.URL+"/og")).ExpectError(404)
	})
	t.Run("bad URLs are 400 naming url", func(t *testing.T) {
		e.Get(e.Admin, "/v1/urls/embed").ExpectError(400).ExpectMessage("url", "required")
		get(e.Admin, "ftp://example.com/x").ExpectError(400).ExpectMessage("url")
		get(e.Admin, "https://example.com/"+strings.Repeat("x", 2048)).ExpectError(400).ExpectMessage("url", "2048")
		get(apitest.Anonymous, srv.URL+"/og").ExpectError(401)
	})
}

func TestEmbedFollowsTheAddressPolicy(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.FetchAllowPrivate = false })
	srv, hits := embedSite(t)
	e.Get(e.Admin, "/v1/urls/embed?url="+url.QueryEscape(srv.URL+"/og")).ExpectError(400).ExpectMessage("url")
	if hits.Load() != 0 {
		t.Fatalf("a loopback address was fetched")
	}
}
