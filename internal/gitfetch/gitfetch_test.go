package gitfetch_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"docsd/internal/fetch"
	"docsd/internal/gitfetch"
	"docsd/internal/gitfetch/gittest"
)

// testRepo is a repository with three commits on main (c1 ← c2 ← c3), a lightweight tag v1
// and an annotated tag v1.0 on c1, served by git http-backend on 127.0.0.1.
type testRepo struct {
	url        string
	c1, c2, c3 string
	asset      []byte

	mu     sync.Mutex
	hits   int
	wanted []string // bodies of the upload-pack requests, to see what was asked for
}

func (r *testRepo) uploadRequests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.wanted...)
}

func (r *testRepo) requests() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.hits
}

func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	gitPath := gittest.GitPath(t)
	root := t.TempDir()
	dir := filepath.Join(root, "docs")
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	r := &testRepo{asset: make([]byte, 64<<10)}
	rand.Read(r.asset) // incompressible, so the pack is at least this large
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			t.Fatal(err)
		}
	}
	when := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	commit := func(msg string) string {
		t.Helper()
		when = when.Add(time.Hour)
		sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: when}
		h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			t.Fatal(err)
		}
		return h.String()
	}

	write("README.md", "# Docs\n\nversion 1\n")
	write("SUMMARY.md", "# Summary\n\n* [Docs](README.md)\n* [Intro](guide/intro.md)\n")
	write("guide/intro.md", "# Intro\n")
	write(".gitbook/assets/logo.png", string(r.asset))
	r.c1 = commit("First version\n\nWith a body.\n")
	if _, err := repo.CreateTag("v1", plumbing.NewHash(r.c1), nil); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: when}
	if _, err := repo.CreateTag("v1.0", plumbing.NewHash(r.c1), &git.CreateTagOptions{Tagger: sig, Message: "Release 1.0"}); err != nil {
		t.Fatal(err)
	}
	write("README.md", "# Docs\n\nversion 2\n")
	r.c2 = commit("Second version\n")
	write("guide/new.md", "# New\n")
	r.c3 = commit("Third version\n")
	if head, _ := repo.Head(); head.Name() != plumbing.NewBranchReferenceName("master") {
		t.Fatalf("HEAD is %s", head.Name())
	}
	// Name the branch main, as most repositories now do.
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/main", plumbing.NewHash(r.c3))); err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/main")); err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.RemoveReference("refs/heads/master"); err != nil {
		t.Fatal(err)
	}

	r.serve(t, gitPath, root)
	return r
}

// serve runs git http-backend over root, recording what is asked of it; the repository is at
// r.url.
func (r *testRepo) serve(t *testing.T, gitPath, root string) {
	t.Helper()
	backend := gittest.Backend(gitPath, root)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.hits++
		r.mu.Unlock()
		if strings.HasSuffix(req.URL.Path, "/git-upload-pack") {
			body, _ := io.ReadAll(req.Body)
			r.mu.Lock()
			r.wanted = append(r.wanted, string(body))
			r.mu.Unlock()
			req.Body = io.NopCloser(bytes.NewReader(body))
		}
		backend.ServeHTTP(w, req)
	}))
	t.Cleanup(srv.Close)
	r.url = srv.URL + "/docs/.git"
}

var allowPrivate = gitfetch.Options{Fetch: fetch.Options{AllowPrivate: true}}

func mustFetch(t *testing.T, repoURL, ref string, o gitfetch.Options) *gitfetch.Result {
	t.Helper()
	res, err := gitfetch.Fetch(context.Background(), repoURL, ref, o)
	if err != nil {
		t.Fatalf("Fetch(%q): %v", ref, err)
	}
	return res
}

func readFile(t *testing.T, fsys fs.FS, name string) string {
	t.Helper()
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(b)
}

func expectKind(t *testing.T, err error, kind error, callerFault bool, fragments ...string) {
	t.Helper()
	var fe *fetch.Error
	if !errors.As(err, &fe) || !errors.Is(err, kind) {
		t.Fatalf("err = %v (%T), want a *fetch.Error of kind %v", err, err, kind)
	}
	t.Logf("%v", err)
	if fe.CallerFault() != callerFault {
		t.Errorf("CallerFault() = %v, want %v", fe.CallerFault(), callerFault)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("err = %q, want it to mention %q", err, f)
		}
	}
}

func shallow(body string) bool { return strings.Contains(body, "deepen 1") }

func TestFetchByBranch(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for _, ref := range []string{"main", "refs/heads/main", ""} {
		res := mustFetch(t, r.url, ref, allowPrivate)
		wantRef := "refs/heads/main"
		if ref == "" {
			wantRef = "HEAD"
		}
		if res.Commit != r.c3 || res.Message != "Third version\n" || res.Ref != wantRef {
			t.Fatalf("%q: commit %s %q ref %q, want %s %q %q", ref, res.Commit, res.Message, res.Ref, r.c3, "Third version\n", wantRef)
		}
		if !res.Time.Equal(time.Date(2026, 11, 1, 15, 0, 0, 0, time.UTC)) {
			t.Errorf("Time = %s", res.Time)
		}
		if got := readFile(t, res.Files, "README.md"); got != "# Docs\n\nversion 2\n" {
			t.Errorf("README.md = %q", got)
		}
		if got := readFile(t, res.Files, "guide/new.md"); got != "# New\n" {
			t.Errorf("guide/new.md = %q", got)
		}
		if got := readFile(t, res.Files, ".gitbook/assets/logo.png"); got != string(r.asset) {
			t.Errorf("the asset differs (%d bytes, want %d)", len(got), len(r.asset))
		}
		if err := fstest.TestFS(res.Files, "README.md", "SUMMARY.md", "guide/intro.md", "guide/new.md", ".gitbook/assets/logo.png"); err != nil {
			t.Fatal(err)
		}
		if len(res.Blobs) != 5 || res.Blobs["SUMMARY.md"] != blobID(readFile(t, res.Files, "SUMMARY.md")) {
			t.Errorf("Blobs = %v", res.Blobs)
		}
	}
	for i, body := range r.uploadRequests() {
		if !shallow(body) {
			t.Errorf("upload-pack request %d was not shallow: %q", i, body)
		}
	}
}

func blobID(content string) string {
	return plumbing.ComputeHash(plumbing.BlobObject, []byte(content)).String()
}

func TestFetchByTag(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for _, tc := range []struct{ ref, wantRef string }{
		{"v1", "refs/tags/v1"},
		{"refs/tags/v1", "refs/tags/v1"},
		{"v1.0", "refs/tags/v1.0"}, // annotated: the tag object is fetched, then peeled
	} {
		res := mustFetch(t, r.url, tc.ref, allowPrivate)
		if res.Commit != r.c1 || res.Ref != tc.wantRef || !strings.HasPrefix(res.Message, "First version\n") {
			t.Fatalf("%q: commit %s ref %q message %q", tc.ref, res.Commit, res.Ref, res.Message)
		}
		if got := readFile(t, res.Files, "README.md"); got != "# Docs\n\nversion 1\n" {
			t.Errorf("%q: README.md = %q", tc.ref, got)
		}
		if _, err := fs.Stat(res.Files, "guide/new.md"); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%q: guide/new.md exists at v1 (err %v)", tc.ref, err)
		}
	}
	for i, body := range r.uploadRequests() {
		if !shallow(body) {
			t.Errorf("upload-pack request %d was not shallow: %q", i, body)
		}
	}
}

func TestFetchByCommit(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)

	t.Run("a commit inside the history, by full id and by prefix", func(t *testing.T) {
		for _, ref := range []string{r.c2, strings.ToUpper(r.c2), r.c2[:7]} {
			before := len(r.uploadRequests())
			res := mustFetch(t, r.url, ref, allowPrivate)
			// Servers send only what refs reach, so the whole history comes, not one commit.
			if reqs := r.uploadRequests(); shallow(reqs[before]) {
				t.Errorf("%q: the request for an inner commit was shallow: %q", ref, reqs[before])
			}
			if res.Commit != r.c2 || res.Message != "Second version\n" || res.Ref != "" {
				t.Fatalf("%q: commit %s message %q ref %q", ref, res.Commit, res.Message, res.Ref)
			}
			if got := readFile(t, res.Files, "README.md"); got != "# Docs\n\nversion 2\n" {
				t.Errorf("README.md = %q", got)
			}
			if _, err := fs.Stat(res.Files, "guide/new.md"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("guide/new.md exists at c2 (err %v)", err)
			}
		}
	})
	t.Run("the tip of a branch, by full id, shallow", func(t *testing.T) {
		before := len(r.uploadRequests())
		res := mustFetch(t, r.url, r.c3, allowPrivate)
		if res.Commit != r.c3 {
			t.Fatalf("commit %s, want %s", res.Commit, r.c3)
		}
		if reqs := r.uploadRequests(); !shallow(reqs[before]) {
			t.Errorf("the request for a tip was not shallow: %q", reqs[before])
		}
	})
}

func TestFetchUnknown(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for _, ref := range []string{"nope", "refs/heads/nope", "v2", "deadbeefdeadbeef", strings.Repeat("0", 40), "ghijklm"} {
		_, err := gitfetch.Fetch(context.Background(), r.url, ref, allowPrivate)
		expectKind(t, err, gitfetch.ErrRefNotFound, true, `"`+ref+`"`, "127.0.0.1")
	}
	_, err := gitfetch.Fetch(context.Background(), strings.TrimSuffix(r.url, "/docs/.git")+"/missing.git", "main", allowPrivate)
	expectKind(t, err, gitfetch.ErrRepositoryNotFound, true, "no repository")
}

func TestFetchRefusedWithoutPrivateTargets(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	for _, repoURL := range []string{r.url, strings.Replace(r.url, "127.0.0.1", "localhost", 1)} {
		_, err := gitfetch.Fetch(context.Background(), repoURL, "main", gitfetch.Options{})
		expectKind(t, err, fetch.ErrForbiddenAddress, true, "loopback", "DOCSD_FETCH_ALLOW_PRIVATE")
	}
	if n := r.requests(); n != 0 {
		t.Fatalf("the server saw %d requests, want none", n)
	}
}

func TestFetchURLsRefused(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"file:///tmp/repo", "ssh://git@example.com/repo.git", "git@example.com:repo.git", "http:///repo.git"} {
		_, err := gitfetch.Fetch(context.Background(), u, "main", allowPrivate)
		expectKind(t, err, fetch.ErrUnsupportedScheme, true, "http or https")
	}
}

func TestFetchLimits(t *testing.T) {
	t.Parallel()
	r := newTestRepo(t)
	res := mustFetch(t, r.url, "main", allowPrivate)
	var total int64
	files := 0
	fs.WalkDir(res.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			info, _ := d.Info()
			total += info.Size()
			files++
		}
		return nil
	})

	t.Run("file count", func(t *testing.T) {
		o := allowPrivate
		o.MaxFiles = files
		mustFetch(t, r.url, "main", o)
		o.MaxFiles = files - 1
		_, err := gitfetch.Fetch(context.Background(), r.url, "main", o)
		expectKind(t, err, fetch.ErrTooLarge, true, "more than 4 files")
	})
	t.Run("total size", func(t *testing.T) {
		o := allowPrivate
		o.MaxBytes = total
		mustFetch(t, r.url, "main", o)
		o.MaxBytes = total - 1
		_, err := gitfetch.Fetch(context.Background(), r.url, "main", o)
		expectKind(t, err, fetch.ErrTooLarge, true, "more than", "bytes")
	})
	t.Run("pack size", func(t *testing.T) {
		o := allowPrivate
		o.Fetch.MaxBytes = 16 << 10 // the references fit, the 64 KiB asset does not
		_, err := gitfetch.Fetch(context.Background(), r.url, "main", o)
		expectKind(t, err, fetch.ErrTooLarge, false, "16 KiB")
	})
}

func TestFetchTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	o := gitfetch.Options{Fetch: fetch.Options{AllowPrivate: true, Timeout: 200 * time.Millisecond}}
	start := time.Now()
	_, err := gitfetch.Fetch(context.Background(), srv.URL+"/repo.git", "main", o)
	expectKind(t, err, fetch.ErrTimeout, false, "200ms")
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("gave up after %s", d)
	}
}

func TestFetchServerFailures(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasPrefix(r.URL.Path, "/broken"):
			http.Error(w, "boom", http.StatusInternalServerError)
		default: // a web page where a repository was expected
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, "<html>not git</html>")
		}
	}))
	t.Cleanup(srv.Close)
	_, err := gitfetch.Fetch(context.Background(), srv.URL+"/broken.git", "main", allowPrivate)
	expectKind(t, err, fetch.ErrStatus, false, "500 Internal Server Error")
	_, err = gitfetch.Fetch(context.Background(), srv.URL+"/page", "main", allowPrivate)
	expectKind(t, err, gitfetch.ErrProtocol, false, "not a Git repository")
}

// newZerosRepo has two commits of a 4 MiB file of zeros that differ in one byte: a pack of a
// few kilobytes that unpacks to 4 MiB per version (the second usually sent as a delta).
func newZerosRepo(t *testing.T) (r *testRepo, first string) {
	t.Helper()
	gitPath := gittest.GitPath(t)
	root := t.TempDir()
	dir := filepath.Join(root, "docs")
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, _ := repo.Worktree()
	zeros := make([]byte, 4<<20)
	sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	var ids []string
	for i := range 2 {
		zeros[len(zeros)/2] = byte(i)
		if err := os.WriteFile(filepath.Join(dir, "zeros.bin"), zeros, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := wt.Add("zeros.bin"); err != nil {
			t.Fatal(err)
		}
		h, err := wt.Commit(fmt.Sprintf("version %d", i+1), &git.CommitOptions{Author: sig, Committer: sig})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, h.String())
	}
	r = &testRepo{}
	r.serve(t, gitPath, root)
	return r, ids[0]
}

func TestFetchUnpackedSizeLimit(t *testing.T) {
	t.Parallel()
	r, first := newZerosRepo(t)
	o := allowPrivate
	o.Fetch.MaxBytes = 1 << 20 // far above the compressed pack: only the unpacked size can trip

	o.MaxUnpackedBytes = 5 << 20
	res := mustFetch(t, r.url, "master", o)
	if info, err := fs.Stat(res.Files, "zeros.bin"); err != nil || info.Size() != 4<<20 {
		t.Fatalf("zeros.bin: %v, %v", info, err)
	}

	o.MaxUnpackedBytes = 2 << 20
	_, err := gitfetch.Fetch(context.Background(), r.url, "master", o)
	expectKind(t, err, fetch.ErrTooLarge, true, "unpack to more than 2 MiB")

	// The first commit is not a tip: both versions come, 8 MiB unpacked, whether or not the
	// second is sent as a delta.
	o.MaxUnpackedBytes = 5 << 20
	_, err = gitfetch.Fetch(context.Background(), r.url, first, o)
	expectKind(t, err, fetch.ErrTooLarge, true, "unpack to more than 5 MiB")
	o.MaxUnpackedBytes = 9 << 20
	if res := mustFetch(t, r.url, first, o); res.Commit != first {
		t.Fatalf("commit %s, want %s", res.Commit, first)
	}
}

// A server can send a tree Git itself would refuse to check out; its paths must not reach the
// file system the importer walks.
func TestFetchRefusesInvalidPaths(t *testing.T) {
	t.Parallel()
	gitPath := gittest.GitPath(t)
	root := t.TempDir()
	repo, err := git.PlainInit(filepath.Join(root, "docs"), false)
	if err != nil {
		t.Fatal(err)
	}
	store := func(o interface {
		Encode(plumbing.EncodedObject) error
	}) plumbing.Hash {
		t.Helper()
		obj := repo.Storer.NewEncodedObject()
		if err := o.Encode(obj); err != nil {
			t.Fatal(err)
		}
		h, err := repo.Storer.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	blob := repo.Storer.NewEncodedObject()
	blob.SetType(plumbing.BlobObject)
	w, _ := blob.Writer()
	io.WriteString(w, "root:x:0:0\n")
	w.Close()
	blobHash, err := repo.Storer.SetEncodedObject(blob)
	if err != nil {
		t.Fatal(err)
	}
	inner := store(&object.Tree{Entries: []object.TreeEntry{{Name: "passwd", Mode: 0o100644, Hash: blobHash}}})
	top := store(&object.Tree{Entries: []object.TreeEntry{{Name: "..", Mode: 0o040000, Hash: inner}}})
	sig := object.Signature{Name: "Eve", Email: "eve@example.com", When: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	commit := store(&object.Commit{Author: sig, Committer: sig, Message: "escape\n", TreeHash: top})
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/main", commit)); err != nil {
		t.Fatal(err)
	}
	r := &testRepo{}
	r.serve(t, gitPath, root)
	_, err = gitfetch.Fetch(context.Background(), r.url, "main", allowPrivate)
	expectKind(t, err, gitfetch.ErrProtocol, false, `invalid path ".."`)
}

// A server that accepts and never answers holds a fetch for the wait timeout, not the whole
// fetch timeout; and while it holds the gate's only slot, another fetch is refused as busy.
func TestFetchSilentServerAndGate(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(release); srv.Close() })
	o := gitfetch.Options{Fetch: fetch.Options{AllowPrivate: true, Timeout: time.Minute, WaitTimeout: 500 * time.Millisecond},
		Gate: fetch.NewGate(1, 100*time.Millisecond)}
	start := time.Now()
	first := make(chan error, 1)
	go func() {
		_, err := gitfetch.Fetch(context.Background(), srv.URL+"/repo.git", "main", o)
		first <- err
	}()
	time.Sleep(150 * time.Millisecond) // the first fetch holds the slot by now
	_, err := gitfetch.Fetch(context.Background(), srv.URL+"/other.git", "main", o)
	expectKind(t, err, fetch.ErrBusy, false, "1 outbound fetches are running")
	expectKind(t, <-first, fetch.ErrTimeout, false, "500ms")
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("the silent server held the fetch %s", d)
	}
	// The slot is free again.
	o.Fetch.WaitTimeout = 100 * time.Millisecond
	_, err = gitfetch.Fetch(context.Background(), srv.URL+"/repo.git", "main", o)
	expectKind(t, err, fetch.ErrTimeout, false)
}
