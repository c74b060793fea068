package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"

	"docsd/internal/apitest"
	"docsd/internal/config"
	"docsd/internal/importrun"
)

// uploadURL asks for a signed upload URL and returns its url and key.
func uploadURL(t *testing.T, e *apitest.Env, name, typ string, size int) (string, string) {
	t.Helper()
	r := e.Post(e.Admin, "/v1/orgs/"+e.Org+"/storage/upload", map[string]any{
		"file": map[string]any{"name": name, "type": typ, "size": size}, "kind": "import_file"}).Expect(201)
	if r.Str("object") != "storage-signed-url" {
		t.Fatalf("object: %s", r.Body)
	}
	return r.Str("url"), r.Str("key")
}

// put sends bytes to a signed URL as an S3 client would: no token, the URL is the credential.
func put(t *testing.T, url string, data []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPut, url, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(body)
}

// waitRun polls a run until it has ended, within 30 s.
func waitRun(t *testing.T, e *apitest.Env, id string) *apitest.Resp {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports/"+id).Expect(200)
		if s := r.Str("status"); s != "pending" && s != "in-progress" {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %s still %s after 30 s", id, r.Str("status"))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// walkPages calls fn for each page of the space's current content, depth first, as the
// content lists them.
func walkPages(t *testing.T, e *apitest.Env, spaceID string, fn func(id, title string, depth int)) {
	t.Helper()
	var body struct {
		Pages []json.RawMessage `json:"pages"`
	}
	e.Get(e.Admin, "/v1/spaces/"+spaceID+"/content/pages").Expect(200).JSON(&body)
	var walk func(raw []json.RawMessage, depth int)
	walk = func(raw []json.RawMessage, depth int) {
		for _, r := range raw {
			var p struct {
				ID    string            `json:"id"`
				Title string            `json:"title"`
				Pages []json.RawMessage `json:"pages"`
			}
			if err := json.Unmarshal(r, &p); err != nil {
				t.Fatal(err)
			}
			fn(p.ID, p.Title, depth)
			walk(p.Pages, depth+1)
		}
	}
	walk(body.Pages, 0)
}

func pageTitles(t *testing.T, e *apitest.Env, spaceID string) []string {
	t.Helper()
	var out []string
	walkPages(t, e, spaceID, func(_, title string, depth int) { out = append(out, strings.Repeat(">", depth)+title) })
	return out
}

func TestUploadURLThenFileImportRun(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	archive := zipOf(t, map[string]string{
		"README.md":  "# Welcome\n\nHello.\n",
		"SUMMARY.md": "# Summary\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n",
		"setup.md":   "# Setup\n\nRun it.\n",
	})
	url, key := uploadURL(t, e, "docs.zip", "application/zip", len(archive))
	schemaChecker(t, loadOpenAPI(t))("StorageUploadURL", map[string]any{"object": "storage-signed-url", "url": url, "key": key})
	if !strings.HasPrefix(url, e.URL+"/v1/storage/uploads/") || !strings.Contains(key, e.Org) {
		t.Fatalf("url %s key %s", url, key)
	}
	if code, body := put(t, url, archive); code != 200 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	t.Run("a second PUT to the same URL is refused with 409", func(t *testing.T) {
		if code, _ := put(t, url, archive); code != 409 {
			t.Fatalf("status %d", code)
		}
	})
	htmlDoc := []byte(`<html><head><title>Notes</title></head><body><nav><a href="/x">x</a></nav><article><h1>Release notes</h1>
		<p>` + strings.Repeat("This release brings faster imports and better links. ", 20) + `</p><h2>Fixed</h2><ul><li>one</li></ul></article></body></html>`)
	htmlURL, htmlKey := uploadURL(t, e, "notes.html", "text/html", len(htmlDoc))
	if code, body := put(t, htmlURL, htmlDoc); code != 200 {
		t.Fatalf("PUT html: %d %s", code, body)
	}

	r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "file", "files": []string{key, htmlKey}},
		"target": map[string]any{"space": sp}}).Expect(201)
	if r.Str("status") != "pending" || r.Str("object") != "import-run" || r.Header.Get("Location") != r.Str("urls.location") {
		t.Fatalf("started: %s", r.Body)
	}
	done := waitRun(t, e, r.Str("id"))
	if done.Str("status") != "completed" || !done.Has("completedAt") || len(done.Items()) != 0 {
		t.Fatalf("run: %s", done.Body)
	}
	check := schemaChecker(t, loadOpenAPI(t))
	check("ContentImportRun", r.Map())
	check("ContentImportRun", done.Map())
	var run struct {
		Pages []struct{ ID, Type, Status string } `json:"pages"`
	}
	done.JSON(&run)
	if len(run.Pages) != 3 || run.Pages[0].Status != "complete" {
		t.Fatalf("pages: %s", done.Body)
	}
	got := strings.Join(pageTitles(t, e, sp), "|")
	if got != "Welcome|Setup|Release notes" {
		t.Fatalf("titles %q", got)
	}
	md := pageAt(e, sp, "", run.Pages[2].ID).Expect(200).Str("markdown")
	if !strings.Contains(md, "## Fixed") || !strings.Contains(md, "faster imports") || strings.Contains(md, "<p>") {
		t.Fatalf("html converted to %q", md)
	}
	t.Run("the run is listed, and filtered by status", func(t *testing.T) {
		list := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports?space="+sp).Expect(200)
		if ids := list.IDs(); len(ids) != 1 || ids[0] != r.Str("id") {
			t.Fatalf("list: %v", ids)
		}
		envelope := list.Map()
		check("ContentImportRun", list.Items()[0])
		delete(envelope, "items") // described beside List, in the list's own schema
		check("List", envelope)
		if n := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports?status=active").Expect(200).Num("count"); n != 0 {
			t.Fatalf("active: %v", n)
		}
		e.Get(e.Admin, "/v1/org/"+e.Org+"/imports?status=done").Expect(400).ExpectMessage("status")
	})
	t.Run("a completed run cannot be cancelled", func(t *testing.T) {
		e.Post(e.Admin, "/v1/org/"+e.Org+"/imports/"+r.Str("id")+"/cancel", nil).Expect(400).ExpectMessage("completed")
	})
	t.Run("a stranger sees no run", func(t *testing.T) {
		stranger := e.NewUser("stranger")
		e.Get(stranger, "/v1/org/"+e.Org+"/imports/"+r.Str("id")).Expect(404)
		e.Post(stranger, "/v1/org/"+e.Org+"/imports", map[string]any{
			"source": map[string]any{"type": "file", "files": []string{key}}, "target": map[string]any{"space": sp}}).Expect(404)
	})
}

func TestUploadURLRefusals(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	t.Run("a forged token is 403", func(t *testing.T) {
		url, _ := uploadURL(t, e, "a.md", "text/markdown", 10)
		forged := url[:len(url)-2] + "xx"
		if code, body := put(t, forged, []byte("# A\n")); code != 403 || !strings.Contains(body, "signature") {
			t.Fatalf("%d %s", code, body)
		}
		other := strings.Replace(url, "/uploads/", "/uploads/zz", 1)
		if code, _ := put(t, other, []byte("# A\n")); code != 403 {
			t.Fatalf("another id: %d", code)
		}
	})
	t.Run("an expired URL is 403", func(t *testing.T) {
		url, _ := uploadURL(t, e, "b.md", "text/markdown", 10)
		e.Clock.Advance(61 * time.Minute)
		if code, body := put(t, url, []byte("# B\n")); code != 403 || !strings.Contains(body, "expired") {
			t.Fatalf("%d %s", code, body)
		}
	})
	t.Run("more bytes than announced is 413, and the URL stays unused", func(t *testing.T) {
		url, _ := uploadURL(t, e, "c.md", "text/markdown", 10)
		if code, body := put(t, url, bytes.Repeat([]byte("x"), 11)); code != 413 || !strings.Contains(body, "10 bytes") {
			t.Fatalf("%d %s", code, body)
		}
		if code, body := put(t, url, []byte("# C\n")); code != 200 {
			t.Fatalf("then: %d %s", code, body)
		}
	})
	t.Run("bad requests name the field", func(t *testing.T) {
		base := "/v1/orgs/" + e.Org + "/storage/upload"
		e.Post(e.Admin, base, map[string]any{"file": map[string]any{"name": "a.pdf", "type": "x", "size": 5}, "kind": "import_file"}).Expect(400).ExpectMessage("file.name", ".docx")
		e.Post(e.Admin, base, map[string]any{"file": map[string]any{"name": "a.md", "type": "text/markdown", "size": 5}, "kind": "other"}).Expect(400).ExpectMessage("kind")
		e.Post(e.Admin, base, map[string]any{"file": map[string]any{"name": "a.md", "type": "text/markdown", "size": importrun.UploadMaxBytes + 1}, "kind": "import_file"}).Expect(400).ExpectMessage("file.size")
		e.Post(e.NewUser("outsider"), base, map[string]any{"file": map[string]any{"name": "a.md", "type": "text/markdown", "size": 5}, "kind": "import_file"}).Expect(404)
	})
	t.Run("a run needs uploaded files of the organization", func(t *testing.T) {
		_, key := uploadURL(t, e, "d.md", "text/markdown", 10)
		start := func(source map[string]any) *apitest.Resp {
			return e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": source, "target": map[string]any{"space": sp}})
		}
		start(map[string]any{"type": "file", "files": []string{key}}).Expect(400).ExpectMessage("source.files[0]", "nothing was uploaded")
		start(map[string]any{"type": "file", "files": []string{"uploads/nope"}}).Expect(400).ExpectMessage("source.files[0]")
		start(map[string]any{"type": "file", "files": []string{}}).Expect(400).ExpectMessage("source.files", "50")
		start(map[string]any{"type": "website", "url": "ftp://example.test/"}).Expect(400).ExpectMessage("source.url")
		start(map[string]any{"type": "ftp"}).Expect(400).ExpectMessage("source.type")
		e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "website", "url": "http://127.0.0.1/"},
			"target": map[string]any{"space": sp, "page": "nope"}}).Expect(400).ExpectMessage("target.page")
	})
}

// docsSite is a small documentation website: nested navigation, an image, a link to another
// host, a path robots.txt disallows, and a page over the byte cap. hits counts requests by
// path; onHit, when set, runs as a path is requested.
type docsSite struct {
	srv   *httptest.Server
	other *httptest.Server
	mu    sync.Mutex
	hits  map[string]int
	onHit func(path string)
}

func (d *docsSite) count(path string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.hits[path]
}

func newDocsSite(t *testing.T) *docsSite {
	d := &docsSite{hits: map[string]int{}}
	d.other = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.hits["other:"+r.URL.Path]++
		d.mu.Unlock()
		fmt.Fprint(w, "<html><body>elsewhere</body></html>")
	}))
	t.Cleanup(d.other.Close)
	para := func(s string) string { return "<p>" + strings.Repeat(s+" ", 15) + "</p>" }
	nav := `<nav><ul>
		<li><a href="/">Home</a></li>
		<li><a href="/guide/">Guide</a><ul>
			<li><a href="/guide/install.html">Installation</a></li>
			<li><a href="/private/secret.html">Secret</a></li>
		</ul></li>
		<li><a href="/api.html">API reference</a></li>
		<li><a href="/big.html">Big page</a></li>
		<li><a href="` + d.other.URL + `/elsewhere.html">Elsewhere</a></li>
	</ul></nav>`
	page := func(title, body string) string {
		return "<!doctype html><html><head><title>" + title + " | Docs</title></head><body>" + nav +
			"<main><article><h1>" + title + "</h1>" + body + "</article></main><footer>© Docs</footer></body></html>"
	}
	pages := map[string]string{
		"/":                    page("Home", para("Welcome to the product documentation home.")),
		"/guide/":              page("Guide", para("The guide explains how to use the product well.")),
		"/guide/install.html":  page("Installation", para("Install the product with the package manager.")+`<p><img src="/img/logo.png" alt="logo"></p><p>Then read the <a href="/api.html#auth">API reference</a> and <a href="`+d.other.URL+`/x.html">elsewhere</a>.</p>`),
		"/api.html":            page("API reference", para("The API answers JSON to every request made.")),
		"/private/secret.html": page("Secret", para("Nobody should read this page at all.")),
		"/big.html":            page("Big", para(strings.Repeat("big ", 20000))),
	}
	logo := []byte("\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 64))
	d.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		d.hits[r.URL.Path]++
		hook := d.onHit
		d.mu.Unlock()
		if hook != nil {
			hook(r.URL.Path)
		}
		switch {
		case r.URL.Path == "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case r.URL.Path == "/img/logo.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(logo)
		case pages[r.URL.Path] != "":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, pages[r.URL.Path])
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(d.srv.Close)
	return d
}

func TestWebsiteImportRun(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	e.App.Imports.Limits.MaxPageBytes = 32 << 10
	site := newDocsSite(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "website", "url": site.srv.URL + "/"},
		"target": map[string]any{"space": sp}}).Expect(201)
	done := waitRun(t, e, r.Str("id"))
	if done.Str("status") != "completed" {
		t.Fatalf("run: %s", done.Body)
	}
	got := strings.Join(pageTitles(t, e, sp), "|")
	if got != "Home|Guide|>Installation|API reference" {
		t.Fatalf("page tree %q", got)
	}
	if n := site.count("/private/secret.html"); n != 0 {
		t.Fatalf("the robots.txt-disallowed page was fetched %d times", n)
	}
	if n := site.count("other:/elsewhere.html") + site.count("other:/x.html"); n != 0 {
		t.Fatalf("another host was fetched %d times", n)
	}
	if site.count("/big.html") != 1 || !strings.Contains(string(done.Body), "big.html") || !strings.Contains(string(done.Body), "larger than") {
		t.Fatalf("the big page is not listed in errors: %s", done.Body)
	}
	var run struct {
		Pages []struct{ ID, SourceURL string } `json:"pages"`
	}
	done.JSON(&run)
	var install string
	for _, p := range run.Pages {
		if p.SourceURL == site.srv.URL+"/guide/install.html" {
			install = p.ID
		}
	}
	if install == "" {
		t.Fatalf("no page from install.html: %s", done.Body)
	}
	md := pageAt(e, sp, "", install).Expect(200).Str("markdown")
	if !strings.Contains(md, "package manager") || strings.Contains(md, "© Docs") || strings.Contains(md, "/private/") && strings.Contains(md, "Secret") {
		t.Fatalf("main content not extracted: %q", md)
	}
	if strings.Contains(md, site.srv.URL+"/api.html") || !strings.Contains(md, "#auth") {
		t.Fatalf("the link to a crawled page does not point inside the space: %q", md)
	}
	if !strings.Contains(md, site.other.URL+"/x.html") {
		t.Fatalf("the link to another host was lost: %q", md)
	}
	files := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/files").Expect(200).Items()
	if len(files) != 1 || files[0]["name"] != "logo.png" {
		t.Fatalf("files: %v", files)
	}
	if strings.Contains(md, site.srv.URL+"/img/logo.png") {
		t.Fatalf("the image still points at the website: %q", md)
	}
}

func TestImportRunCancelledMidRunLeavesHead(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	site := newDocsSite(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)
	var runID string
	var once sync.Once
	ready := make(chan struct{})
	site.onHit = func(path string) {
		if path == "/api.html" {
			once.Do(func() {
				<-ready
				e.Post(e.Admin, "/v1/org/"+e.Org+"/imports/"+runID+"/cancel", nil).Expect(201)
			})
		}
	}
	r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "website", "url": site.srv.URL + "/"},
		"target": map[string]any{"space": sp}}).Expect(201)
	runID = r.Str("id")
	close(ready)
	done := waitRun(t, e, runID)
	if done.Str("status") != "cancelled" || site.count("/api.html") != 1 {
		t.Fatalf("run: %s (api.html fetched %d times)", done.Body, site.count("/api.html"))
	}
	// Give the job time to finish what it was doing; nothing may land.
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		jobs, _ := e.App.DB.JobsOfKind(t.Context(), importrun.JobKind)
		if len(jobs) == 1 && jobs[0].FinishedAt != nil {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if headOf(e, sp) != head {
		t.Fatal("a cancelled run moved the head")
	}
	if got := pageTitles(t, e, sp); len(got) != 0 {
		t.Fatalf("pages after a cancelled run: %v", got)
	}
}

func TestImportRunRepeatedAfterRestartWritesOnce(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 1000)
	site := newDocsSite(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "website", "url": site.srv.URL + "/"},
		"target": map[string]any{"space": sp}}).Expect(201)
	payload := []byte(`{"run":"` + r.Str("id") + `"}`)

	// A process dies mid-crawl: its attempt stops with the run in progress and nothing written.
	crashCtx, crash := context.WithCancel(t.Context())
	site.onHit = func(path string) {
		if path == "/api.html" {
			crash()
		}
	}
	if err := e.App.Imports.HandleJob(crashCtx, payload); err == nil {
		t.Fatal("the interrupted attempt reported success")
	}
	site.mu.Lock()
	site.onHit = nil
	site.mu.Unlock()
	if s := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports/"+r.Str("id")).Expect(200).Str("status"); s != "in-progress" {
		t.Fatalf("after the crash: %s", s)
	}
	if got := pageTitles(t, e, sp); len(got) != 0 {
		t.Fatalf("pages written by the interrupted attempt: %v", got)
	}
	// The queue runs it again (after a restart), and once more: one set of pages.
	if ran, err := e.App.Jobs.RunDue(t.Context()); err != nil || ran == 0 {
		t.Fatalf("RunDue ran %d: %v", ran, err)
	}
	head := headOf(e, sp)
	if err := e.App.Imports.HandleJob(t.Context(), payload); err != nil {
		t.Fatal(err)
	}
	if headOf(e, sp) != head {
		t.Fatal("running a completed run again moved the head")
	}
	if got := strings.Join(pageTitles(t, e, sp), "|"); got != "Home|Guide|>Installation|API reference|Big page" {
		t.Fatalf("pages %q", got)
	}
	if s := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports/"+r.Str("id")).Expect(200).Str("status"); s != "completed" {
		t.Fatalf("status %s", s)
	}
}

// uploaded puts a markdown file through an upload URL and returns its key.
func uploaded(t *testing.T, e *apitest.Env, name, text string) string {
	t.Helper()
	url, key := uploadURL(t, e, name, "text/markdown", len(text))
	if code, body := put(t, url, []byte(text)); code != 200 {
		t.Fatalf("PUT: %d %s", code, body)
	}
	return key
}

func TestImportRunTargets(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, map[string]string{
		"README.md": "# Home\n", "SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Guide](guide.md)\n", "guide.md": "# Guide\n"})).Expect(201)
	guide := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Str("pages.1.id")

	t.Run("under a page of the space", func(t *testing.T) {
		key := uploaded(t, e, "faq.md", "# FAQ\n\nAsk away.\n")
		r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "file", "files": []string{key}},
			"target": map[string]any{"space": sp, "page": guide}}).Expect(201)
		if s := waitRun(t, e, r.Str("id")).Str("status"); s != "completed" {
			t.Fatalf("status %s", s)
		}
		if got := strings.Join(pageTitles(t, e, sp), "|"); got != "Home|Guide|>FAQ" {
			t.Fatalf("pages %q", got)
		}
	})
	t.Run("into a change request, leaving the space's head alone", func(t *testing.T) {
		head := headOf(e, sp)
		cr := e.Post(e.Admin, changeRequestsPath(sp), map[string]any{"subject": "Import"}).Expect(201).Str("id")
		key := uploaded(t, e, "news.md", "# News\n\nFresh.\n")
		r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "file", "files": []string{key}},
			"target": map[string]any{"space": sp, "changeRequest": cr}}).Expect(201)
		if r.Str("target.changeRequest") != cr {
			t.Fatalf("target: %s", r.Body)
		}
		if s := waitRun(t, e, r.Str("id")).Str("status"); s != "completed" {
			t.Fatalf("status %s", s)
		}
		if headOf(e, sp) != head {
			t.Fatal("an import into a change request moved the space's head")
		}
		pages := e.Get(e.Admin, changeRequestsPath(sp)+"/"+cr+"/content/pages").Expect(200)
		if pages.Str("pages.2.title") != "News" {
			t.Fatalf("change request pages: %s", pages.Body)
		}
		if ids := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports?changeRequest="+cr).Expect(200).IDs(); len(ids) != 1 || ids[0] != r.Str("id") {
			t.Fatalf("runs of the change request: %v", ids)
		}
	})
	t.Run("runs are listed page by page, most recent first", func(t *testing.T) {
		all := e.WalkList(e.Admin, "/v1/org/"+e.Org+"/imports", 1)
		// The archive imported within its request first is a run too, the oldest.
		if len(all) != 3 || all[0]["target"].(map[string]any)["changeRequest"] == nil || all[2]["source"] != nil {
			t.Fatalf("runs: %v", all)
		}
	})
	t.Run("a reader may not import", func(t *testing.T) {
		reader := e.Member("reader", "read")
		grant(t, e, e.Admin, "/v1/spaces/"+sp, "read", []string{reader.ID}, nil)
		key := uploaded(t, e, "r.md", "# R\n")
		e.Post(reader, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "file", "files": []string{key}},
			"target": map[string]any{"space": sp}}).Expect(403)
	})
}

func TestImportRunFailsAtLastAttempt(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 1000)
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	t.Cleanup(down.Close)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	id := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "website", "url": down.URL + "/"},
		"target": map[string]any{"space": sp}}).Expect(201).Str("id")
	for attempt := 1; attempt <= 5; attempt++ {
		if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
			t.Fatal(err)
		}
		r := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports/"+id).Expect(200)
		want := "in-progress"
		if attempt == 5 {
			want = "failed"
		}
		if r.Str("status") != want {
			t.Fatalf("after attempt %d: %s", attempt, r.Body)
		}
		if attempt == 5 && !strings.Contains(r.Str("reason"), "503") {
			t.Fatalf("reason: %s", r.Body)
		}
		e.Clock.Advance(2 * time.Minute) // past the retry's backoff
	}
}

func TestFileImportRunThroughS3PresignedURL(t *testing.T) {
	t.Parallel()
	backend := s3mem.New()
	if err := backend.CreateBucket("docsd"); err != nil {
		t.Fatal(err)
	}
	s3 := httptest.NewServer(gofakes3.New(backend, gofakes3.WithLogger(gofakes3.DiscardLog())).Server())
	t.Cleanup(s3.Close)
	e := apitest.NewWithConfig(t, func(c *config.Config) {
		c.BlobS3 = config.BlobS3{Endpoint: strings.TrimPrefix(s3.URL, "http://"), Bucket: "docsd", PathStyle: true,
			AccessKey: "test-access", SecretKey: "test-secret", Prefix: "blobs/"}
	})
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	text := "# From the bucket\n\nUploaded straight to S3.\n"
	url, key := uploadURL(t, e, "bucket.md", "text/markdown", len(text))
	if !strings.HasPrefix(url, s3.URL+"/docsd/blobs/uploads/") || !strings.Contains(url, "X-Amz-Signature=") {
		t.Fatalf("not a presigned URL of the bucket: %s", url)
	}
	if code, body := put(t, url, []byte(text)); code != 200 {
		t.Fatalf("PUT to the bucket: %d %s", code, body)
	}
	r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "file", "files": []string{key}},
		"target": map[string]any{"space": sp}}).Expect(201)
	if s := waitRun(t, e, r.Str("id")).Str("status"); s != "completed" {
		t.Fatalf("status %s", s)
	}
	if got := strings.Join(pageTitles(t, e, sp), "|"); got != "From the bucket" {
		t.Fatalf("pages %q", got)
	}
}

func TestQueuedArchiveImportRunCancelled(t *testing.T) {
	t.Parallel()
	e := stoppedQueue(t, 3)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)
	r := e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, largeTree(5))).Expect(202)
	run := strings.TrimPrefix(r.Header.Get("Location"), e.URL)
	if r.Str("status") != "pending" || r.Has("source") || r.Str("target.space") != sp {
		t.Fatalf("run: %s", r.Body)
	}
	if c := e.Post(e.Admin, run+"/cancel", nil).Expect(201); c.Str("status") != "cancelled" {
		t.Fatalf("cancel: %s", c.Body)
	}
	if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
		t.Fatal(err)
	}
	if headOf(e, sp) != head {
		t.Fatal("a cancelled archive import moved the head")
	}
	if s := e.Get(e.Admin, run).Expect(200).Str("status"); s != "cancelled" {
		t.Fatalf("status %s", s)
	}
}

func TestWebsiteImportUnderAPageKeepsLinks(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	site := newDocsSite(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	e.Upload(e.Admin, "POST", "/v1/spaces/"+sp+"/content/import", "application/zip", zipOf(t, map[string]string{
		"README.md": "# Home\n", "SUMMARY.md": "# Summary\n\n* [Home](README.md)\n* [Imported](imported/README.md)\n  * [Old](imported/old.md)\n",
		"imported/README.md": "# Imported\n", "imported/old.md": "# Old\n"})).Expect(201)
	under := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200).Str("pages.1.id")
	r := e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{
		"source": map[string]any{"type": "website", "url": site.srv.URL + "/"},
		"target": map[string]any{"space": sp, "page": under}}).Expect(201)
	if s := waitRun(t, e, r.Str("id")).Str("status"); s != "completed" {
		t.Fatalf("status %s", s)
	}
	if got := strings.Join(pageTitles(t, e, sp), "|"); got != "Home|Imported|>Old|>Home|>Guide|>>Installation|>API reference|>Big page" {
		t.Fatalf("pages %q", got)
	}
	links := e.Get(e.Admin, "/v1/spaces/"+sp+"/links").Expect(200)
	if n := links.Num("stats.broken.total"); n != 0 {
		t.Fatalf("%v broken links after importing under a page: %s", n, links.Body)
	}
	if !strings.Contains(string(links.Body), `"kind":"file"`) || !strings.Contains(string(links.Body), `"kind":"page"`) {
		t.Fatalf("the image and the link to a crawled page do not resolve inside the space: %s", links.Body)
	}
}

// A run names the site its target space belongs to (ContentImportRun.site, newer API): when
// exactly one site, published or not, includes the space; none when no site or several do.
func TestImportRunNamesTheSiteOfItsSpace(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	other := newSpace(t, e, e.Admin, e.Org, nil)
	start := func(space string) *apitest.Resp {
		t.Helper()
		key := uploaded(t, e, "page.md", "# Page\n\nText.\n")
		return e.Post(e.Admin, "/v1/org/"+e.Org+"/imports", map[string]any{"source": map[string]any{"type": "file", "files": []string{key}},
			"target": map[string]any{"space": space}}).Expect(201)
	}
	siteOf := func(r *apitest.Resp) string {
		t.Helper()
		if !r.Has("site") {
			return ""
		}
		return r.Str("site")
	}
	lone := start(sp)
	if siteOf(lone) != "" {
		t.Fatalf("a run into a space no site includes names a site: %s", lone.Body)
	}
	sitePath := newSite(t, e, map[string]any{"title": "Docs"})
	siteID := sitePath[strings.LastIndex(sitePath, "/")+1:]
	e.Post(e.Admin, sitePath+"/sections", map[string]any{"spaceId": sp, "title": "Guides"}).Expect(201)
	in := start(sp)
	if siteOf(in) != siteID {
		t.Fatalf("started into a space of site %s: %s", siteID, in.Body)
	}
	done := waitRun(t, e, in.Str("id"))
	if done.Str("status") != "completed" || siteOf(done) != siteID || siteOf(e.Get(e.Admin, "/v1/org/"+e.Org+"/imports/"+lone.Str("id")).Expect(200)) != siteID {
		t.Fatalf("read back: %s", done.Body)
	}
	elsewhere := start(other)
	listed := map[string]string{}
	for _, it := range e.WalkList(e.Admin, "/v1/org/"+e.Org+"/imports", 1) {
		s, _ := it["site"].(string)
		listed[it["id"].(string)] = s
	}
	if listed[in.Str("id")] != siteID || listed[lone.Str("id")] != siteID || listed[elsewhere.Str("id")] != "" {
		t.Fatalf("listed sites %v", listed)
	}
	// In a second site too: it belongs to no one site.
	second := newSite(t, e, map[string]any{"title": "More docs"})
	e.Post(e.Admin, second+"/sections", map[string]any{"spaceId": sp, "title": "Guides"}).Expect(201)
	if r := e.Get(e.Admin, "/v1/org/"+e.Org+"/imports/"+in.Str("id")).Expect(200); siteOf(r) != "" {
		t.Fatalf("a space in two sites: %s", r.Body)
	}
}
