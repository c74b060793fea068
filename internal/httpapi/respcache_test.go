package httpapi_test

import (
	"context"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/site"
	"docsd/internal/store"
)

// cacheHits reads the answer-cache hit counter from /metrics.
func cacheHits(t *testing.T, e *apitest.Env) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^docsd_http_cache_hits_total (\d+)`).FindSubmatch(e.Get(apitest.Anonymous, "/metrics").Expect(200).Body)
	if m == nil {
		t.Fatal("metrics lack docsd_http_cache_hits_total")
	}
	n, _ := strconv.Atoi(string(m[1]))
	return n
}

// expectCacheHit checks that a GET repeated with no write in between is served from the
// cache. The outbox's consumers write their cursors shortly after the writes that precede
// (on SQLite that changes the database's generation too), so a few attempts are allowed.
func expectCacheHit(t *testing.T, e *apitest.Env, a apitest.Actor, path string) {
	t.Helper()
	for range 5 {
		e.Get(a, path).Expect(200)
		before := cacheHits(t, e)
		e.Get(a, path).Expect(200)
		if cacheHits(t, e) == before+1 {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("a repeated GET with no write in between was never served from the cache")
}

func TestAnswerCacheIsNeverStale(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	path := "/v1/orgs/" + e.Org
	if e.Get(e.Admin, path).Expect(200).Str("title") != "Test Organization" {
		t.Fatal("unexpected title")
	}
	expectCacheHit(t, e, e.Admin, path)

	t.Run("a write through the API is seen at once", func(t *testing.T) {
		e.Patch(e.Admin, path, map[string]any{"title": "Through the API"}).Expect(200)
		if got := e.Get(e.Admin, path).Expect(200).Str("title"); got != "Through the API" {
			t.Fatalf("title = %q after the write", got)
		}
	})
	t.Run("a write by another process is seen by the next request", func(t *testing.T) {
		// A second handle on the same SQLite file stands for another process (the admin
		// commands run while the server serves).
		other, err := store.Open(context.Background(), e.App.Config.DatabaseURL)
		if err != nil {
			t.Fatal(err)
		}
		defer other.Close()
		for i := 0; i < 20; i++ {
			e.Get(e.Admin, path).Expect(200)
			title := "Outside " + strconv.Itoa(i)
			err := other.Write(context.Background(), time.Now(), func(q *store.Q) error {
				_, err := q.Exec(context.Background(), `UPDATE organizations SET title = ? WHERE id = ?`, title, e.Org)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got := e.Get(e.Admin, path).Expect(200).Str("title"); got != title {
				t.Fatalf("round %d: title = %q, want %q written before the request", i, got, title)
			}
		}
	})
	t.Run("a write through another instance is seen by the next read on this one", func(t *testing.T) {
		peer := e.Peer()
		for i := 0; i < 20; i++ {
			e.Get(e.Admin, path).Expect(200)
			peer.Get(e.Admin, path).Expect(200)
			title := "Peer " + strconv.Itoa(i)
			writer, reader := peer, e
			if i%2 == 1 {
				writer, reader = e, peer
			}
			writer.Patch(e.Admin, path, map[string]any{"title": title}).Expect(200)
			if got := reader.Get(e.Admin, path).Expect(200).Str("title"); got != title {
				t.Fatalf("round %d: title = %q, want %q written before the request", i, got, title)
			}
		}
		expectCacheHit(t, peer, e.Admin, path)
	})
	t.Run("answers are per caller", func(t *testing.T) {
		outsider := e.NewUser("outsider")
		e.Get(e.Admin, path).Expect(200)
		e.Get(outsider, path).Expect(404)
		e.Get(e.Admin, path).Expect(200)
	})
}

// Answers larger than net/http's buffers go with their length, not chunked: a page's JSON
// computed and then from the answer cache, an error, and a published page computed and then
// from the site's page cache. Their lengths are what the body holds.
func TestAnswersCarryTheirLength(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, map[string]any{"title": "Long"})
	long := strings.Repeat("A paragraph long enough to need more than one of net/http's buffers. ", 150)
	replaceContent(t, e, e.Admin, sp, newTreeBuilder().doc("home", "", "Home", "home", long+"\n").tree)
	sized := func(what string, status int, h http.Header, body []byte) {
		t.Helper()
		if got := h.Get("Content-Length"); got != strconv.Itoa(len(body)) {
			t.Fatalf("%s: Content-Length %q for a body of %d bytes (status %d)", what, got, len(body), status)
		}
	}
	path := "/v1/spaces/" + sp + "/content/page/home"
	r := e.Get(e.Admin, path).Expect(200)
	if len(r.Body) < 8<<10 {
		t.Fatalf("the page's answer is %d bytes, want one past net/http's buffers", len(r.Body))
	}
	sized("a computed answer", r.Status, r.Header, r.Body)
	// The outbox's consumers write shortly after the content did, which on SQLite moves the
	// database's generation: a few attempts (as expectCacheHit makes).
	for attempt := 0; ; attempt++ {
		before := cacheHits(t, e)
		again := e.Get(e.Admin, path).Expect(200)
		if cacheHits(t, e) == before+1 {
			sized("an answer from the cache", again.Status, again.Header, again.Body)
			if string(again.Body) != string(r.Body) {
				t.Fatal("the cached answer differs from the computed one")
			}
			break
		}
		if attempt == 5 {
			t.Fatal("a repeated GET with no write in between was never served from the cache")
		}
		time.Sleep(20 * time.Millisecond)
	}
	nf := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/page/nope").Expect(404)
	sized("an error", nf.Status, nf.Header, nf.Body)

	f := newSiteFixture(t, e, site.Public)
	f.siteSpace("", sp, "guide", true, nil)
	rd := newReader(t, e)
	for _, what := range []string{"a published page", "a published page from the cache"} {
		p := rd.get(f.path("")).expect(t, 200)
		sized(what, p.Status, p.Header, []byte(p.Body))
	}
}
