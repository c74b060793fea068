// Package jsruntest builds integrations written for tests the way @gitbook/cli builds them, for
// the end-to-end tests of the engine and of the integrations that run on it.
package jsruntest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// Bundle bundles entry (relative to dir, a folder where test/jsrun/run.sh or the like installed
// @gitbook/runtime with npm ci) the way @gitbook/cli builds a script for publishing: ESM, target
// ES2020, neutral platform with the worker conditions, MODE defined, ContentKit JSX. Without
// npm's packages the test skips, unless DOCSD_TEST_JSRUN=required (CI) makes that a failure.
func Bundle(tb testing.TB, dir, entry string) string {
	tb.Helper()
	dir, err := filepath.Abs(dir)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@gitbook", "runtime", "package.json")); err != nil {
		if os.Getenv("DOCSD_TEST_JSRUN") == "required" {
			tb.Fatalf("@gitbook/runtime is not installed in %s (run test/jsrun/run.sh): %v", dir, err)
		}
		tb.Skipf("@gitbook/runtime is not installed in %s; test/jsrun/run.sh installs it (DOCSD_TEST_JSRUN=required makes this a failure)", dir)
	}
	res := api.Build(api.BuildOptions{
		AbsWorkingDir:     dir,
		EntryPoints:       []string{entry},
		Outfile:           "script.js",
		Bundle:            true,
		Write:             false,
		Platform:          api.PlatformNeutral,
		Format:            api.FormatESModule,
		Target:            api.ES2020,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		MainFields:        []string{"worker", "browser", "module", "jsnext", "main"},
		Conditions:        []string{"worker", "browser", "import", "production"},
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`, "MODE": `"production"`},
		External:          []string{"node:*", "cloudflare:*"},
		JSX:               api.JSXAutomatic,
		JSXImportSource:   "@gitbook/runtime",
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		tb.Fatalf("esbuild: %+v", res.Errors)
	}
	if len(res.OutputFiles) != 1 {
		tb.Fatalf("esbuild wrote %d files", len(res.OutputFiles))
	}
	return string(res.OutputFiles[0].Contents)
}
