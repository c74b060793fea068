package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsd/internal/buildinfo"
)

func noEnv(string) string { return "" }

// runArgs runs docsd with args and returns its stdout, stderr and exit status.
func runArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, noEnv, &out, &errOut)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		errOut.WriteString("docsd: " + err.Error() + "\n")
	}
	return out.String(), errOut.String(), exitCode(err)
}

func TestHelpListsEveryCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"help", "help"}} {
		out, errOut, code := runArgs(t, args...)
		if code != 0 || errOut != "" {
			t.Fatalf("docsd %v: exit %d, stderr %q", args, code, errOut)
		}
		for _, c := range commands() {
			line := "  " + c.name + " "
			if n := strings.Count(out, "\n"+line); n != 1 || c.summary == "" || !strings.Contains(out, c.summary+"\n") {
				t.Errorf("docsd %v: want one line for %s with its summary, got\n%s", args, c.name, out)
			}
		}
	}
}

func TestHelpForACommandIsItsFlagHelp(t *testing.T) {
	t.Parallel()
	cases := []struct {
		help, flag []string
		want       []string
	}{
		{[]string{"help", "serve"}, []string{"serve", "--help"}, []string{"usage: docsd [serve]", "-fetch-allow-private", "-addr"}},
		{[]string{"help", "migrate"}, []string{"migrate", "-h"}, []string{"usage: docsd migrate", "-database-url"}},
		{[]string{"help", "admin"}, []string{"admin", "--help"}, []string{"create-user", "create-token", "create-org"}},
		{[]string{"help", "admin", "create-org"}, []string{"admin", "create-org", "--help"}, []string{"usage: docsd admin create-org --title T --owner E", "-owner"}},
		{[]string{"help", "version"}, []string{"version", "--help"}, []string{"usage: docsd version", "-ldflags"}},
	}
	for _, c := range cases {
		viaHelp, errOut, code := runArgs(t, c.help...)
		if code != 0 || errOut != "" {
			t.Fatalf("docsd %v: exit %d, stderr %q", c.help, code, errOut)
		}
		viaFlag, _, code := runArgs(t, c.flag...)
		if code != 0 || viaFlag != viaHelp {
			t.Errorf("docsd %v (exit %d) printed\n%s\nwant what docsd %v prints:\n%s", c.flag, code, viaFlag, c.help, viaHelp)
		}
		for _, w := range c.want {
			if !strings.Contains(viaHelp, w) {
				t.Errorf("docsd %v: want %q in\n%s", c.help, w, viaHelp)
			}
		}
	}
}

func TestUsageErrorsExitWithTwo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"frob"}, []string{`unknown command "frob"`, "serve, migrate, admin, version and help"}},
		{[]string{"help", "frob"}, []string{`unknown command "frob"`}},
		{[]string{"admin"}, []string{"create-org, backup, restore or check"}},
		{[]string{"admin", "frob"}, []string{`unknown command "frob"`, "docsd help admin"}},
		{[]string{"admin", "create-token", "--data-dir", dir}, []string{"--email is required"}},
		{[]string{"serve", "--nope"}, []string{"-nope", "docsd help serve"}},
		{[]string{"serve", "--fetch-allow-private", "false"}, []string{`unexpected argument "false"`, "--flag=false"}},
		{[]string{"version", "extra"}, []string{`unexpected argument "extra"`}},
	}
	for _, c := range cases {
		out, errOut, code := runArgs(t, c.args...)
		if code != 2 || out != "" {
			t.Errorf("docsd %v: exit %d and stdout %q, want 2 and nothing", c.args, code, out)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("docsd %v: stderr %q, want it to mention %s", c.args, errOut, w)
			}
		}
	}
}

func TestAFailureWhileRunningExitsWithOne(t *testing.T) {
	t.Parallel()
	_, errOut, code := runArgs(t, "admin", "create-token", "--email", "nobody@example.com", "--data-dir", t.TempDir())
	if code != 1 || errOut == "" {
		t.Errorf("create-token for an unknown user: exit %d, stderr %q; want 1 and a message", code, errOut)
	}
}

func TestVersionPrintsTheBuild(t *testing.T) {
	t.Parallel()
	info := buildinfo.Read()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		out, _, code := runArgs(t, args...)
		want := []string{"docsd " + info.Version + "\n", "built  " + info.Date.Format(time.RFC3339) + "\n", "go     " + info.GoVersion + "\n", "commit "}
		for _, w := range want {
			if code != 0 || !strings.Contains(out, w) {
				t.Errorf("docsd %v: exit %d, printed %q, want it to contain %q", args, code, out, w)
			}
		}
	}
}

// TestServeTakesBareBooleanFlags starts the real server with a boolean flag followed by
// another flag, and reads the configuration it logs when it starts listening.
func TestServeTakesBareBooleanFlags(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, logs lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--fetch-allow-private", "--addr", "127.0.0.1:0", "--data-dir", filepath.Join(dir, "data")}, noEnv, &out, &logs)
	}()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "docsd is serving the API at") {
		select {
		case err := <-done:
			t.Fatalf("serve stopped before serving: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start within 30 s:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop within 30 s of its context ending")
	}
	var listening struct {
		Config struct {
			Addr              string `json:"addr"`
			FetchAllowPrivate bool   `json:"fetchAllowPrivate"`
		} `json:"config"`
	}
	for _, line := range strings.Split(logs.String(), "\n") {
		if strings.Contains(line, `"msg":"docsd listening"`) {
			if err := json.Unmarshal([]byte(line), &listening); err != nil {
				t.Fatal(err)
			}
		}
	}
	if !listening.Config.FetchAllowPrivate || listening.Config.Addr != "127.0.0.1:0" {
		t.Errorf("serve ran with %+v, want fetchAllowPrivate true and addr 127.0.0.1:0; log:\n%s", listening.Config, logs.String())
	}
}
