package httpapi_test

import (
	"bufio"
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
	"docsd/internal/store"
)

// cliDir is where test/cli-integrations/run.sh installs @gitbook/cli and @gitbook/runtime.
const cliDir = "../../test/cli-integrations"

// gitbookCLI finds node and the installed CLI; without them the test skips, unless
// DOCSD_TEST_CLI=required (CI), where it fails.
func gitbookCLI(t *testing.T) (node, cli string) {
	t.Helper()
	missing := func(what string) {
		if os.Getenv("DOCSD_TEST_CLI") == "required" {
			t.Fatalf("%s is missing (run test/cli-integrations/run.sh)", what)
		}
		t.Skipf("%s is missing: run test/cli-integrations/run.sh to run this test", what)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node")
	}
	cli, _ = filepath.Abs(filepath.Join(cliDir, "node_modules/@gitbook/cli/dist/cli.js"))
	if _, err := os.Stat(cli); err != nil {
		missing("@gitbook/cli")
	}
	return node, cli
}

// TestIntegrationCLI runs the real `gitbook` CLI, unchanged, against a test server: auth,
// whoami, publish (twice: a new version), tail and unpublish, as a developer would.
func TestIntegrationCLI(t *testing.T) {
	node, cli := gitbookCLI(t)
	e := apitest.New(t)
	work := t.TempDir()
	env := append(os.Environ(), "HOME="+work, "XDG_CONFIG_HOME="+filepath.Join(work, "config"),
		"TMPDIR="+work, "DOCSD_CLI_SECRET=from-the-environment", "GITBOOK_TOKEN=", "GITBOOK_ENDPOINT=", "NO_COLOR=1")
	run := func(stdin string, args ...string) (string, error) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, append([]string{cli}, args...)...)
		cmd.Dir, cmd.Env, cmd.Stdin = work, env, strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	mustRun := func(stdin string, args ...string) string {
		t.Helper()
		out, err := run(stdin, args...)
		if err != nil {
			t.Fatalf("gitbook %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return out
	}

	// A wrong token: the CLI shows docsd's error message.
	if out, err := run("", "auth", "--endpoint", e.URL, "--token", "dsd_not-a-token"); err == nil || !strings.Contains(out, "invalid API token") {
		t.Fatalf("auth with a wrong token: %v\n%s", err, out)
	}
	if out := mustRun("", "auth", "--endpoint", e.URL, "--token", e.Admin.Token); !strings.Contains(out, "You are now authenticated as admin") {
		t.Fatalf("auth: %s", out)
	}
	if out := mustRun("", "whoami"); !strings.Contains(out, "Authenticated as admin") || !strings.Contains(out, "API: "+e.URL) ||
		!strings.Contains(out, "Email: "+e.Admin.Email) {
		t.Fatalf("whoami: %s", out)
	}

	// The integration: its script in the repository (bundled with @gitbook/runtime by the CLI),
	// its manifest and icon here.
	script, _ := filepath.Abs(filepath.Join(cliDir, "integration/src/index.ts"))
	icon, _ := base64.StdEncoding.DecodeString(pngBase64(t, 32, 32))
	if err := os.WriteFile(filepath.Join(work, "icon.png"), icon, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := `name: docsd-cli-test
title: Docsd CLI test
description: Published by the real GitBook CLI
script: ` + script + `
icon: ./icon.png
visibility: public
organization: ` + e.Org + `
scopes:
  - space:content:read
categories:
  - analytics
blocks:
  - id: chart
    title: Chart
    urlUnfurl:
      - https://charts.example.test/*
configurations:
  account:
    properties:
      apiKey:
        type: string
        title: API key
    required:
      - apiKey
secrets:
  API_KEY: ${{ env.DOCSD_CLI_SECRET }}
`
	if err := os.WriteFile(filepath.Join(work, "gitbook-manifest.yaml"), []byte(manifest), 0o644); err != nil {
		t.Fatal(err)
	}
	out := mustRun("", "publish")
	if !strings.Contains(out, `Integration "docsd-cli-test" published`) || !strings.Contains(out, e.URL+"/integrations/docsd-cli-test") {
		t.Fatalf("publish: %s", out)
	}
	g := e.Get(e.Admin, "/v1/integrations/docsd-cli-test").Expect(200)
	if g.Num("version") != 1 || g.Str("urls.icon") == "" || g.Str("blocks.0.id") != "chart" || g.Str("configurations.account.required.0") != "apiKey" {
		t.Fatalf("published integration: %s", g.Body)
	}
	stored, err := store.Integrations{DB: e.App.DB}.Read().Integration(context.Background(), "docsd-cli-test")
	if err != nil {
		t.Fatal(err)
	}
	// The bundle holds the runtime's dispatcher (it reads the `fetch-body` field), and the
	// secret arrived expanded, kept encrypted.
	if stored.Runtime != "v2" || !strings.Contains(stored.Script, "fetch-body") || len(stored.Script) < 1000 ||
		strings.Contains(stored.SealedSecrets, "from-the-environment") {
		t.Fatalf("stored: runtime %s, script of %d bytes, sealed secrets %q", stored.Runtime, len(stored.Script), stored.SealedSecrets)
	}
	mustRun("", "publish")
	if g := e.Get(e.Admin, "/v1/integrations/docsd-cli-test").Expect(200); g.Num("version") != 2 {
		t.Fatalf("second publish: %s", g.Body)
	}

	// Development mode towards the bundle itself: a receiver hands docsd's deliveries to the
	// bundle's fetch handler, so @gitbook/runtime's own dispatcher reads the multipart form.
	port, dispatched := receiver(t, node, filepath.Join(work, ".gitbook", "docsd-cli-test", "script.js"), env)
	e.Put(e.Admin, "/v1/integrations/docsd-cli-test/dev", map[string]any{"tunnelUrl": "http://127.0.0.1:" + port}).Expect(204)

	// An installation makes an event, which the runtime handles; tail prints it with its trace.
	e.Post(e.Admin, "/v1/integrations/docsd-cli-test/installations", map[string]any{"organization": e.Org}).Expect(201)
	e.RunDue()
	select {
	case line := <-dispatched:
		if line != "dispatched 200" {
			t.Fatalf("the runtime answered: %s", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver got no delivery")
	}
	tailOut := tail(t, node, cli, work, env, "answer 200: delivered")
	if !strings.Contains(tailOut, `[success]`) || !strings.Contains(tailOut, `"type":"installation_setup"`) ||
		!strings.Contains(tailOut, "queued installation_setup") || !strings.Contains(tailOut, "answer 200: delivered") {
		t.Fatalf("tail: %s", tailOut)
	}

	// Unpublish asks for confirmation, then deletes.
	if out := mustRun("y\n", "unpublish", "docsd-cli-test"); !strings.Contains(out, `Integration "docsd-cli-test" has been deleted`) {
		t.Fatalf("unpublish: %s", out)
	}
	e.Get(e.Admin, "/v1/integrations/docsd-cli-test").ExpectError(404)
}

// tail runs `gitbook tail` until its output shows want (it never exits by itself), then stops it.
func tail(t *testing.T, node, cli, dir string, env []string, want string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, cli, "tail")
	cmd.Dir, cmd.Env = dir, env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	var out strings.Builder
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		out.WriteString(sc.Text() + "\n")
		if strings.Contains(out.String(), want) {
			break
		}
	}
	return out.String()
}

// receiver starts test/cli-integrations/receiver.mjs on bundle and returns its port and its
// lines about the requests it dispatched.
func receiver(t *testing.T, node, bundle string, env []string) (string, <-chan string) {
	t.Helper()
	script, _ := filepath.Abs(filepath.Join(cliDir, "receiver.mjs"))
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, node, script, bundle)
	cmd.Env = env
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		_ = cmd.Wait()
	})
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case line := <-lines:
		port, ok := strings.CutPrefix(line, "listening ")
		if !ok {
			t.Fatalf("receiver: %s", line)
		}
		out := make(chan string, 16)
		go func() {
			for l := range lines {
				if strings.HasPrefix(l, "dispatched ") || strings.HasPrefix(l, "failed ") {
					out <- l
				}
			}
		}()
		return port, out
	case <-time.After(30 * time.Second):
		t.Fatal("the receiver did not start")
	}
	return "", nil
}
