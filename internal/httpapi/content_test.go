package httpapi_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
)

// sampleTree is a small space: a home page, a group with a nested document, a link, a file.
func sampleTree(t *testing.T, e *apitest.Env) *treeBuilder {
	b := newTreeBuilder().
		doc("home", "", "Home", "home", "# Welcome\n").
		page("guide", "", "group", "Guide", "guide", "").
		doc("intro", "guide", "Introduction", "intro", "# Intro\n\nFirst steps.\n").
		doc("deep", "intro", "Deeper", "deeper", "Deep text.\n").
		file(t, e, "logo", "logo.png", "image/png", []byte("\x89PNG fake image bytes"))
	b.page("out", "", "link", "Elsewhere", "", "")
	p := b.tree.Pages["out"]
	p.Target = []byte(`{"kind":"url","url":"https://example.com"}`)
	b.tree.Pages["out"] = p
	return b
}

func TestContentOfANewSpaceIsAnEmptyRevision(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	rev := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision")
	if rev == "" {
		t.Fatal("a new space has no revision")
	}
	r := e.Get(e.Admin, "/v1/spaces/"+id+"/content").Expect(200)
	if r.Str("object") != "revision" || r.Str("id") != rev || r.Str("type") != "edits" || !r.Has("createdAt") || !r.Has("urls.app") {
		t.Fatalf("empty revision: %v", r.Map())
	}
	for _, f := range []string{"pages", "files", "reusableContents", "parents"} {
		if v, _ := r.Get(f); v == nil || len(v.([]any)) != 0 {
			t.Fatalf("%s = %v, want []", f, v)
		}
	}
	e.Get(e.Admin, "/v1/spaces/"+id+"/revisions/"+rev).Expect(200)
	if n := len(e.Get(e.Admin, "/v1/spaces/"+id+"/content/pages").Expect(200).Map()["pages"].([]any)); n != 0 {
		t.Fatalf("%d pages", n)
	}
	if e.Get(e.Admin, "/v1/spaces/"+id+"/content/files").Expect(200).Num("count") != 0 {
		t.Fatal("files in an empty space")
	}
	// A duplicate starts from the same revision and can read it.
	dup := e.Post(e.Admin, "/v1/spaces/"+id+"/duplicate", nil).Expect(201).Str("id")
	if got := e.Get(e.Admin, "/v1/spaces/"+dup).Expect(200).Str("revision"); got != rev {
		t.Fatalf("duplicate's revision %s, want %s", got, rev)
	}
	e.Get(e.Admin, "/v1/spaces/"+dup+"/revisions/"+rev).Expect(200)
}

func TestContentReads(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	first := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision")
	rev, _ := replaceContent(t, e, e.Admin, id, sampleTree(t, e).tree)
	base := "/v1/spaces/" + id

	t.Run("the space's head is the new revision", func(t *testing.T) {
		if got := e.Get(e.Admin, base).Expect(200).Str("revision"); got != rev.ID {
			t.Fatalf("space revision %s, want %s", got, rev.ID)
		}
		r := e.Get(e.Admin, base+"/content").Expect(200)
		if r.Str("id") != rev.ID || r.Str("parents.0") != first {
			t.Fatalf("content: %v", r.Map())
		}
	})
	t.Run("pages come as an ordered tree with paths", func(t *testing.T) {
		for _, path := range []string{base + "/content/pages", base + "/revisions/" + rev.ID + "/pages"} {
			r := e.Get(e.Admin, path).Expect(200)
			want := map[string]string{
				"pages.0.id": "home", "pages.0.type": "document", "pages.0.kind": "sheet", "pages.0.path": "home",
				"pages.1.id": "guide", "pages.1.type": "group", "pages.1.path": "guide",
				"pages.1.pages.0.id": "intro", "pages.1.pages.0.path": "guide/intro",
				"pages.1.pages.0.pages.0.id": "deep", "pages.1.pages.0.pages.0.path": "guide/intro/deeper",
				"pages.2.id": "out", "pages.2.type": "link", "pages.2.target.url": "https://example.com",
				"pages.2.href": "https://example.com",
			}
			for k, v := range want {
				if got := r.Str(k); got != v {
					t.Fatalf("%s: %s = %q, want %q", path, k, got, v)
				}
			}
			if r.Has("pages.0.markdown") {
				t.Fatal("the tree carries markdown")
			}
			if !r.Has("pages.0.layout") || !r.Has("pages.0.urls.app") {
				t.Fatalf("document lacks layout or urls: %v", r.Map())
			}
		}
	})
	t.Run("a page by id carries its markdown and subtree", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/content/page/intro?format=markdown").Expect(200)
		if r.Str("markdown") != "# Intro\n\nFirst steps.\n" || r.Str("path") != "guide/intro" || r.Str("pages.0.id") != "deep" {
			t.Fatalf("page: %v", r.Map())
		}
		r = e.Get(e.Admin, base+"/revisions/"+rev.ID+"/page/deep?format=markdown&metadata=false&computed=false").Expect(200)
		if r.Str("markdown") != "Deep text.\n" {
			t.Fatalf("page at revision: %v", r.Map())
		}
		if g := e.Get(e.Admin, base+"/content/page/guide?format=markdown").Expect(200); g.Has("markdown") || g.Has("document") {
			t.Fatal("a group has content")
		}
	})
	t.Run("the document format, the default, is the block tree of the markdown", func(t *testing.T) {
		for _, q := range []string{"", "?format=document"} {
			r := e.Get(e.Admin, base+"/content/page/intro"+q).Expect(200)
			if r.Has("markdown") || r.Str("document.object") != "document" || r.Str("document.nodes.0.type") != "heading-1" ||
				r.Str("document.nodes.1.type") != "paragraph" {
				t.Fatalf("document%s: %v", q, r.Map())
			}
		}
	})
	t.Run("a page by path", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/content/path/guide/intro/deeper?format=markdown").Expect(200)
		if r.Str("id") != "deep" || r.Str("markdown") != "Deep text.\n" {
			t.Fatalf("by path: %v", r.Map())
		}
		if got := e.Get(e.Admin, base+"/revisions/"+rev.ID+"/path/home").Expect(200).Str("id"); got != "home" {
			t.Fatalf("by path at revision: %s", got)
		}
		e.Get(e.Admin, base+"/content/path/guide/nothing").Expect(404)
	})
	t.Run("files are listed, read and downloaded", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/content/files").Expect(200)
		if r.Num("count") != 1 || r.Str("items.0.id") != "logo" || r.Str("items.0.contentType") != "image/png" ||
			r.Num("items.0.size") != 21 {
			t.Fatalf("files: %v", r.Map())
		}
		f := e.Get(e.Admin, base+"/content/files/logo").Expect(200)
		url := f.Str("downloadURL")
		if !strings.HasSuffix(url, "/v1/spaces/"+id+"/revisions/"+rev.ID+"/files/logo/download") {
			t.Fatalf("downloadURL %s", url)
		}
		body, resp := download(t, e, e.Admin, url)
		if resp.StatusCode != 200 || body != "\x89PNG fake image bytes" || resp.Header.Get("Content-Type") != "image/png" {
			t.Fatalf("download: %d %q %s", resp.StatusCode, body, resp.Header.Get("Content-Type"))
		}
		e.Get(e.Admin, base+"/revisions/"+rev.ID+"/files/logo").Expect(200)
		e.Get(e.Admin, base+"/content/files/nope").Expect(404)
	})
	t.Run("an older revision is unchanged", func(t *testing.T) {
		r := e.Get(e.Admin, base+"/revisions/"+first).Expect(200)
		if len(r.Map()["pages"].([]any)) != 0 {
			t.Fatal("the first revision changed")
		}
		e.Get(e.Admin, base+"/revisions/"+first+"/page/home").Expect(404)
	})
	t.Run("missing pages and revisions are 404", func(t *testing.T) {
		e.Get(e.Admin, base+"/content/page/nope").Expect(404)
		e.Get(e.Admin, base+"/revisions/nope").Expect(404)
		other := newSpace(t, e, e.Admin, e.Org, nil)
		e.Get(e.Admin, "/v1/spaces/"+other+"/revisions/"+rev.ID).Expect(404) // another space's revision
	})
	t.Run("bad query flags are 400", func(t *testing.T) {
		e.Get(e.Admin, base+"/content?metadata=maybe").Expect(400).ExpectMessage("metadata")
		e.Get(e.Admin, base+"/content/pages?computed=2").Expect(400).ExpectMessage("computed")
		e.Get(e.Admin, base+"/content/page/home?format=html").Expect(400).ExpectMessage("format")
		e.Get(e.Admin, base+"/content/page/home?evaluated=sometimes").Expect(400).ExpectMessage("evaluated")
	})
	t.Run("a reader can read; an outsider gets 404 everywhere", func(t *testing.T) {
		reader := e.Member("reader", auth.Read)
		grant(t, e, e.Admin, base, "read", []string{reader.ID}, nil) // new spaces are private
		e.Get(reader, base+"/content/page/home").Expect(200)
		outsider := e.NewUser("outsider")
		for _, p := range []string{"/content", "/content/pages", "/content/page/home", "/content/path/home", "/content/files",
			"/content/files/logo", "/revisions/" + rev.ID, "/revisions/" + rev.ID + "/files/logo/download"} {
			e.Get(outsider, base+p).Expect(404)
		}
	})
}

// download fetches a URL with actor's token.
func download(t *testing.T, e *apitest.Env, a apitest.Actor, url string) (string, *http.Response) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	req.Header.Set("Authorization", "Bearer "+a.Token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), resp
}

func TestContentFilesArePaged(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	b := newTreeBuilder().doc("home", "", "Home", "home", "")
	for _, f := range []string{"c", "a", "b"} {
		b.file(t, e, f, f+".txt", "text/plain", []byte("file "+f))
	}
	replaceContent(t, e, e.Admin, id, b.tree)
	items := e.WalkList(e.Admin, "/v1/spaces/"+id+"/content/files", 2)
	var got []string
	for _, it := range items {
		got = append(got, it["id"].(string))
	}
	if strings.Join(got, ",") != "a,b,c" {
		t.Fatalf("files walked in pages of 2: %v", got)
	}
	r := e.Get(e.Admin, "/v1/spaces/"+id+"/content/files?limit=0").Expect(200)
	if r.Num("count") != 3 || len(r.Items()) != 0 {
		t.Fatalf("limit=0: %s", r.Body)
	}
	e.Get(e.Admin, "/v1/spaces/"+id+"/content/files?limit=1001").Expect(400)
}
