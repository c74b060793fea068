package httpapi_test

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"docsd/internal/apitest"
	"docsd/internal/gitfetch/gittest"
)

// servePushable serves an empty bare repository that accepts pushes from user ada with
// password s3cret only, and returns its URL without credentials and its directory.
func servePushable(t *testing.T) (string, string) {
	t.Helper()
	gitPath := gittest.GitPath(t)
	root := t.TempDir()
	dir := filepath.Join(root, "dest.git")
	for _, args := range [][]string{{"init", "--bare", "-b", "main", dir}, {"-C", dir, "config", "http.receivepack", "true"}} {
		if out, err := exec.Command(gitPath, args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	backend := gittest.Backend(gitPath, root)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if u, p, ok := r.BasicAuth(); !ok || u != "ada" || p != "s3cret" {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/dest.git", dir
}

// withUser puts credentials into an http URL.
func withUser(u, user, password string) string {
	return strings.Replace(u, "http://", "http://"+user+":"+password+"@", 1)
}

// outline is a space's pages as "depth kind title path" lines in order, and its files.
func outline(t *testing.T, e *apitest.Env, spaceID string) []string {
	t.Helper()
	var out []string
	var walk func(pages []any, depth int)
	walk = func(pages []any, depth int) {
		for _, x := range pages {
			p := x.(map[string]any)
			path, _ := p["path"].(string)
			out = append(out, strings.Repeat("  ", depth)+p["type"].(string)+" "+p["title"].(string)+" "+path)
			kids, _ := p["pages"].([]any)
			walk(kids, depth+1)
		}
	}
	walk(e.Get(e.Admin, "/v1/spaces/"+spaceID+"/content/pages").Expect(200).Map()["pages"].([]any), 0)
	for _, f := range e.Get(e.Admin, "/v1/spaces/"+spaceID+"/content/files").Expect(200).Items() {
		out = append(out, "file "+f["name"].(string)+" "+f["contentType"].(string))
	}
	return out
}

// runJobs returns once every due job has run, by the background worker or here.
func runJobs(t *testing.T, e *apitest.Env) {
	t.Helper()
	if _, err := e.App.Jobs.RunDue(t.Context()); err != nil {
		t.Fatal(err)
	}
}

func TestGitExportRoundTrip(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	tree := docsTree()
	tree["guides/writing.md"] += "\nBack to [the start](../README.md#welcome).\n"
	tree["guides/more.md"] = "---\ndescription: More to read.\nicon: 📘\nhidden: true\n---\n\n# More\n\nSee also.\n"
	tree[".gitbook/includes/note.md"] = "---\ntitle: A shared note\n---\n\nShared words.\n"
	tree["start/install.md"] += "\n{% include \"../.gitbook/includes/note.md\" %}\n"
	tree["SUMMARY.md"] += "* [More](guides/more.md)\n* [Elsewhere](https://example.com/docs)\n"
	src := gittest.Serve(t, tree)
	dest, dir := servePushable(t)
	first := newSpace(t, e, e.Admin, e.Org, nil)
	info := "/v1/spaces/" + first + "/git/info"

	e.Get(e.Admin, info).ExpectError(404).ExpectMessage("Git")
	gitImport(e, e.Admin, first, map[string]any{"url": src.URL, "ref": "refs/heads/main",
		"gitInfo": map[string]any{"provider": "github", "url": "https://github.com/acme/docs/tree/main"}}).Expect(204)
	if r := e.Get(e.Admin, info).Expect(200); r.Str("repoName") != "repo" || r.Str("installationProvider") != "github" ||
		r.Str("url") != "https://github.com/acme/docs/tree/main" || r.Str("updatedAt") == "" || r.Has("export") {
		t.Fatalf("after the import: %s", r.Body)
	}
	want := outline(t, e, first)
	if joined := strings.Join(want, "\n"); !strings.Contains(joined, "link Elsewhere") || !strings.Contains(joined, "group Guides") ||
		!strings.Contains(joined, "file logo.png") {
		t.Fatalf("the imported space lacks what the round trip must keep:\n%s", joined)
	}

	e.Post(e.Admin, "/v1/spaces/"+first+"/git/export", map[string]any{"url": withUser(dest, "ada", "s3cret"),
		"ref": "refs/heads/main", "commitMessage": "Export from docsd"}).Expect(204)
	runJobs(t, e)
	r := e.Get(e.Admin, info).Expect(200)
	schemaChecker(t, loadOpenAPI(t))("GitSyncState", r.Map())
	if r.Str("export.status") != "completed" || len(r.Str("export.commit")) != 40 || r.Str("export.url") != dest ||
		r.Str("repoName") != "dest" || strings.Contains(string(r.Body), "s3cret") {
		t.Fatalf("after the export: %s", r.Body)
	}
	t.Run("the pushed repository is sound and in GitBook's layout", func(t *testing.T) {
		gitPath := gittest.GitPath(t)
		if out, err := exec.Command(gitPath, "-C", dir, "fsck", "--strict").CombinedOutput(); err != nil {
			t.Fatalf("git fsck --strict: %v\n%s", err, out)
		}
		out, err := exec.Command(gitPath, "-C", dir, "ls-tree", "-r", "--name-only", "refs/heads/main").CombinedOutput()
		if err != nil {
			t.Fatalf("%v %s", err, out)
		}
		for _, name := range []string{".gitbook.yaml", "README.md", "SUMMARY.md", "start/README.md", "start/install.md",
			"guides/writing.md", ".gitbook/assets/logo.png"} {
			if !strings.Contains("\n"+string(out), "\n"+name+"\n") {
				t.Errorf("no %s in the tree:\n%s", name, out)
			}
		}
		note, _ := exec.Command(gitPath, "-C", dir, "show", "refs/heads/main:.gitbook/includes/note.md").CombinedOutput()
		if !strings.Contains(string(note), "title: A shared note") || !strings.Contains(string(note), "Shared words.") {
			t.Errorf(".gitbook/includes/note.md:\n%s", note)
		}
		writing, _ := exec.Command(gitPath, "-C", dir, "show", "refs/heads/main:guides/writing.md").CombinedOutput()
		if !strings.Contains(string(writing), "](../README.md#welcome)") || !strings.HasPrefix(string(writing), "# Writing\n") {
			t.Errorf("guides/writing.md:\n%s", writing)
		}
		msg, _ := exec.Command(gitPath, "-C", dir, "log", "-1", "--format=%s", "refs/heads/main").CombinedOutput()
		if strings.TrimSpace(string(msg)) != "Export from docsd" {
			t.Errorf("commit message %q", msg)
		}
	})
	t.Run("importing the export gives the same pages, titles, order and files", func(t *testing.T) {
		second := newSpace(t, e, e.Admin, e.Org, nil)
		gitImport(e, e.Admin, second, map[string]any{"url": withUser(dest, "ada", "s3cret"), "ref": "refs/heads/main"}).Expect(204)
		got := outline(t, e, second)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		md := e.Get(e.Admin, "/v1/spaces/"+second+"/content/path/start/install?format=markdown").Expect(200).Str("markdown")
		if !strings.Contains(md, "Run the binary.") || !strings.Contains(md, ".gitbook/assets/logo.png") {
			t.Errorf("install page %q", md)
		}
		reusables := func(spaceID string) string {
			var out []string
			for _, x := range e.Get(e.Admin, "/v1/spaces/"+spaceID+"/content").Expect(200).Map()["reusableContents"].([]any) {
				out = append(out, x.(map[string]any)["title"].(string))
			}
			return strings.Join(out, ",")
		}
		if a, b := reusables(first), reusables(second); a != b || a != "A shared note" {
			t.Errorf("reusable contents before %q, after %q", a, b)
		}
		more := e.Get(e.Admin, "/v1/spaces/"+second+"/content/path/guides/more").Expect(200)
		if more.Str("description") != "More to read." || more.Str("emoji") == "" || !more.Bool("hidden") {
			t.Errorf("front matter lost: %s", more.Body)
		}
		// A link to the first page, written to README.md by the export, reads back the same.
		before := e.Get(e.Admin, "/v1/spaces/"+first+"/content/path/guides/writing?format=markdown").Expect(200).Str("markdown")
		after := e.Get(e.Admin, "/v1/spaces/"+second+"/content/path/guides/writing?format=markdown").Expect(200).Str("markdown")
		if before != after || !strings.Contains(after, "#welcome)") {
			t.Errorf("writing page before %q, after %q", before, after)
		}
	})
	t.Run("a second export commits on top of the first", func(t *testing.T) {
		e.Post(e.Admin, "/v1/spaces/"+first+"/git/export", map[string]any{"url": withUser(dest, "ada", "s3cret"),
			"ref": "refs/heads/main", "commitMessage": "Again"}).Expect(204)
		runJobs(t, e)
		out, err := exec.Command(gittest.GitPath(t), "-C", dir, "rev-list", "--count", "refs/heads/main").CombinedOutput()
		if err != nil || strings.TrimSpace(string(out)) != "2" {
			t.Fatalf("commits on main: %s %v", out, err)
		}
	})
	t.Run("into a project directory, the rest of the repository is kept", func(t *testing.T) {
		e.Post(e.Admin, "/v1/spaces/"+first+"/git/export", map[string]any{"url": withUser(dest, "ada", "s3cret"),
			"ref": "refs/heads/main", "commitMessage": "Into docs", "repoProjectDirectory": "docs/"}).Expect(204)
		runJobs(t, e)
		if r := e.Get(e.Admin, info).Expect(200); r.Str("export.status") != "completed" {
			t.Fatalf("%s", r.Body)
		}
		out, err := exec.Command(gittest.GitPath(t), "-C", dir, "ls-tree", "-r", "--name-only", "refs/heads/main").CombinedOutput()
		if err != nil {
			t.Fatalf("%v %s", err, out)
		}
		for _, name := range []string{"README.md", "SUMMARY.md", "docs/README.md", "docs/SUMMARY.md", "docs/.gitbook/assets/logo.png"} {
			if !strings.Contains("\n"+string(out), "\n"+name+"\n") {
				t.Errorf("no %s in the tree:\n%s", name, out)
			}
		}
		if out, err := exec.Command(gittest.GitPath(t), "-C", dir, "fsck", "--strict").CombinedOutput(); err != nil {
			t.Fatalf("git fsck --strict: %v\n%s", err, out)
		}
	})
	t.Run("wrong credentials: a failed export whose record shows no password", func(t *testing.T) {
		e.Post(e.Admin, "/v1/spaces/"+first+"/git/export", map[string]any{"url": withUser(dest, "ada", "hunter2wrong"),
			"ref": "refs/heads/main", "commitMessage": "Nope"}).Expect(204)
		runJobs(t, e)
		r := e.Get(e.Admin, info).Expect(200)
		if r.Str("export.status") != "failed" || r.Str("export.error") == "" || strings.Contains(string(r.Body), "hunter2wrong") {
			t.Fatalf("%s", r.Body)
		}
		var n int
		if err := e.App.DB.Read().QueryRow(t.Context(), `SELECT COUNT(*) FROM git_exports
			WHERE sealed_url IS NOT NULL OR url LIKE ? OR error LIKE ?`, "%hunter2%", "%hunter2%").Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d export records keep credentials (%v)", n, err)
		}
		if err := e.App.DB.Read().QueryRow(t.Context(), `SELECT COUNT(*) FROM jobs WHERE payload LIKE ? OR payload LIKE ?`,
			"%hunter2%", "%s3cret%").Scan(&n); err != nil || n != 0 {
			t.Fatalf("%d jobs hold credentials (%v)", n, err)
		}
	})
	t.Run("bad input is 400 naming the field; access", func(t *testing.T) {
		post := func(a apitest.Actor, body map[string]any) *apitest.Resp {
			return e.Post(a, "/v1/spaces/"+first+"/git/export", body)
		}
		ok := map[string]any{"url": dest, "ref": "refs/heads/main", "commitMessage": "m"}
		with := func(k string, v any) map[string]any {
			b := map[string]any{}
			for kk, vv := range ok {
				b[kk] = vv
			}
			b[k] = v
			return b
		}
		post(e.Admin, with("url", "")).ExpectError(400).ExpectMessage("url")
		post(e.Admin, with("url", "ftp://x/y")).ExpectError(400).ExpectMessage("url")
		post(e.Admin, with("ref", "main")).ExpectError(400).ExpectMessage("ref", "refs/heads/")
		post(e.Admin, with("commitMessage", " ")).ExpectError(400).ExpectMessage("commitMessage")
		post(e.Admin, with("repoProjectDirectory", "../up")).ExpectError(400).ExpectMessage("repoProjectDirectory")
		post(e.Admin, with("gitInfo", map[string]any{"provider": "svn"})).ExpectError(400).ExpectMessage("gitInfo.provider")
		post(e.NewUser("outsider"), ok).ExpectError(404)
		e.Get(e.NewUser("outsider2"), info).ExpectError(404)
	})
}

// A standalone export pushes a snapshot and leaves the space's link to its repository alone.
func TestGitExportStandalone(t *testing.T) {
	t.Parallel()
	e := apitest.New(t)
	src := gittest.Serve(t, docsTree())
	dest, dir := servePushable(t)
	sp := newSpace(t, e, e.Admin, e.Org, nil)
	info := "/v1/spaces/" + sp + "/git/info"
	gitImport(e, e.Admin, sp, map[string]any{"url": src.URL, "ref": "refs/heads/main"}).Expect(204)
	before := e.Get(e.Admin, info).Expect(200)

	e.Post(e.Admin, "/v1/spaces/"+sp+"/git/export", map[string]any{"url": withUser(dest, "ada", "s3cret"), "ref": "refs/heads/snapshot",
		"commitMessage": "Snapshot", "standalone": true}).Expect(204)
	runJobs(t, e)
	out, err := exec.Command(gittest.GitPath(t), "-C", dir, "log", "-1", "--format=%s", "refs/heads/snapshot").CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "Snapshot" {
		t.Fatalf("the snapshot was not pushed: %v %s", err, out)
	}
	after := e.Get(e.Admin, info).Expect(200)
	if after.Str("repoName") != before.Str("repoName") || after.Str("updatedAt") != before.Str("updatedAt") {
		t.Fatalf("a standalone export changed the sync state:\nbefore %s\nafter  %s", before.Body, after.Body)
	}
	e.Post(e.Admin, "/v1/spaces/"+sp+"/git/export", map[string]any{"url": withUser(dest, "ada", "s3cret"), "ref": "refs/heads/snapshot",
		"commitMessage": "Snapshot", "standalone": "yes"}).Expect(400).ExpectMessage("standalone")
}
