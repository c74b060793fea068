package buildinfo

import (
	"runtime/debug"
	"testing"
	"time"
)

func TestFromMergesStampAndOverrides(t *testing.T) {
	t.Parallel()
	fileTime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	stamped := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "docsd", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "f854fe3abcdef0123456789abcdef0123456789a"},
			{Key: "vcs.time", Value: "2026-11-28T01:35:08Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	cases := []struct {
		name        string
		bi          *debug.BuildInfo
		o           overrides
		wantVersion string // APIVersion
		wantDate    string
	}{
		{"nothing stamped: devel, the binary's time", nil, overrides{}, "devel", "2026-01-02T03:04:05.000Z"},
		{"the toolchain's stamp", stamped, overrides{}, "devel+f854fe3abcde.dirty", "2026-11-28T01:35:08.000Z"},
		{"overrides win", stamped, overrides{version: "1.4.0", commit: "0123456789abcdef", date: "2026-12-01", modified: "false"},
			"1.4.0+0123456789ab", "2026-12-01T00:00:00.000Z"},
		{"a pseudo-version already names its commit",
			&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261128013508-f854fe3abcde"},
				Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "f854fe3abcdef0123456789abcdef0123456789a"}}},
			overrides{}, "v0.0.0-20261128013508-f854fe3abcde", "2026-01-02T03:04:05.000Z"},
		{"an unreadable date falls back to the binary's time", stamped, overrides{date: "yesterday"},
			"devel+f854fe3abcde.dirty", "2026-01-02T03:04:05.000Z"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got := from(c.bi, c.o, func() time.Time { return fileTime })
			if got.APIVersion() != c.wantVersion || got.DateISO() != c.wantDate {
				t.Errorf("got version %q date %q, want %q and %q", got.APIVersion(), got.DateISO(), c.wantVersion, c.wantDate)
			}
		})
	}
}

func TestReadKnowsTheRunningBinary(t *testing.T) {
	t.Parallel()
	info := Read()
	if info.Version == "" || info.GoVersion == "" || info.Date.IsZero() || info.Date.After(time.Now().Add(time.Minute)) {
		t.Errorf("Read() = %+v: want a version, a Go version and a date not in the future", info)
	}
}
