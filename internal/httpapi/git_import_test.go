package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/auth"
	"docsd/internal/config"
	"docsd/internal/gitfetch/gittest"
)

func gitImport(e *apitest.Env, a apitest.Actor, spaceID string, body map[string]any) *apitest.Resp {
	return e.Post(a, "/v1/spaces/"+spaceID+"/git/import", body)
}

func TestGitImport(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	repo := gittest.Serve(t, docsTree())
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	base := "/v1/spaces/" + sp
	before := headOf(e, sp)

	t.Run("a small tree is committed within the request: 204 with the revision's location", func(t *testing.T) {
		r := gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "refs/heads/main",
			"repoCacheID": "c", "force": true, "timestamp": "2026-11-01T12:00:00Z",
			"gitInfo": map[string]any{"provider": "github", "url": "https://github.com/o/r"}}).Expect(204)
		head := headOf(e, sp)
		if head == before || r.Header.Get("X-Docsd-Import") != "committed" ||
			!strings.HasSuffix(r.Header.Get("Location"), "/revisions/"+head) {
			t.Fatalf("head %s (was %s), headers %v", head, before, r.Header)
		}
		pages := e.Get(e.Admin, base+"/content/pages").Expect(200)
		if pages.Str("pages.1.pages.0.path") != "start/install" || pages.Str("pages.2.title") != "Guides" {
			t.Fatalf("pages %s", pages.Body)
		}
		if files := e.Get(e.Admin, base+"/content/files").Expect(200); files.Str("items.0.name") != "logo.png" {
			t.Fatalf("files %s", files.Body)
		}
	})
	t.Run("a short ref and a project directory", func(t *testing.T) {
		sub := gittest.Serve(t, map[string]string{"README.md": "# Repo\n", "docs/README.md": "# Inner\n\nInside.\n",
			"docs/more.md": "# More\n"})
		other := newSpace(t, e, e.Admin, e.Org, nil)
		gitImport(e, e.Admin, other, map[string]any{"url": sub.URL, "ref": "main", "repoProjectDirectory": "docs/"}).Expect(204)
		pages := e.Get(e.Admin, "/v1/spaces/"+other+"/content/pages").Expect(200)
		if pages.Str("pages.0.title") != "Inner" || pages.Str("pages.1.title") != "More" {
			t.Fatalf("pages %s", pages.Body)
		}
		gitImport(e, e.Admin, other, map[string]any{"url": sub.URL, "ref": "main", "repoProjectDirectory": "nope"}).
			ExpectError(400).ExpectMessage("repoProjectDirectory", "nope")
	})
	t.Run("bad input is 400 naming the field, and nothing moves", func(t *testing.T) {
		head := headOf(e, sp)
		for _, tc := range []struct {
			body map[string]any
			want []string
		}{
			{map[string]any{"ref": "main"}, []string{"url", "required"}},
			{map[string]any{"url": repo.URL}, []string{"ref", "required"}},
			{map[string]any{"url": "ftp://example.com/r.git", "ref": "main"}, []string{"url", "http"}},
			{map[string]any{"url": "https://" + strings.Repeat("a", 2048), "ref": "main"}, []string{"url", "2048"}},
			{map[string]any{"url": repo.URL, "ref": strings.Repeat("r", 256)}, []string{"ref", "255"}},
			{map[string]any{"url": repo.URL, "ref": "refs/heads/nope"}, []string{"ref", "nope"}},
			{map[string]any{"url": strings.TrimSuffix(repo.URL, "/repo/.git") + "/missing/.git", "ref": "main"}, []string{"url", "no repository"}},
			{map[string]any{"url": repo.URL, "ref": "main", "repoProjectDirectory": "../etc"}, []string{"repoProjectDirectory", ".."}},
			{map[string]any{"url": repo.URL, "ref": "main", "repoProjectDirectory": strings.Repeat("d", 513)}, []string{"repoProjectDirectory", "512"}},
			{map[string]any{"url": repo.URL, "ref": "main", "standalone": true}, []string{"standalone"}},
			{map[string]any{"url": repo.URL, "ref": "main", "gitInfo": map[string]any{"provider": "svn"}}, []string{"gitInfo.provider"}},
			{map[string]any{"url": repo.URL, "ref": "main", "branch": "x"}, []string{"branch"}},
		} {
			gitImport(e, e.Admin, sp, tc.body).ExpectError(400).ExpectMessage(tc.want...)
		}
		if headOf(e, sp) != head {
			t.Error("a refused import moved the head")
		}
	})
	t.Run("a repository without markdown is 400", func(t *testing.T) {
		empty := gittest.Serve(t, map[string]string{"main.go": "package main\n"})
		gitImport(e, e.Admin, sp, map[string]any{"url": empty.URL, "ref": "main"}).ExpectError(400).ExpectMessage("markdown")
	})
	t.Run("permissions", func(t *testing.T) {
		reader := e.Member("git-reader", auth.Read)
		grant(t, e, e.Admin, base, "read", []string{reader.ID}, nil)
		gitImport(e, reader, sp, map[string]any{"url": repo.URL, "ref": "main"}).ExpectError(403)
		gitImport(e, e.NewUser("git-outsider"), sp, map[string]any{"url": repo.URL, "ref": "main"}).ExpectError(404)
		locked := newSpace(t, e, e.Admin, e.Org, nil)
		e.Patch(e.Admin, "/v1/spaces/"+locked, map[string]any{"editMode": "locked"}).Expect(200)
		gitImport(e, e.Admin, locked, map[string]any{"url": repo.URL, "ref": "main"}).ExpectError(409)
	})
}

func TestGitImportRefusesPrivateAddresses(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.FetchAllowPrivate = false })
	repo := gittest.Serve(t, docsTree())
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)
	gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "main"}).ExpectError(400).ExpectMessage("url", "loopback")
	if headOf(e, sp) != head {
		t.Error("the head moved")
	}
}

func TestGitImportLargeTreeRunsAsJob(t *testing.T) {
	t.Parallel()
	e := apitest.NewWithConfig(t, func(c *config.Config) { c.GitImportSyncPages = 3 })
	files := map[string]string{"docs/README.md": "# Home\n"}
	for i := range 5 {
		files[fmt.Sprintf("docs/page-%d.md", i)] = fmt.Sprintf("# Page %d\n\nText %d.\n", i, i)
	}
	repo := gittest.Serve(t, files)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	head := headOf(e, sp)

	r := gitImport(e, e.Admin, sp, map[string]any{"url": repo.URL, "ref": "refs/heads/main", "repoProjectDirectory": "docs"}).Expect(204)
	runPath := strings.TrimPrefix(r.Header.Get("Location"), e.URL)
	if r.Header.Get("X-Docsd-Import") != "queued" || !strings.HasPrefix(runPath, "/v1/org/"+e.Org+"/imports/") {
		t.Fatalf("headers %v", r.Header)
	}
	// The server's worker may run the job at once; RunDue waits for it, or runs it.
	if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
		t.Fatal(err)
	}
	if run := waitRun(t, e, strings.TrimPrefix(runPath, "/v1/org/"+e.Org+"/imports/")); run.Str("status") != "completed" {
		t.Fatalf("the import's run: %s", run.Body)
	}
	if headOf(e, sp) == head {
		t.Fatal("the job did not move the head")
	}
	pages := e.Get(e.Admin, "/v1/spaces/"+sp+"/content/pages").Expect(200)
	if n := len(pages.Map()["pages"].([]any)); n != 6 || pages.Str("pages.5.title") != "Page 4" {
		t.Fatalf("%d pages: %s", n, pages.Body)
	}
	// The job records the commit and the paths from the repository's top, as a request would.
	rev := e.Get(e.Admin, "/v1/spaces/"+sp+"/content").Expect(200)
	if rev.Str("git.oid") != repo.Commit || rev.Str("git.ref") != "refs/heads/main" || rev.Str("pages.5.git.path") != "docs/page-4.md" {
		t.Fatalf("git metadata of a queued import: %v, last page %v", rev.Map()["git"], rev.Str("pages.5.git.path"))
	}
}
