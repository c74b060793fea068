// Package buildbin compiles the docsd binary for the benchmark commands, which measure the
// server as it is shipped (no race detector, no coverage) in a child process.
package buildbin

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// Docsd compiles docsd into dir and returns the binary's path. It must run inside the docsd
// module; the compiler's output goes to stderr.
func Docsd(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "docsd")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "docsd/cmd/docsd")
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("build docsd (run the benchmark from inside the docsd module): %w", err)
	}
	return bin, nil
}
