package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"docsd/internal/buildinfo"
	"docsd/internal/config"
)

// version prints what GET /v1/ answers, in more detail: the release version, the commit and
// whether its work tree had changes, the build date and the Go toolchain.
func version(_ context.Context, args []string, _ func(string) string, stdout, _ io.Writer) error {
	fs := flag.NewFlagSet("docsd version", flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), `usage: docsd version

Print the version, the VCS commit and the build date stamped into this binary (GET /v1/
answers the same). A build from a git checkout carries its commit; other builds can set them
with -ldflags -X (see the README).
`)
	}
	if err := config.ParseArgs(fs, args, stdout, "docsd help version"); err != nil {
		return err
	}
	info := buildinfo.Read()
	commit := info.Commit
	switch {
	case commit == "":
		commit = "unknown (not stamped into this build)"
	case info.Modified:
		commit += " (with uncommitted changes)"
	}
	built := info.Date.Format("2006-01-02T15:04:05Z")
	if info.Date.IsZero() {
		built = "unknown"
	}
	fmt.Fprintf(stdout, "docsd %s\ncommit %s\nbuilt  %s\ngo     %s\n", info.Version, commit, built, info.GoVersion)
	return nil
}
