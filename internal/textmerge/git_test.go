package textmerge

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// gitMergeFile runs `git merge-file -p` on the three texts and reports its output and whether the
// merge was clean. It skips the test when git is not installed.
func gitMergeFile(t *testing.T, base, ours, theirs string) (string, bool) {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"base": base, "ours": ours, "theirs": theirs} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(git, "merge-file", "-p", "ours", "base", "theirs")
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return string(out), true
	case errors.As(err, &exit) && exit.ExitCode() > 0:
		return string(out), false // the exit code counts the conflicts
	default:
		t.Fatalf("git merge-file: %v", err)
		return "", false
	}
}
