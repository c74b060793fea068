// Package buildinfo says which docsd is running: its version, the VCS commit it was built from
// and when, as the Go toolchain stamped them into the binary or as the build overrode them.
package buildinfo

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Link-time overrides, for builds the toolchain cannot stamp (a tarball without .git, a git
// worktree, GOFLAGS=-buildvcs=false) or that carry a release number:
//
//	go build -ldflags "-X docsd/internal/buildinfo.version=1.4.0 \
//	  -X docsd/internal/buildinfo.commit=$(git rev-parse HEAD) \
//	  -X docsd/internal/buildinfo.date=$(date -u +%Y-%m-%dT%H:%M:%SZ)" ./cmd/docsd
//
// They are variables only because -X can set nothing else; nothing assigns them at run time.
var (
	version  string // release version
	commit   string // VCS revision
	date     string // build or commit date, ISO 8601
	modified string // "true" when built from a work tree with uncommitted changes
)

// Info identifies a build.
type Info struct {
	Version   string    // release version; "devel" for a build without one
	Commit    string    // VCS revision; empty when unknown
	Modified  bool      // built from a work tree with uncommitted changes
	Date      time.Time // the commit's time, else the binary's modification time; zero if neither is known
	GoVersion string    // toolchain that built the binary
}

// Read returns the running binary's build information.
func Read() Info {
	bi, _ := debug.ReadBuildInfo()
	return from(bi, overrides{version: version, commit: commit, date: date, modified: modified}, executableTime)
}

type overrides struct{ version, commit, date, modified string }

// from merges what the toolchain stamped (bi, possibly nil) with the link-time overrides,
// which win; fileTime is the fallback for the date.
func from(bi *debug.BuildInfo, o overrides, fileTime func() time.Time) Info {
	info := Info{Version: "devel"}
	var vcsTime string
	if bi != nil {
		info.GoVersion = bi.GoVersion
		// "(devel)" is what the toolchain writes when it knows no module version.
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			info.Version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				info.Commit = s.Value
			case "vcs.time":
				vcsTime = s.Value
			case "vcs.modified":
				info.Modified = s.Value == "true"
			}
		}
	}
	if o.version != "" {
		info.Version = o.version
	}
	if o.commit != "" {
		info.Commit = o.commit
	}
	if o.modified != "" {
		info.Modified, _ = strconv.ParseBool(o.modified)
	}
	if o.date != "" {
		vcsTime = o.date
	}
	if t, ok := parseDate(vcsTime); ok {
		info.Date = t
	} else {
		info.Date = fileTime()
	}
	return info
}

// parseDate accepts a full RFC 3339 time or a plain date.
func parseDate(s string) (time.Time, bool) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// executableTime is when the running binary was written: the build's date when the VCS gave
// none (go run and go test builds, which the toolchain never stamps).
func executableTime() time.Time {
	exe, err := os.Executable()
	if err != nil {
		return time.Time{}
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return time.Time{}
	}
	return fi.ModTime().UTC().Truncate(time.Second)
}

// ShortCommit is the commit's first 12 hex digits, as Go pseudo-versions show it.
func (i Info) ShortCommit() string {
	if len(i.Commit) > 12 {
		return i.Commit[:12]
	}
	return i.Commit
}

// APIVersion is the version as GET /v1/ answers it: the release version, with the commit
// (and ".dirty" for a modified work tree) as semver build metadata when it is known and the
// version does not already name it, as a pseudo-version does.
func (i Info) APIVersion() string {
	c := i.ShortCommit()
	if c == "" || strings.Contains(i.Version, c) {
		return i.Version
	}
	v := i.Version + "+" + c
	if i.Modified {
		v += ".dirty"
	}
	return v
}

// DateISO is the date in ISO 8601 UTC with milliseconds, as every time in the API; empty when
// unknown.
func (i Info) DateISO() string {
	if i.Date.IsZero() {
		return ""
	}
	return i.Date.UTC().Format("2006-01-02T15:04:05.000Z")
}
