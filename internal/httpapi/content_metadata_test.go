package httpapi_test

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/gitbookimport"
	"docsd/internal/gitfetch/gittest"
)

// metadataTree is a tree whose front matter and vars file set every page field an import
// can set.
func metadataTree() map[string]string {
	return map[string]string{
		"README.md": "---\ndescription: Start\nnoIndex: true\nnoRobotsIndex: true\nvars:\n  product: Docsd\n  major: 2\n  beta: false\n  nested: {a: 1}\n" +
			"layout:\n  width: wide\n  outline: {visible: false}\ncover: .gitbook/assets/cover.png\ncoverY: 4\n---\n# Home\n\nHi.\n",
		"guide.md":                  "---\nhidden: true\n---\n# Guide\n",
		".gitbook/vars.yaml":        "version: 1.2.3\nstable: true\n",
		".gitbook/assets/cover.png": "\x89PNG cover",
	}
}

func TestImportedPageFieldsAndGitMetadata(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	// An archive of a repository holds one directory: paths are given from the archive's top.
	files := map[string]string{}
	for k, v := range metadataTree() {
		files["docs-main/"+k] = v
	}
	files["docs-main/.gitbook/assets/pic.png"] = pngOf(t, 3, 2)
	e.Upload(e.Admin, "POST", base+"/content/import", "application/zip", zipOf(t, files)).Expect(201)

	r := e.Get(e.Admin, base+"/content").Expect(200)
	if r.Str("variables.version") != "1.2.3" || !r.Bool("variables.stable") || r.Has("git") {
		t.Fatalf("revision: %s", r.Body)
	}
	home := "pages.0."
	want := map[string]string{home + "git.path": "docs-main/README.md", home + "git.oid": gitbookimport.GitBlobID([]byte(metadataTree()["README.md"])),
		home + "variables.product": "Docsd", home + "layout.width": "wide", home + "cover.ref.kind": "file",
		"pages.1.git.path": "docs-main/guide.md"}
	for k, v := range want {
		if got := r.Str(k); got != v {
			t.Fatalf("%s = %q, want %q", k, got, v)
		}
	}
	if r.Num(home+"variables.major") != 2 || r.Has(home+"variables.nested") || !r.Has(home+"variables.beta") ||
		!r.Bool(home+"noIndex") || !r.Bool(home+"noRobotsIndex") || r.Bool(home+"hidden") || !r.Bool("pages.1.hidden") ||
		r.Num(home+"cover.yPos") != 4 || r.Bool(home+"layout.outline") {
		t.Fatalf("home page: %s", r.Body)
	}
	byName := map[string]map[string]any{}
	for _, f := range r.Map()["files"].([]any) {
		byName[f.(map[string]any)["name"].(string)] = f.(map[string]any)
	}
	cover, pic := byName["cover.png"], byName["pic.png"]
	if r.Str(home+"cover.ref.file") != cover["id"] || cover["dimensions"] != nil {
		t.Fatalf("cover %v is not the imported file, or has dimensions", cover)
	}
	if g := cover["git"].(map[string]any); g["path"] != "docs-main/.gitbook/assets/cover.png" || g["oid"] != gitbookimport.GitBlobID([]byte("\x89PNG cover")) {
		t.Fatalf("cover's git: %v", g)
	}
	if d := pic["dimensions"].(map[string]any); d["width"] != 3.0 || d["height"] != 2.0 {
		t.Fatalf("image dimensions: %v", d)
	}

	t.Run("metadata=false leaves git out of every read", func(t *testing.T) {
		for _, path := range []string{"/content", "/content/pages", "/content/page/" + r.Str("pages.0.id"),
			"/content/files", "/content/files/" + pic["id"].(string)} {
			with := e.Get(e.Admin, base+path).Expect(200)
			without := e.Get(e.Admin, base+path+"?metadata=false").Expect(200)
			if !containsKey(with.Map(), "git") || containsKey(without.Map(), "git") {
				t.Fatalf("%s: git with metadata %v, without %v", path, containsKey(with.Map(), "git"), containsKey(without.Map(), "git"))
			}
		}
	})
	t.Run("an edit drops the page's git metadata", func(t *testing.T) {
		cr := newChangeRequest(t, e, e.Admin, sp, "edit")
		id := r.Str("pages.1.id")
		editPage(t, e, sp, cr, id, map[string]any{"markdown": "Changed.\n"})
		p := e.Get(e.Admin, crPath(sp, cr)+"/content/page/"+id).Expect(200)
		if p.Has("git") {
			t.Fatalf("edited page keeps git: %s", p.Body)
		}
		if !e.Get(e.Admin, crPath(sp, cr)+"/content/page/"+r.Str("pages.0.id")).Expect(200).Has("git") {
			t.Fatal("an untouched page lost its git metadata")
		}
	})
}

// pngOf encodes a w×h PNG image.
func pngOf(t *testing.T, w, h int) string {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// containsKey reports whether key appears anywhere in a decoded JSON value.
func containsKey(v any, key string) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == key || containsKey(x, key) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if containsKey(x, key) {
				return true
			}
		}
	}
	return false
}

func TestGitImportRecordsTheCommit(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	repo := gittest.Serve(t, map[string]string{"README.md": "# Repo\n", "docs/README.md": "# Inner\n\nInside.\n",
		"docs/more.md": "# More\n", "docs/.gitbook/assets/a.png": "\x89PNG a"})
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "refs/heads/main", "repoProjectDirectory": "docs",
		"repoCommitURL": "https://git.example.com/o/r/commit/"}).Expect(204)
	r := e.Get(e.Admin, base+"/content").Expect(200)
	want := map[string]string{"git.oid": repo.Commit, "git.ref": "refs/heads/main",
		"git.url":          "https://git.example.com/o/r/commit/" + repo.Commit,
		"pages.0.git.path": "docs/README.md", "pages.0.git.oid": gitbookimport.GitBlobID([]byte("# Inner\n\nInside.\n")),
		"pages.1.git.path": "docs/more.md", "files.0.git.path": "docs/.gitbook/assets/a.png"}
	for k, v := range want {
		if got := r.Str(k); got != v {
			t.Fatalf("%s = %q, want %q", k, got, v)
		}
	}
	if r.Str("git.message") == "" || r.Bool("git.createdByGitBook") || !r.Has("git.createdByGitBook") {
		t.Fatalf("commit: %v", r.Map()["git"])
	}
	if e.Get(e.Admin, base+"/content?metadata=false").Expect(200).Has("git") {
		t.Fatal("metadata=false shows the commit")
	}
	for _, tc := range []struct{ url, want string }{
		{"ftp://x/", "repoCommitURL"}, {"https://" + string(make([]byte, 2048)), "repoCommitURL"},
	} {
		gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "main", "repoCommitURL": tc.url}).
			ExpectError(400).ExpectMessage(tc.want)
	}
}
