// Package gittest serves Git repositories for tests: a repository made from a map of files,
// committed with go-git and served over HTTP by `git http-backend` on 127.0.0.1, the same
// way gitfetch's own tests serve theirs.
package gittest

import (
	"io"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Repo is a served repository.
type Repo struct {
	URL    string // the clone URL
	Commit string // the commit main points at
}

// Serve commits files (path → content) on branch main of a new repository and serves it until
// the test ends. The test is skipped when git is not installed.
func Serve(t testing.TB, files map[string]string) Repo {
	t.Helper()
	gitPath := GitPath(t)
	root := t.TempDir()
	dir := filepath.Join(root, "repo")
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
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
	sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	h, err := wt.Commit("Docs\n", &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		t.Fatal(err)
	}
	head, err := repo.Head()
	if err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewHashReference("refs/heads/main", h)); err != nil {
		t.Fatal(err)
	}
	if err := repo.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/main")); err != nil {
		t.Fatal(err)
	}
	if head.Name() != "refs/heads/main" {
		if err := repo.Storer.RemoveReference(head.Name()); err != nil {
			t.Fatal(err)
		}
	}
	srv := httptest.NewServer(Backend(gitPath, root))
	t.Cleanup(srv.Close)
	return Repo{URL: srv.URL + "/repo/.git", Commit: h.String()}
}

// GitPath is the git command, or skips the test when git is not installed.
func GitPath(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed: no git http-backend to serve the test repository")
	}
	return p
}

// Backend is git http-backend serving the repositories under root (a repository at
// root/name is at /name/.git, or /name for a bare one).
func Backend(gitPath, root string) http.Handler {
	return &cgi.Handler{
		Path:   gitPath,
		Args:   []string{"http-backend"},
		Env:    []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + root},
		Stderr: io.Discard, // "Not a git repository" for a missing repository
	}
}
