package config_test

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
	"time"

	"docsd/internal/config"
)

func TestBooleanFlags(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name      string
		args      []string
		env       map[string]string
		wantAllow bool
		wantAddr  string
		wantTLS   bool
	}{
		{"a bare flag is true and leaves the next flag alone", []string{"--fetch-allow-private", "--addr", "127.0.0.1:9000"}, nil, true, "127.0.0.1:9000", true},
		{"a bare flag last", []string{"-addr", "127.0.0.1:9000", "-fetch-allow-private"}, nil, true, "127.0.0.1:9000", true},
		{"=false turns it off over the environment", []string{"--fetch-allow-private=false", "--blob-s3-use-tls=false"},
			map[string]string{"DOCSD_FETCH_ALLOW_PRIVATE": "true"}, false, "127.0.0.1:8080", false},
		{"the environment sets the default", nil, map[string]string{"DOCSD_FETCH_ALLOW_PRIVATE": "1"}, true, "127.0.0.1:8080", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cfg, err := config.Load("docsd serve", c.args, envOf(c.env), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if cfg.FetchAllowPrivate != c.wantAllow || cfg.Addr != c.wantAddr || cfg.BlobS3.UseTLS != c.wantTLS {
				t.Errorf("FetchAllowPrivate=%v Addr=%q UseTLS=%v, want %v %q %v", cfg.FetchAllowPrivate, cfg.Addr, cfg.BlobS3.UseTLS, c.wantAllow, c.wantAddr, c.wantTLS)
			}
		})
	}
}

func TestBadCommandLinesAreUsageErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want []string // fragments of the message
	}{
		{"a space-separated boolean value", []string{"--fetch-allow-private", "false"}, nil, []string{`"false"`, "--flag=false"}},
		{"an unknown flag", []string{"--nope"}, nil, []string{"-nope", "docsd help serve"}},
		{"a stray argument", []string{"stray"}, nil, []string{`"stray"`, "docsd help serve"}},
		{"an unreadable boolean variable", nil, map[string]string{"DOCSD_FETCH_ALLOW_PRIVATE": "sure"}, []string{"DOCSD_FETCH_ALLOW_PRIVATE", "--fetch-allow-private", `"sure"`}},
		{"an unreadable count variable", nil, map[string]string{"DOCSD_IMPORT_SYNC_PAGES": "-1"}, []string{"DOCSD_IMPORT_SYNC_PAGES", "0 or more"}},
		{"a bad address", []string{"--addr", "nowhere"}, nil, []string{"addr", "nowhere"}},
		{"too little script memory", []string{"--script-memory-bytes", "1000"}, nil, []string{"script-memory-bytes", "4 MiB", "1000"}},
		{"no script time", nil, map[string]string{"DOCSD_SCRIPT_TIME_LIMIT": "0s"}, []string{"DOCSD_SCRIPT_TIME_LIMIT", "positive duration"}},
		{"a shallow script stack", nil, map[string]string{"DOCSD_SCRIPT_STACK": "10"}, []string{"script-stack", "100 or more"}},
		{"no script response", []string{"--script-response-bytes=0"}, nil, []string{"script-response-bytes", "1 or more"}},
		{"no script fetches", []string{"--script-fetches=0"}, nil, []string{"script-fetches", "1 or more"}},
		{"too many warm VMs", []string{"--script-warm-vms=17"}, nil, []string{"script-warm-vms", "0 to 16"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			_, err := config.Load("docsd serve", c.args, envOf(c.env), &out)
			var usage *config.UsageError
			if !errors.As(err, &usage) {
				t.Fatalf("err = %v, want a UsageError", err)
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %q, want it to mention %s", err, w)
				}
			}
			if out.Len() > 0 {
				t.Errorf("an error printed %q to the help output", out.String())
			}
		})
	}
}

func TestHelpPrintsTheFlags(t *testing.T) {
	t.Parallel()
	for _, arg := range []string{"-h", "-help", "--help"} {
		var out bytes.Buffer
		f := config.NewFlags("docsd serve", envOf(nil), &out)
		f.Usage = "usage: docsd serve [flags]"
		if _, err := f.Parse([]string{arg}); !errors.Is(err, flag.ErrHelp) {
			t.Fatalf("%s: err = %v, want flag.ErrHelp", arg, err)
		}
		for _, w := range []string{"usage: docsd serve [flags]", "-fetch-allow-private", "DOCSD_FETCH_ALLOW_PRIVATE", "-addr"} {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s printed %q, want it to mention %s", arg, out.String(), w)
			}
		}
	}
}

func TestScriptLimitsFromFlagsAndEnvironment(t *testing.T) {
	t.Parallel()
	c, err := config.Load("docsd serve", []string{"--script-time-limit=2s", "--script-fetches=3"},
		envOf(map[string]string{"DOCSD_SCRIPT_MEMORY_BYTES": "8388608", "DOCSD_SCRIPT_STACK": "700", "DOCSD_SCRIPT_RESPONSE_BYTES": "1024", "DOCSD_SCRIPT_FETCHES": "9", "DOCSD_SCRIPT_WARM_VMS": "0"}), io.Discard)
	want := config.ScriptLimits{Time: 2 * time.Second, MemoryBytes: 8 << 20, Stack: 700, ResponseBytes: 1024, Fetches: 3, WarmVMs: 0}
	if err != nil || c.Script != want {
		t.Fatalf("limits %+v, %v; want %+v (the flag wins over the variable)", c.Script, err, want)
	}
	d, err := config.Load("docsd serve", nil, envOf(nil), io.Discard)
	if err != nil || d.Script != config.Defaults().Script || d.Script.Time != 10*time.Second {
		t.Fatalf("default limits %+v, %v", d.Script, err)
	}
}
