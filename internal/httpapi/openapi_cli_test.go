package httpapi_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"docsd/internal/apitest"
)

// TestIntegrationOpenAPIGitBookCLI publishes specifications with `gitbook openapi publish`,
// pointed at docsd by the CLI's own settings (GITBOOK_ENDPOINT and GITBOOK_TOKEN): from a
// file (sent as text) and from a URL, and again after a change, which makes a new version.
func TestIntegrationOpenAPIGitBookCLI(t *testing.T) {
	node, cli := gitbookCLI(t)
	srv := newSpecServer(t, map[string]string{"v3/openapi.yaml": openAPI30Doc, "v3/schemas/pet.yaml": petSchemas})
	e := apitest.New(t)
	home := t.TempDir()
	publish := func(slug, source string) string {
		t.Helper()
		ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, cli, "openapi", "publish", "--spec", slug, "--organization", e.Org, source)
		cmd.Dir = home
		cmd.Env = append(os.Environ(), "GITBOOK_ENDPOINT="+e.URL, "GITBOOK_TOKEN="+e.Admin.Token, "HOME="+home,
			"XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("gitbook openapi publish %s: %v\n%s", source, err, out)
		}
		if !strings.Contains(string(out), `OpenAPI specification "`+slug+`" published to`) {
			t.Fatalf("the CLI said: %s", out)
		}
		return string(out)
	}
	file := filepath.Join(home, "pets.json")
	if err := os.WriteFile(file, []byte(openAPI31Doc), 0o644); err != nil {
		t.Fatal(err)
	}
	base := "/v1/orgs/" + e.Org + "/openapi"

	publish("pets", "pets.json")
	first := processed(t, e, "pets")
	if first.Str("lastVersion") == "" || first.Has("sourceURL") {
		t.Fatalf("after publishing a file: %v", first.Map())
	}
	c := e.Get(e.Admin, base+"/pets/versions/latest/content").Expect(200)
	if fs, _ := c.Get("filesystem"); fs.(map[string]any)["openapi.json"] != openAPI31Doc {
		t.Errorf("the published file's content: %v", fs)
	}

	publish("pets", "pets.json")
	if again := processed(t, e, "pets"); again.Str("lastVersion") != first.Str("lastVersion") {
		t.Errorf("publishing the same file made a version")
	}
	changed := strings.Replace(openAPI31Doc, `"version": "1"`, `"version": "2"`, 1)
	if err := os.WriteFile(file, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	publish("pets", file)
	second := processed(t, e, "pets")
	if second.Str("lastVersion") == first.Str("lastVersion") {
		t.Fatal("publishing a changed file made no version")
	}
	if n := len(e.Get(e.Admin, base+"/pets/versions").IDs()); n != 2 {
		t.Errorf("%d versions, want 2", n)
	}

	publish("from-url", srv.URL+"/v3/openapi.yaml")
	r := processed(t, e, "from-url")
	if r.Str("sourceURL") != srv.URL+"/v3/openapi.yaml" || r.Str("lastVersion") == "" {
		t.Fatalf("after publishing a URL: %v", r.Map())
	}
}
