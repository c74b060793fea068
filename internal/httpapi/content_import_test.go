package httpapi_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/config"
)

// docsTree is a small GitBook-style tree: a home page, a section with a nested page, a group
// and an image.
func docsTree() map[string]string {
	return map[string]string{
		"README.md": "# Welcome\n\nHello.\n",
		"SUMMARY.md": "# Table of contents\n\n* [Welcome](README.md)\n* [Getting started](start/README.md)\n" +
			"  * [Install](start/install.md)\n\n## Guides\n\n* [Writing](guides/writing.md)\n",
		"start/README.md":          "# Getting started\n\nBegin here.\n",
		"start/install.md":         "# Install\n\nRun the binary.\n\n![logo](../.gitbook/assets/logo.png)\n",
		"guides/writing.md":        "# Writing\n\nWrite **well**.\n",
		".gitbook/assets/logo.png": "\x89PNG logo bytes",
	}
}

func zipOf(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(files[name]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func tarGzOf(t testing.TB, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg})
		tw.Write([]byte(files[name]))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

func TestContentImport(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + id
	before := e.Get(e.Admin, base).Expect(200).Str("revision")

	r := e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, docsTree())).Expect(201)
	rev := r.Str("id")
	if r.Str("object") != "revision" || r.Str("parents.0") != before || r.Header.Get("Location") == "" {
		t.Fatalf("import answer: %v", r.Map())
	}

	t.Run("the import is the space's content", func(t *testing.T) {
		if got := e.Get(e.Admin, base).Expect(200).Str("revision"); got != rev {
			t.Fatalf("head %s, want %s", got, rev)
		}
		pages := e.Get(e.Admin, base+"/content/pages").Expect(200)
		want := map[string]string{
			"pages.0.title": "Welcome", "pages.1.title": "Getting started", "pages.1.path": "start",
			"pages.1.pages.0.title": "Install", "pages.1.pages.0.path": "start/install",
			"pages.2.type": "group", "pages.2.title": "Guides", "pages.2.pages.0.title": "Writing",
		}
		for k, v := range want {
			if got := pages.Str(k); got != v {
				t.Fatalf("%s = %q, want %q; %s", k, got, v, pages.Body)
			}
		}
		install := pages.Str("pages.1.pages.0.id")
		p := e.Get(e.Admin, base+"/content/page/"+install+"?format=markdown").Expect(200)
		if !bytes.Contains([]byte(p.Str("markdown")), []byte("Run the binary.")) {
			t.Fatalf("install markdown: %q", p.Str("markdown"))
		}
		d := e.Get(e.Admin, base+"/content/path/start/install").Expect(200)
		if d.Str("id") != install || d.Str("document.object") != "document" {
			t.Fatalf("by path: %v", d.Map())
		}
	})
	t.Run("its files are listed and downloadable", func(t *testing.T) {
		files := e.Get(e.Admin, base+"/content/files").Expect(200)
		if files.Num("count") != 1 || files.Str("items.0.name") != "logo.png" || files.Str("items.0.contentType") != "image/png" {
			t.Fatalf("files: %s", files.Body)
		}
		body, resp := download(t, e, e.Admin, files.Str("items.0.downloadURL"))
		if resp.StatusCode != 200 || body != "\x89PNG logo bytes" {
			t.Fatalf("download: %d %q", resp.StatusCode, body)
		}
	})
	t.Run("a second import changing one page reuses every other record and keeps ids", func(t *testing.T) {
		oldPages := e.Get(e.Admin, base+"/content/pages").Expect(200)
		pageRecords, fileRecords := countObjects(t, e, "page"), countObjects(t, e, "file")
		tree := docsTree()
		tree["guides/writing.md"] = "# Writing\n\nWrite **better**.\n"
		r := e.Upload(e.Admin, "POST", base+"/content/import", "application/gzip", tarGzOf(t, tree)).Expect(201)
		if r.Str("parents.0") != rev {
			t.Fatalf("second import's parent %s, want %s", r.Str("parents.0"), rev)
		}
		if got := countObjects(t, e, "page"); got != pageRecords+1 {
			t.Fatalf("page records %d → %d, want one more", pageRecords, got)
		}
		if got := countObjects(t, e, "file"); got != fileRecords {
			t.Fatalf("file records %d → %d, want none more", fileRecords, got)
		}
		newPages := e.Get(e.Admin, base+"/content/pages").Expect(200)
		for _, k := range []string{"pages.0.id", "pages.1.id", "pages.1.pages.0.id", "pages.2.id", "pages.2.pages.0.id"} {
			if oldPages.Str(k) != newPages.Str(k) {
				t.Fatalf("%s changed from %s to %s", k, oldPages.Str(k), newPages.Str(k))
			}
		}
		writing := newPages.Str("pages.2.pages.0.id")
		if got := e.Get(e.Admin, base+"/content/page/"+writing+"?format=markdown").Expect(200).Str("markdown"); got != "Write **better**.\n" && got != "# Writing\n\nWrite **better**.\n" {
			t.Fatalf("edited page: %q", got)
		}
		// The first import's revision still reads as it was.
		old := e.Get(e.Admin, base+"/revisions/"+rev+"/page/"+writing+"?format=markdown").Expect(200).Str("markdown")
		if !bytes.Contains([]byte(old), []byte("Write **well**.")) {
			t.Fatalf("old revision's page: %q", old)
		}
	})
}

func TestContentImportRefusals(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	path := "/v1/spaces/" + id + "/content/import"
	head := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision")
	archive := zipOf(t, docsTree())

	for _, tc := range []struct {
		name, contentType string
		body              []byte
		status            int
		message           string
	}{
		{"not an archive is 400", "application/zip", []byte("this is not a zip file"), 400, "archive"},
		{"a broken tar is 400", "application/gzip", []byte("not gzip"), 400, "archive"},
		{"another content type is 400", "application/json", []byte(`{}`), 400, "Content-Type"},
		{"an archive without pages is 400", "application/zip", zipOf(t, map[string]string{"notes.txt": "hi"}), 400, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := e.Upload(e.Admin, "POST", path, tc.contentType, tc.body).Expect(tc.status)
			if tc.message != "" {
				r.ExpectMessage(tc.message)
			}
		})
	}
	t.Run("a reader gets 403", func(t *testing.T) {
		reader := e.Member("reader", auth.Read)
		grant(t, e, e.Admin, "/v1/spaces/"+id, "read", []string{reader.ID}, nil)
		e.Upload(reader, "POST", path, "application/zip", archive).Expect(403)
	})
	t.Run("an outsider gets 404", func(t *testing.T) {
		e.Upload(e.NewUser("outsider"), "POST", path, "application/zip", archive).Expect(404)
	})
	t.Run("a locked space gets 409", func(t *testing.T) {
		e.Patch(e.Admin, "/v1/spaces/"+id, map[string]any{"editMode": "locked"}).Expect(200)
		e.Upload(e.Admin, "POST", path, "application/zip", archive).Expect(409)
		e.Patch(e.Admin, "/v1/spaces/"+id, map[string]any{"editMode": "live"}).Expect(200)
	})
	if got := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision"); got != head {
		t.Fatalf("a refused import moved the head to %s", got)
	}
}

// The body cap bounds the archive: at the cap it is imported, one byte less of cap is 413.
func TestContentImportBodyCap(t *testing.T) {
	t.Parallel()
	archive := zipOf(t, docsTree())
	for _, tc := range []struct {
		name   string
		cap    int64
		status int
	}{
		{"an archive at the cap is imported", int64(len(archive)), 201},
		{"an archive over the cap is 413", int64(len(archive)) - 1, 413},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := apitest.NewWithConfig(t, func(c *config.Config) { c.MaxBodyBytes = tc.cap })
			id := newSpace(t, e, e.Admin, e.Org, nil)
			head := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision")
			e.Upload(e.Admin, "POST", "/v1/spaces/"+id+"/content/import", "application/zip", archive).Expect(tc.status)
			if moved := e.Get(e.Admin, "/v1/spaces/"+id).Expect(200).Str("revision") != head; moved != (tc.status == 201) {
				t.Fatalf("head moved: %v", moved)
			}
		})
	}
}

// An archive holds at most 20,000 entries: at the limit it is imported, beyond it is 413.
func TestContentImportEntryLimit(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	files := map[string]string{"README.md": "# Home\n"}
	for i := 1; i < 20000; i++ {
		files[fmt.Sprintf("extra/%05d.txt", i)] = "x"
	}
	e.Upload(e.Admin, "POST", "/v1/spaces/"+id+"/content/import", "application/zip", zipOf(t, files)).Expect(201)
	files["extra/one-more.txt"] = "x"
	e.Upload(e.Admin, "POST", "/v1/spaces/"+id+"/content/import", "application/zip", zipOf(t, files)).
		Expect(413).ExpectMessage("20000 entries")
}

// Markdown is text: a page holding a NUL is refused on every engine (PostgreSQL's text cannot
// hold one); bytes that are not UTF-8 are replaced by the importer, and the page is imported.
func TestContentImportMarkdownIsText(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	id := newSpace(t, e, e.Admin, e.Org, nil)
	path := "/v1/spaces/" + id + "/content/import"
	files := docsTree()
	files["guides/writing.md"] = "# Writing\n\x00\n"
	e.Upload(e.Admin, "POST", path, "application/zip", zipOf(t, files)).Expect(400).ExpectMessage("markdown", "NUL")

	files["guides/writing.md"] = "# Writing\n\nbad \xff\xfe bytes\n"
	r := e.Upload(e.Admin, "POST", path, "application/zip", zipOf(t, files)).Expect(201)
	writing := r.Str("pages.2.pages.0.id")
	md := e.Get(e.Admin, "/v1/spaces/"+id+"/content/page/"+writing+"?format=markdown").Expect(200).Str("markdown")
	if !strings.Contains(md, "bad \uFFFD") {
		t.Fatalf("markdown: %q", md)
	}
}
